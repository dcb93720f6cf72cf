"""Fiasco's computer players: legal, finite, blind to what they cannot see, and sensible."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core.registry import new_game
from games.fiasco import Fiasco
from games.fiasco.cards import FULL_DECK
from games.fiasco.computer.advice import ADVICE
from games.fiasco.computer.bits import CARD_ID, CARDS, hand_cards, hand_int
from games.fiasco.computer.fast import FiascoState, from_game
from games.fiasco.computer.knowledge import KNOWLEDGE, Situation, Worlds, claims_of
from games.fiasco.computer.thumb import EASY_NOISE, choose
from games.fiasco.deal import HAND_SIZE
from games.players import decide, knowledge_for, perspective
from games.players.base import Perspective
from games.players.hard import HardPlayer
from tests.games.fiasco.helpers import game, play
from tests.games.fiasco.test_fast import random_prefix
from tests.games.fiasco.test_random_playouts import OPTION_SETS

LEVELS = ("random", "easy", "hard")
SMALL_HARD = HardPlayer(budget=200)


def computer_move(g: Fiasco, level: str, rng: random.Random) -> None:
    """One decision of a ``level`` player for the seat to act, checked legal, applied."""
    assert g.to_act is not None
    p = perspective(g, g.to_act)
    d = SMALL_HARD.decide(p, rng) if level == "hard" else decide(level, p, rng)
    assert d.action in g.legal_actions(), f"{level} chose {d.action} in {g.phase()}"
    assert d.reason
    g.apply(g.to_act, d.action)


def play_computers(g: Fiasco, levels: list[str], rng: random.Random) -> int:
    """Computers of ``levels`` (by seat) play ``g`` to its end; the number of actions."""
    bound = 54 * 60  # far beyond any extended game that gathers points at all
    for step in range(bound):
        if g.over:
            return step
        assert g.to_act is not None
        computer_move(g, levels[g.to_act], rng)
    raise AssertionError(f"{levels} did not finish within {bound} actions")


@pytest.mark.parametrize(("players", "options"), OPTION_SETS, ids=str)
def test_every_level_plays_only_legal_actions_to_the_end(players, options):
    g = Fiasco.new(players, options, seed=players * 7 + len(options))
    levels = [LEVELS[(seat + players) % 3] for seat in range(players)]
    assert play_computers(g, levels, random.Random(players)) > 0
    assert g.winners


@pytest.mark.parametrize("level", LEVELS)
def test_games_between_computers_of_one_level_end(level):
    g = Fiasco.new(2, {"length": "extended"}, seed=11)
    play_computers(g, [level] * 2, random.Random(4))
    assert max(g.team_totals()) >= 42


# --- what the players may know --------------------------------------------------


def swapped_twins() -> tuple[Fiasco, Fiasco]:
    """Two 4-player games that differ only in R1 and B8, swapped between the hands of
    seats 1 and 2, with the same public history so far (neither card played)."""
    hands = ["S1 S2 K S8 F T1", "R1 R2 R3 K F M1", "B1 B2 B8 B3 M2 M3", "T2 T3 T4 K F H1"]
    swapped = ["S1 S2 K S8 F T1", "B8 R2 R3 K F M1", "B1 B2 R1 B3 M2 M3", "T2 T3 T4 K F H1"]
    twins = []
    for h in (hands, swapped):
        g = game(4, h, "S3 S4 S6 S7")
        play(g, "S1", "R2", "B1", "T2", "S8", "K", "M2", "K")  # a tie: the pot stays
        play(g, "T1", "R3")
        twins.append(g)
    return twins[0], twins[1]


def test_perspectives_do_not_see_cards_the_seat_has_not_seen():
    a, b = swapped_twins()
    assert a.hands != b.hands
    for seat in (0, 3):
        assert perspective(a, seat) == perspective(b, seat)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_same_choice_whatever_the_unseen_cards(level):
    a, b = swapped_twins()
    assert a.to_act == b.to_act == 2 and a.hands[2] != b.hands[2]
    a.apply(2, "play M3")
    b.apply(2, "play M3")
    seat = a.to_act
    assert seat == 3
    pa, pb = perspective(a, seat), perspective(b, seat)
    player = SMALL_HARD if level == "hard" else None
    for seed in range(5):
        if player is not None:
            da, db = player.decide(pa, random.Random(seed)), player.decide(pb, random.Random(seed))
        else:
            da, db = decide(level, pa, random.Random(seed)), decide(level, pb, random.Random(seed))
        assert da == db


def test_nothing_in_the_history_is_redacted_and_hidden_zones_stay_hidden():
    g = Fiasco.new(4, {}, seed=21)
    random_prefix(g, random.Random(2), 30)
    for seat in range(4):
        p = perspective(g, seat)
        assert p.history == tuple(g.history)
        for zone in p.view.zones:
            hidden = zone.name == "stock" or (zone.name.startswith("hand:")
                                              and zone.owner != seat)
            assert (zone.cards is None) == hidden, zone.name
    for entry in g.history:
        actor, _, action = entry.partition(" ")
        assert KNOWLEDGE.redact(0, int(actor), action) == action
    assert knowledge_for("fiasco") is KNOWLEDGE


# --- sampled worlds -------------------------------------------------------------


def mid_deal_games() -> list[Fiasco]:
    out = []
    for i, (players, options) in enumerate(OPTION_SETS):
        g = Fiasco.new(players, options, seed=300 + i)
        random_prefix(g, random.Random(i), len(g.claim_order) + 3 + 5 * i)
        if not g.over:
            out.append(g)
    return out


def hidden_cards(g: Fiasco, seat: int) -> Counter[int]:
    cards = [*g.stock, *(c for p, h in enumerate(g.hands) if p != seat for c in h)]
    return Counter(CARD_ID[c] for c in cards)


def world_hidden(world: FiascoState, seat: int) -> Counter[int]:
    cards = [*world.stock[world.pos:],
             *(c for p, h in enumerate(world.hands) if p != seat for c in hand_cards(h))]
    return Counter(cards)


@pytest.mark.parametrize("g", mid_deal_games(), ids=lambda g: f"{g.players}p {g.phase()}")
def test_a_sampled_world_keeps_everything_the_seat_sees_where_it_sees_it(g):
    assert g.to_act is not None
    seat = g.to_act
    exact = from_game(g)
    world = KNOWLEDGE.sample(perspective(g, seat), random.Random(1))
    if exact.phase != 1:  # claiming: nothing is seen yet, the deal is any order
        assert world.phase == exact.phase and world.claims == exact.claims
        assert sorted(world.pending) == sorted(exact.pending)
        return
    assert world.hands[seat] == hand_int(g.hands[seat])
    assert [len(hand_cards(h)) for h in world.hands] == [len(h) for h in g.hands]
    assert len(world.stock) - world.pos == len(g.stock)
    assert world_hidden(world, seat) == hidden_cards(g, seat)
    for field in ("pot", "colls", "claims", "collects", "scores", "leader", "top",
                  "top_player", "top_count", "played", "deal_first", "team_of", "extended"):
        assert getattr(world, field) == getattr(exact, field), field
    assert world.to_act() == g.to_act


def deal_behind(world: FiascoState, p: Perspective) -> dict[str, list[str]]:
    """The first deal that would have led to ``world`` under ``p``'s public history:
    each seat's cards (played, then in hand) cut into the batches they came in."""
    n = p.players
    plays: list[list[int]] = [[] for _ in range(n)]
    for entry in p.history:
        actor, verb, card = [*entry.split(), ""][:3]
        if verb == "play":
            plays[int(actor)].append(CARD_ID[FULL_DECK.parse(card)])
    own = [CARD_ID[c] for c in p.view.zone(f"hand:{p.seat}").cards or ()]  # in its order
    seen = [plays[q] + (own if q == p.seat else sorted(hand_cards(world.hands[q])))
            for q in range(n)]
    sizes, left = [HAND_SIZE], 54 - HAND_SIZE * n
    while sum(sizes) < len(seen[0]):
        sizes.append(min(HAND_SIZE, left // n))
        left -= sizes[-1] * n
    first = (p.first_dealer + 1) % n
    batches = []
    start = 0
    for k in sizes:
        batches.append([seen[q][start:start + k] for q in range(n)])
        start += k
    stock = [batches[j][(first + i) % n][i // n] for j in range(1, len(sizes))
             for i in range(sizes[j] * n)]
    stock += list(world.stock[world.pos:])
    return {"hands": [[CARDS[c].text for c in h] for h in batches[0]],
            "stock": [CARDS[c].text for c in stock]}


@pytest.mark.parametrize("seed", range(6))
def test_the_public_history_replays_on_a_sampled_world(seed):
    players = 2 + seed % 5
    g = Fiasco.new(players, {}, seed=seed)
    random_prefix(g, random.Random(seed), players + 7 * seed + 3)
    assert g.to_act is not None and not g.rounds
    seat = g.to_act
    p = perspective(g, seat)
    world = KNOWLEDGE.sample(p, random.Random(seed))
    again = new_game("fiasco", players, {}, dealer=p.first_dealer, deals=[deal_behind(world, p)])
    for entry in p.history:
        actor, _, action = entry.partition(" ")
        again.apply(int(actor), action)  # raises if the world makes any of it illegal
    assert again.view_for(seat) == p.view
    assert from_game(again).hands == world.hands


def test_worlds_vary_between_generators_and_repeat_for_the_same_one():
    g = mid_deal_games()[3]
    assert g.to_act is not None
    p = perspective(g, g.to_act)
    worlds = [KNOWLEDGE.sample(p, random.Random(s)) for s in range(6)]
    assert len({(tuple(w.hands), w.stock) for w in worlds}) > 1
    again = KNOWLEDGE.sample(p, random.Random(0))
    assert (again.hands, again.stock) == (worlds[0].hands, worlds[0].stock)


# --- the rules of thumb ---------------------------------------------------------


def best_card(g: Fiasco) -> str:
    """The rules of thumb's choice without noise for the seat to act."""
    assert g.to_act is not None
    s = Situation(perspective(g, g.to_act), claims_of(perspective(g, g.to_act)))
    card = choose(hand=s.hand, pot=s.pot, top=s.top, top_mine=s.top_mine, after=s.after,
                  coll=s.coll, collects=s.collects, rng=random.Random(0), noise=0.0)
    return CARDS[card].text


def test_last_to_act_takes_a_valuable_pot_with_a_winning_card():
    # seat 3 collects Treasure Chests and plays last; the pot holds T1, topped by B7.
    g = game(4, ["T1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7", "B7 B1 B2 B3 B4 B6",
                 "T8 M1 M2 T2 T3 T4"])
    play(g, "T1", "R2", "B7")
    assert best_card(g) == "T8"


def test_a_fiasco_goes_under_an_opponents_winning_card_not_a_partners():
    hands = ["S1 S2 S3 S4 S6 S7", "K R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7", "F M1 M2 T2 T3 T4"]
    g = game(4, hands)
    play(g, "S1", "K", "B1")
    assert best_card(g) == "F"  # seat 1 (an opponent) wins with the King
    t = game(4, hands, teams=True)
    play(t, "S1", "K", "B1")
    assert best_card(t) != "F"  # seat 1 is seat 3's partner


def test_the_lead_is_a_low_card_nobody_collects_not_a_king():
    g = game(3, ["K S8 M1 M2 S1 K", "R1 R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7"])
    assert best_card(g) in {"M1", "M2"}


def test_easy_mistakes_are_close_calls_never_wild_ones():
    rng = random.Random(5)
    checked = 0
    for seed in range(8):
        g = Fiasco.new(4, {}, seed=seed)
        random_prefix(g, random.Random(seed), 4)
        while not g.over:
            assert g.to_act is not None
            p = perspective(g, g.to_act)
            d = decide("easy", p, rng)
            if d.action.card is not None:
                scores = {CARDS[a.card]: a.score for a in Situation(p, claims_of(p)).assess()}
                assert scores[d.action.card] >= max(scores.values()) - EASY_NOISE
                checked += 1
            g.apply(g.to_act, d.action)
    assert checked > 100


def test_hints_name_the_strategy():
    hands = ["S1 S2 S3 S4 S6 S7", "K R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7", "F M1 M2 T8 K T4"]
    g = game(4, hands)
    play(g, "S1", "R2", "B7")
    p = perspective(g, 3)
    assert KNOWLEDGE.why(p, g.parse("play T8")) == \
        "it takes the pot with your cheapest winning card"
    assert KNOWLEDGE.why(p, g.parse("play M1")) == "a low card stays under the lead"
    g2 = game(4, hands)
    play(g2, "S1", "K", "B1")
    assert KNOWLEDGE.why(perspective(g2, 3), g2.parse("play F")) == \
        "it costs the pot's winner a card"
    assert KNOWLEDGE.why(p, g.parse("play T4")) == \
        "you give up a card of your own suit that cannot win"
    for action in g.legal_actions():
        assert KNOWLEDGE.why(p, action)


def test_a_player_who_ducked_a_pot_of_their_suit_is_unlikely_to_hold_a_king():
    # Seat 1 (Roses) plays M1 under seat 0's R7 with one player to come: holding a King
    # it would have taken the Roses card, so the worlds where it has one are downweighted.
    g = game(3, ["R7 S1 S2 S3 S4 S6", "M1 M2 M3 M4 T1 T2", "B1 B2 B3 B4 B6 B7"])
    play(g, "R7", "M1")
    p = perspective(g, 2)
    worlds = Worlds(p, claims_of(p))
    assert [(c.seat, CARDS[c.card].text) for c in worlds.clues] == [(0, "R7"), (1, "M1")]

    def king_share(draw) -> float:
        return sum((draw(random.Random(i)).hands[1] >> 42) & 7 > 0 for i in range(300)) / 300

    uniform = king_share(worlds.uniform)
    inferred = king_share(lambda rng: KNOWLEDGE.sample(p, rng))
    assert uniform > 0.4
    assert inferred < 0.6 * uniform


def test_clues_come_from_the_current_batch_only():
    # 2 players: batches of 6. After the first batch, only second-batch plays are clues.
    g = game(2, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7"])
    play(g, "S1", "R1", "S2", "R2", "S3", "R3", "S4", "R4", "S6", "R6", "S7", "R7")
    assert g.to_act is not None and len(g.hands[0]) == 6
    first = g.to_act
    play(g, g.legal_actions()[0].card.text)  # type: ignore[union-attr]
    p = perspective(g, 1 - first)
    found = Worlds(p, claims_of(p)).clues
    assert [c.seat for c in found] == [first]


def test_alike_suits_are_claimed_without_a_search_and_four_suits_are_searched():
    six = new_game("fiasco", 4, {}, seed=3)
    p = perspective(six, six.to_act)  # type: ignore[arg-type]
    assert ADVICE.candidates(p) == [0]
    assert HardPlayer(budget=200).decide(p, random.Random(1)).action == p.legal[0]
    four = new_game("fiasco", 2, {"suits": "four"}, seed=3)
    q = perspective(four, four.to_act)  # type: ignore[arg-type]
    assert list(ADVICE.candidates(q)) == list(range(len(q.legal)))
