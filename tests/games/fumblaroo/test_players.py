"""Fumblaroo's computer players: legal and finite at every level, blind to unseen cards
and to the dealer's discard, and sampling worlds consistent with what their seat saw."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core.records import Record
from games.core.registry import new_game
from games.core.replay import replay
from games.fumblaroo import Fumblaroo
from games.fumblaroo.cards import DECK, SUITS
from games.fumblaroo.computer.bits import CARD, EFFECTIVE, card_id, cards_of, hand_mask
from games.fumblaroo.computer.fast import PLAYING, FumblarooState
from games.fumblaroo.computer.knowledge import (
    HIDDEN_DISCARD,
    KNOWLEDGE,
    hand_entries,
    rebuild,
    voids,
)
from games.fumblaroo.computer.thumb import best_call, discard, follow, hand_weight, lead
from games.players import Perspective, decide, knowledge_for, perspective
from games.players.hard import HardPlayer
from tests.games.fumblaroo.helpers import NEXT_DEAL, game

LEVELS = ("random", "easy", "hard")
TARGETS = (5, 10, 17, 25)
SMALL_BUDGET = 400


def choice(level: str, p: Perspective, rng: random.Random):
    if level == "hard":
        return HardPlayer(budget=SMALL_BUDGET).decide(p, rng)
    return decide(level, p, rng)


def computers_play(target: int, seats: list[str], seed: int, limit: int = 5000) -> Fumblaroo:
    g = Fumblaroo.new(3, {"target": target}, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if g.over:
            break
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        d = choice(seats[seat], p, rng)
        assert d.action in g.legal_actions(seat), (seats[seat], d)
        assert d.reason
        g.apply(seat, d.action)
    assert g.over, "computer players must finish the game"
    return g


def midgame(seed: int, *, playing: bool = False) -> Fumblaroo:
    """A game some random actions in, not over (in the tricks, if ``playing``)."""
    for attempt in range(50):
        g = Fumblaroo.new(3, seed=seed + 1000 * attempt)
        rng = random.Random(seed + attempt)
        for _ in range(rng.randrange(1, 50)):
            if g.over:
                break
            g.apply(g.to_act or 0, rng.choice(g.legal_actions()))
        if not g.over and (not playing or (g.trump is not None and g.stage.value == "playing")):
            return g
    raise AssertionError("no mid-game state found")


def test_the_knowledge_is_registered():
    assert knowledge_for("fumblaroo") is KNOWLEDGE


@pytest.mark.parametrize("target", TARGETS)
def test_mixed_levels_choose_only_legal_actions_and_finish(target):
    seats = [LEVELS[(target + i) % 3] for i in range(3)]
    g = computers_play(target, seats, seed=target)
    [winner] = g.winners
    assert g.scores[winner] >= target


@pytest.mark.parametrize("level", LEVELS)
def test_a_table_of_one_level_finishes(level):
    g = computers_play(5, [level] * 3, seed=7)
    [winner] = g.winners
    assert g.scores[winner] >= 5


# --- the dealer's discard is hidden ----------------------------------------------------


def test_the_discard_is_redacted_for_everyone_but_the_dealer():
    assert KNOWLEDGE.redact(0, 2, "discard TH") == HIDDEN_DISCARD
    assert KNOWLEDGE.redact(0, 2, "play TH") == "play TH"
    g = game(["9D 9S TS JS QS", "2D TD KS AS 9H", "JH QH KH AH 2H"], "TH",
             actions=("0 order", "2 discard JH"))
    assert perspective(g, 0).history[-1] == "2 discard ?"
    assert perspective(g, 1).history[-1] == "2 discard ?"
    assert perspective(g, 2).history[-1] == "2 discard JH"


def test_two_different_discards_look_the_same_to_the_other_seats():
    hands = ["9D 9S TS JS QS", "2D TD KS AS 9H", "JH QH KH AH 2H"]
    a = game(hands, "TH", actions=("0 order", "2 discard JH", "0 play 9S"))
    b = game(hands, "TH", actions=("0 order", "2 discard QH", "0 play 9S"))
    for seat in (0, 1):
        assert perspective(a, seat) == perspective(b, seat)
    pa, pb = perspective(a, 1), perspective(b, 1)  # seat 1 is to act
    for level in ("easy", "hard"):
        assert choice(level, pa, random.Random(3)) == choice(level, pb, random.Random(3))
    assert perspective(a, 2) != perspective(b, 2)


# --- blind to what the seat has not seen -------------------------------------------


def swapped_unseen(g: Fumblaroo, seat: int) -> Fumblaroo | None:
    """The same game with two unseen cards swapped in the hand's deal: cards still held
    by the two other seats, or one of them and one still in the Kingdom, of the same
    suit whatever trump is (no 2s)."""
    record = g.record().model_dump()
    deal = record["deals"][-1]
    others = [q for q in range(3) if q != seat]
    places = [("hands", q) for q in others] + [("kingdom", None)]
    still = {("hands", q): {c.text for c in g.hands[q]} for q in others}
    still[("kingdom", None)] = {c.text for c in g.kingdom}
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            for ta in sorted(still[a]):
                for tb in sorted(still[b]):
                    if ta[1] == tb[1] and "2" not in (ta[0], tb[0]) and ta != tb:
                        new = {"hands": [list(h) for h in deal["hands"]],
                               "kingdom": list(deal["kingdom"])}
                        pa = new["hands"][a[1]] if a[1] is not None else new["kingdom"]
                        pb = new["hands"][b[1]] if b[1] is not None else new["kingdom"]
                        if ta not in pa or tb not in pb or (pb.index(tb) == 0 and b[1] is None):
                            continue
                        pa[pa.index(ta)], pb[pb.index(tb)] = tb, ta
                        data = {**record, "deals": [*record["deals"][:-1], new]}
                        again = replay(Record.from_data(data))
                        if again.error is None and isinstance(again.game, Fumblaroo):
                            return again.game
    return None


def test_the_same_choice_whatever_the_unseen_cards():
    checked = 0
    for seed in range(12):
        g = midgame(40 + seed)
        seat = g.to_act
        assert seat is not None
        other = swapped_unseen(g, seat)
        if other is None or len(g.legal_actions()) < 2:
            continue
        p, q = perspective(g, seat), perspective(other, seat)
        assert p == q
        assert [list(z.cards) for z in g.zones()] != [list(z.cards) for z in other.zones()]
        for level in ("easy", "hard"):
            assert choice(level, p, random.Random(seed)) == choice(level, q, random.Random(seed))
        checked += 1
    assert checked >= 3


# --- sampled worlds ------------------------------------------------------------------


def test_sampled_worlds_keep_what_the_seat_sees_and_the_counts():
    for seed in range(20):
        g = midgame(seed)
        seat = g.to_act
        assert seat is not None
        real = FumblarooState.from_game(g)
        world = KNOWLEDGE.sample(perspective(g, seat), random.Random(seed))
        assert world.hands[seat] == real.hands[seat]
        for name in ("dealer", "stage", "turn", "up", "turned", "trump", "caller", "passes",
                     "trick", "taken", "scores", "target"):
            assert getattr(world, name) == getattr(real, name), name
        if world.stage == PLAYING:
            assert world.leader == real.leader
        assert [h.bit_count() for h in world.hands] == [len(h) for h in g.hands]
        seen = Counter([*g.hands[seat], *(c for w in g.won for c in w),
                        *(c for _, c in g.trick), *g.turned_down])
        if g.up_card is not None:
            seen[g.up_card] += 1
        for q in range(3):
            if q != seat:
                assert not seen & Counter(CARD[c] for c in cards_of(world.hands[q]))


def test_sampled_worlds_respect_voids_put_the_taken_up_card_with_the_dealer_and_replay():
    voids_seen = 0
    for seed in range(30):
        g = midgame(200 + seed, playing=True)
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        world = KNOWLEDGE.sample(p, random.Random(seed))
        hand = rebuild(p)
        for q, suit in voids(hand):
            voids_seen += q != seat
            if q != seat:
                assert all(EFFECTIVE[world.trump][c] != suit for c in cards_of(world.hands[q]))
        up = g.taken_up
        played = {c for _, c in hand.plays}
        if up is not None and seat != g.dealer and up not in played and (
                g.dealer, world.trump) not in voids(hand):
            assert world.hands[g.dealer] >> card_id(up) & 1
        assert_hand_replays(g, world, p)
    assert voids_seen


def assert_hand_replays(g: Fumblaroo, world: FumblarooState, p: Perspective) -> None:
    """The hand's history is legal again from the deal the world implies."""
    hand = rebuild(p)
    held = [[CARD[c] for c in cards_of(world.hands[q])] for q in range(3)]
    for q, card in hand.plays:
        held[q].append(card)
    up = g.taken_up or (g.turned_down[0] if g.turned_down else None)
    assert up is not None
    left = [c for c in DECK.cards if c != up and all(c not in h for h in held)]
    thrown = None
    if g.taken_up is not None:
        dealer_hand = held[g.dealer]
        thrown = hand.my_discard if p.seat == g.dealer else (
            up if up not in dealer_hand else left[0])
        if thrown != up:
            dealer_hand.remove(up)
            dealer_hand.append(thrown)
            left.remove(thrown)
    deal = {"hands": [[c.text for c in h] for h in held],
            "kingdom": [up.text, *(c.text for c in left)]}
    again = new_game("fumblaroo", 3, dealer=g.dealer, deals=[deal, NEXT_DEAL])
    for entry in p.history[len(p.history) - len(hand_entries(p)):]:
        seat, _, text = entry.partition(" ")
        if text == HIDDEN_DISCARD:
            assert thrown is not None
            text = f"discard {thrown}"
        again.apply(int(seat), text)  # raises if the world contradicts the history


def test_sampled_worlds_are_canonical_and_vary_with_the_generator():
    g = midgame(5, playing=True)
    p = perspective(g, g.to_act or 0)
    a = KNOWLEDGE.sample(p, random.Random(1))
    b = KNOWLEDGE.sample(perspective(g.clone(), g.to_act or 0), random.Random(1))
    worlds = {tuple(KNOWLEDGE.sample(p, random.Random(k)).hands) for k in range(5)}
    assert a.hands == b.hands
    assert len(worlds) > 1


# --- the rules of thumb ----------------------------------------------------------------


def mask(*texts: str) -> int:
    return hand_mask([DECK.parse(t) for t in texts])


def suit(letter: str) -> int:
    return SUITS.index(letter)


def test_a_hand_full_of_high_trumps_weighs_more_than_a_weak_one():
    strong = mask("2H", "2D", "AH", "KH", "AS")
    weak = mask("9H", "TS", "JC", "QD", "9C")
    assert hand_weight(strong, suit("H")) == 3.0 + 2.5 + 2.0 + 1.5 + 1.0
    assert hand_weight(weak, suit("H")) < 2


def test_the_dealer_discards_a_lone_low_card_outside_trump():
    six = mask("2H", "AH", "KH", "9S", "TS", "JD")
    assert CARD[discard(six, suit("H"))].text == "9S"  # lowest, the JD's void can wait
    assert CARD[discard(mask("2H", "AH", "KH", "QS", "TS", "JD"), suit("H"))].text == "TS"


def test_a_forced_call_names_the_strongest_suit_not_turned_down():
    hand = mask("2S", "AS", "KS", "9H", "TD")
    assert best_call(hand, suit("H")) == suit("S")
    assert best_call(hand, suit("S")) != suit("S")


def test_the_caller_leads_trump_and_others_lead_an_ace():
    hand = mask("2H", "AH", "AS", "9D", "TC")
    assert CARD[lead(hand, suit("H"), caller=True)].text == "2H"
    assert CARD[lead(hand, suit("H"), caller=False)].text == "AS"


def test_a_follower_wins_as_cheaply_as_it_can_or_throws_low():
    trick = [card_id(DECK.parse("QS"))]
    legal = [card_id(DECK.parse(t)) for t in ("KS", "AS")]
    assert CARD[follow(legal, trick, suit("H"))].text == "KS"
    legal = [card_id(DECK.parse(t)) for t in ("9S", "TS")]
    assert CARD[follow(legal, trick, suit("H"))].text == "9S"
