"""Fumblaroo's card-location inference: the clues read from the bids and plays, their
likelihood under the rules of thumb, and worlds weighed by it that favour the true deal."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from games.fumblaroo import Fumblaroo
from games.fumblaroo.computer.advice import FumblarooAdvice, Weighed
from games.fumblaroo.computer.bits import CARD_ID, SUIT, hand_mask
from games.fumblaroo.computer.fast import PLAYERS, FumblarooState
from games.fumblaroo.computer.inference import (
    DISCARD_CHOICES,
    Bid,
    Call,
    Play,
    bid_likelihood,
    clues,
    dealt_hand,
    play_likelihood,
    readings,
    weight,
)
from games.fumblaroo.computer.knowledge import KNOWLEDGE, OVERPLAYS, WAVER, unseen
from games.fumblaroo.computer.thumb import ORDER_AT, hand_weight
from games.players import decide, perspective
from games.players.weighed import RULES_PRIOR, SLIP
from tests.games.fumblaroo.helpers import game


def mask(text: str) -> int:
    from games.fumblaroo.cards import DECK

    return hand_mask([DECK.parse(t) for t in text.split()])


def cid(text: str) -> int:
    from games.fumblaroo.cards import DECK

    return CARD_ID[DECK.parse(text)]


def easy_game(seed: int, actions: int, target: int = 5, level: str = "easy") -> Fumblaroo:
    g = Fumblaroo.new(3, {"target": target}, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if g.over:
            break
        seat = g.to_act
        assert seat is not None
        g.apply(seat, decide(level, perspective(g, seat), rng).action)
    return g


def true_deal(g: Fumblaroo) -> list[int]:
    """The game's hands now and the dealer's discard, as :func:`deal_unseen` deals them."""
    return [*FumblarooState.from_game(g).hands, hand_mask(g.discarded)]


def test_every_other_seats_bid_call_and_play_is_a_clue_and_its_own_are_not():
    # Seat 0 passes, seat 1 passes, the dealer (2) turns down hearts, seat 0 calls spades.
    hands = ["9S TS JS QS AS", "2D TD KD AD 9H", "JH QH KH AH 9C"]
    g = game(hands, "TH", actions=("0 pass", "1 pass", "2 turn", "0 call S", "0 play AS",
                                   "1 play 9H", "2 play 9C", "0 play QS", "1 play 2D"))
    p = perspective(g, 2)  # the dealer, to act
    u = unseen(p)
    c = clues(p, u)
    assert c.found == (
        Bid(0, took=False, dealer=False), Bid(1, took=False, dealer=False),
        Call(0, SUIT[cid("9S")]),
        Play(0, cid("AS"), later=mask("QS"), trick=()),
        Play(1, cid("9H"), later=mask("2D"), trick=(cid("AS"),)),
        Play(0, cid("QS"), later=0, trick=()),
        Play(1, cid("2D"), later=0, trick=(cid("QS"),)),
    )
    assert (c.up, c.turned, c.trump, c.caller, c.dealer) == (
        cid("TH"), SUIT[cid("TH")], SUIT[cid("9S")], 0, 2)
    assert not c.taken_up and not c.discarded
    # Seat 0 sees the dealer's turn and seat 1's bid and plays, not its own.
    q = perspective(g, 0)
    assert [type(k).__name__ for k in clues(q, unseen(q)).found] == [
        "Bid", "Bid", "Play", "Play", "Play"]
    assert {k.seat for k in clues(q, unseen(q)).found} == {1, 2}


def test_the_dealers_dealt_hand_is_what_they_hold_and_played_and_threw_less_the_up_card():
    hands = ["9D 9S TS JS QS", "2D TD KS AS 9H", "JH QH KH AH 2H"]
    g = game(hands, "TH", actions=("0 order", "2 discard JH", "0 play 9S", "1 play AS",
                                   "2 play QH"))
    p = perspective(g, 0)
    c = clues(p, unseen(p))
    assert c.taken_up and c.discarded
    dealt = true_deal(g)
    assert dealt_hand(c, 2, dealt[:PLAYERS], dealt[PLAYERS]) == mask(hands[2])
    assert dealt_hand(c, 1, dealt[:PLAYERS], dealt[PLAYERS]) == mask(hands[1])


def test_the_dealers_discard_alone_is_read():
    # Seat 0 orders up first: its own bid is no clue, but the dealer's discard is.
    hands = ["9D 9S TS JS QS", "2D TD KS AS 9H", "JH QH KH AH 2H"]
    g = game(hands, "TH", actions=("0 order", "2 discard JH"))
    before = game(hands, "TH", actions=("0 order",))
    assert Weighed(perspective(before, 0), 64).pool is None  # nothing yet to read
    p = perspective(g, 0)
    c = clues(p, unseen(p))
    assert c.found == () and c.discarded
    pool = Weighed(p, 64).pool
    assert pool is not None
    weights = [weight(c, deal) for deal in pool.deals]
    # Some worlds explain it, some not: the dealer throws the rules' card, or any of six.
    alike = 1 / DISCARD_CHOICES
    assert max(weights) == pytest.approx(RULES_PRIOR * (1 - SLIP + SLIP * alike)
                                         + (1 - RULES_PRIOR) * alike)
    assert min(weights) == pytest.approx(RULES_PRIOR * SLIP * alike + (1 - RULES_PRIOR) * alike)


def test_a_bid_is_as_likely_as_the_hands_weight_and_the_easy_waver_make_it():
    strong, weak = mask("2H 2D AH KH QH"), mask("9S TC JD 9H AS")
    up = cid("TH")
    heart = SUIT[up]
    assert hand_weight(strong, heart) > ORDER_AT + 3 * WAVER
    assert bid_likelihood(True, strong, up, dealer=False) > 0.99
    assert bid_likelihood(False, strong, up, dealer=False) < 0.01
    assert bid_likelihood(True, weak, up, dealer=False) < 0.01
    assert bid_likelihood(False, weak, up, dealer=False) > 0.99
    # At the bar itself, a coin: the waver is centred.
    middling = next(m for m in (mask("AH KH 9H 2S AS"), mask("AH KH QH 9S TS"),
                                mask("2H AH 9S TS JS"))
                    if abs(hand_weight(m, heart) - ORDER_AT) < 1e-9)
    assert bid_likelihood(True, middling, up, dealer=False) == pytest.approx(0.5)


def test_a_follow_is_the_cheapest_winner_or_now_and_then_the_dearest():
    trump = SUIT[cid("9S")]
    hand = mask("TH KH AH 9C")
    play = lambda card: Play(1, cid(card), later=0, trick=(cid("QH"),))  # noqa: E731
    assert play_likelihood(play("KH"), hand, trump, caller=False) == pytest.approx(1 - OVERPLAYS)
    assert play_likelihood(play("AH"), hand, trump, caller=False) == pytest.approx(OVERPLAYS)
    assert play_likelihood(play("TH"), hand, trump, caller=False) == 0.0
    # Leading: the caller draws trump with two or more, anyone else leads an Ace.
    lead = Play(0, cid("AS"), later=0, trick=())
    assert play_likelihood(lead, mask("AS KS 9D"), trump, caller=True) == 1.0
    assert play_likelihood(lead, mask("AS 9S AD"), trump, caller=False) == 0.0


def test_the_true_deal_weighs_more_than_most_worlds_the_seat_could_imagine():
    """Over positions of easy games, where the true deal ranks among the seat's pool by
    weight: with weights that read nothing it would tie at the bottom, with a model as
    good as a coin sit in the middle."""
    quantiles = []
    for seed in range(40):
        g = easy_game(seed, random.Random(seed + 99).randrange(3, 14))
        if g.over:
            continue
        p = perspective(g, g.to_act)
        pool = Weighed(p, 64).pool
        if pool is None:
            continue
        c = clues(p, unseen(p))
        truth = weight(c, true_deal(g))
        quantiles.append(sum(weight(c, d) < truth for d in pool.deals) / len(pool.deals))
    assert len(quantiles) >= 20
    assert statistics.mean(quantiles) > 0.75


def test_before_anyone_else_bids_the_worlds_are_the_knowledges_draw_for_draw():
    g = easy_game(3, 0)
    p = perspective(g, g.to_act)
    weighed = Weighed(p, 32)
    assert weighed.pool is None
    assert weighed.draw(random.Random(5)).hands == KNOWLEDGE.sample(p, random.Random(5)).hands


def test_a_pool_of_none_draws_the_knowledges_worlds_and_a_pool_draws_its_own_deals():
    g = easy_game(4, 8)
    p = perspective(g, g.to_act)
    plain = FumblarooAdvice(blend=0, pool=0)
    assert plain.sample(p, random.Random(4)).hands == KNOWLEDGE.sample(p, random.Random(4)).hands
    with pytest.raises(ValueError, match="pool"):
        FumblarooAdvice(pool=-1)
    weighed = Weighed(p, 16)
    assert weighed.pool is not None
    deals = {tuple(d[:PLAYERS]) for d in weighed.pool.deals}
    advice = FumblarooAdvice(blend=0, pool=16)
    assert {tuple(advice.sample(p, random.Random(r)).hands) for r in range(12)} <= deals


def test_after_two_passes_on_hearts_the_dealers_worlds_give_the_passers_fewer_hearts():
    # Both others passed on hearts, so neither holds much heart; the dealer's worlds
    # should hold the hearts in the Kingdom rather than in the passers' hands.
    hands = ["9S TS JS QS AS", "2D TD KD AD 9C", "JH QH KH AH 9H"]
    g = game(hands, "TH", actions=("0 pass", "1 pass"))
    p = perspective(g, 2)
    pool = Weighed(p, 128).pool
    assert pool is not None
    hearts = [c for c in range(27) if SUIT[c] == SUIT[cid("TH")]]
    c = clues(p, unseen(p))

    def hearts_held(d: list[int]) -> int:
        return sum(bin(d[q] & sum(1 << h for h in hearts)).count("1") for q in (0, 1))

    weights = [weight(c, d) for d in pool.deals]
    weighed = sum(w * hearts_held(d) for w, d in zip(weights, pool.deals, strict=True))
    plain = statistics.mean(hearts_held(d) for d in pool.deals)
    assert weighed / sum(weights) < plain


def truth_against_pool(level: str, prior: float = RULES_PRIOR) -> list[float]:
    """Over positions of target-5 games of three ``level`` players: how much more likely
    (in nats) the seat to act's pool makes the true deal than its average world."""
    ratios = []
    for seed in range(80):
        g = easy_game(seed, random.Random(seed + 99).randrange(3, 14), level=level)
        if g.over:
            continue
        p = perspective(g, g.to_act)
        pool = Weighed(p, 64, prior=prior).pool
        if pool is None:
            continue
        c = clues(p, unseen(p))
        truth = weight(c, true_deal(g), prior)
        ratios.append(math.log(truth / statistics.fmean(pool.weights())))
    assert len(ratios) >= 40
    return ratios


def test_a_seat_off_the_rules_of_thumb_does_not_lead_the_worlds_astray():
    """Random players' bids and plays fit the rules of thumb only in some wrong worlds:
    read as rules-of-thumb players (``prior`` 1) those worlds take the weight and the
    true deal falls far below the average world; read as either player, the clues show
    that the seat follows no rule and the pool stays near even."""
    assert statistics.fmean(truth_against_pool("random")) > -0.75
    assert statistics.fmean(truth_against_pool("random", prior=1.0)) < -1.5
    # Easy players' clues still tell where the cards lie, nearly as much either way.
    easy, ruled = truth_against_pool("easy"), truth_against_pool("easy", prior=1.0)
    assert statistics.fmean(easy) > 1.2 and statistics.fmean(easy) > 0.8 * statistics.fmean(ruled)


def test_each_bid_call_throw_and_play_is_read_among_its_options():
    # Seat 0 passes, seat 1 passes, the dealer (2) turns down hearts, seat 0 calls spades
    # and leads; seat 1 follows. Seat 2 reads seat 0's pass, call and lead, seat 1's pass
    # and follow: options 2, 3 and 5 for seat 0, 2 and 1 (its only spade) for seat 1.
    hands = ["9S TS JS QS AS", "2D TD KD AD KS", "JH QH KH AH 9C"]
    g = game(hands, "TH", actions=("0 pass", "1 pass", "2 turn", "0 call S", "0 play AS",
                                   "1 play KS"))
    p = perspective(g, 2)
    c = clues(p, unseen(p))
    read = readings(c, true_deal(g))
    assert read.alike == [pytest.approx(1 / 2 * 1 / 3 * 1 / 5), pytest.approx(1 / 2 * 1 / 1), 0.0]
    assert read.weight(0.0) == pytest.approx(1 / 30 * 1 / 2)
