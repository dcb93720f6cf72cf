"""The search fast path plays exactly the rules: lockstep random playouts against the
validating game, for every player count and option, from states taken anywhere in a match."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core.registry import new_game
from games.fizzbin import Fizzbin
from games.fizzbin.cards import is_red
from games.fizzbin.computer.fast import CARD_ID, DRAW, FastFizzbin, rank_strength
from games.fizzbin.scoring import THREE_QUARTER_RANKS, HandRank, rank_hand

CASES = [(players, time) for players in range(2, 7) for time in ("clock", "day", "night")]


def _same_table(g: Fizzbin, s: FastFizzbin) -> None:
    """Cards, turn and legal actions agree."""
    assert s.to_act() == g.to_act
    assert [sorted(CARD_ID[c] for c in g.holding(p)) for p in range(g.players)] == [
        sorted(h) for h in s.holding]
    assert [[CARD_ID[c] for c in pile] for pile in g.piles] == s.piles
    assert [CARD_ID[c] for c in g.stack] == s.stack
    moves = s.moves()
    assert len(set(moves)) == len(moves)
    assert {s.action(m) for m in moves} == set(g.legal_actions())
    assert all(s.move(s.action(m)) == m for m in moves)


def _lockstep(g: Fizzbin, rng: random.Random) -> int:
    """Play random legal moves on both from ``g``'s state to the end of the hand; the moves."""
    s = FastFizzbin.from_game(g)
    hands = len(g.results)
    played = 0
    while not s.done():
        _same_table(g, s)
        move = rng.choice(s.moves())
        s.play(move)
        g.apply(g.to_act, s.action(move))  # type: ignore[arg-type]
        played += 1
    assert len(g.results) == hands + 1, "the fast state ended the hand, the game did not"
    winner, loser, ranks = s.result()
    assert g.results[-1].as_json() == {"winner": winner, "loser": loser,
                             "ranks": [r.value for r in ranks]}
    assert s.to_act() == -1 and s.moves() == ()
    return played


@pytest.mark.parametrize(("players", "time"), CASES, ids=str)
def test_fast_state_plays_like_the_game_from_anywhere_in_a_match(players, time):
    rng = random.Random(players * 7 + len(time))
    nights = iter([True, False] * 20)
    g = Fizzbin.new(players, {"hands": 3, "time": time}, seed=players + 40,
                    is_night=lambda: next(nights))
    checked = 0
    while not g.over:
        # Leave the fast state at a random point of the hand, mid-turn included.
        for _ in range(rng.randrange(60)):
            if g.over or g.to_act is None:
                break
            g.apply(g.to_act, rng.choice(g.legal_actions()))
        if g.over:
            break
        before = len(g.results)
        copy = g.clone()
        checked += _lockstep(copy, rng)
        assert len(g.results) == before
        g = copy
    assert checked > 0


def test_rank_strength_is_the_rules_hand_rank():
    """Random hands, and hands from the cards that make the good ranks (so that every rank
    comes up often, by day and by night)."""
    rng = random.Random(5)
    deck = Fizzbin.deck_for(4, None).cards  # type: ignore[arg-type]
    fizzbins = {1, 11, 7, 13, 2, 12, 4}  # the pairs and both times' special ranks
    seen: Counter[tuple[bool, HandRank]] = Counter()
    for night in (False, True):
        three_quarters = [i for i, c in enumerate(deck)  # and the colour that counts
                          if c.rank in THREE_QUARTER_RANKS and is_red(c) != night]
        pools = [list(range(52)), [i for i, c in enumerate(deck) if c.rank in fizzbins],
                 three_quarters + [i for i, c in enumerate(deck) if c.rank in (1, 7)]]
        for _ in range(1000):
            for pool in pools:
                hand = rng.sample(pool, rng.randrange(0, 11))
                rank = rank_hand([deck[c] for c in hand], night=night)
                assert rank_strength(hand, night) == rank.strength, (hand, night)
                seen[night, rank] += 1
    assert all(seen[night, rank] >= 10 for night in (False, True) for rank in HandRank), seen


def test_copy_is_independent():
    g = new_game("fizzbin", 4, {"time": "day"}, seed=9)
    s = FastFizzbin.from_game(g)
    c = s.copy()
    rng = random.Random(1)
    while not c.done():
        c.play(rng.choice(c.moves()))
    assert s.step == DRAW and s.stack == [CARD_ID[x] for x in g.stack]
    assert [sorted(h) for h in s.holding] == [sorted(CARD_ID[x] for x in g.holding(p))
                                             for p in range(4)]
    assert all(p == [] for p in s.piles)


def _state(g: Fizzbin) -> tuple[object, ...]:
    return (g.to_act, g.step, g.night, g.dealer, [list(h) for h in g.hands],
            [list(f) for f in g.face_up], [list(p) for p in g.piles], list(g.stack),
            list(g.taken), list(g.scores), list(g.history), g.record(), g.seat_notes(),
            g.rng.getstate() if g.rng else None)


def test_clone_is_independent_of_the_original():
    g = Fizzbin.new(4, {"hands": 2, "time": "day"}, seed=12)
    rng = random.Random(2)
    for _ in range(30):
        g.apply(g.to_act, rng.choice(g.legal_actions()))  # type: ignore[arg-type]
    before = _state(g)
    c = g.clone()
    while not c.over:  # play the clone through a new deal (the generator) to the end
        c.apply(c.to_act, rng.choice(c.legal_actions()))  # type: ignore[arg-type]
    c.seating.swap(0, 1)
    assert _state(g) == before


def test_clone_then_the_same_actions_gives_the_same_game():
    g = Fizzbin.new(3, {"hands": 3}, seed=8, is_night=lambda: True)  # shared clock
    rng = random.Random(3)
    for _ in range(25):
        g.apply(g.to_act, rng.choice(g.legal_actions()))  # type: ignore[arg-type]
    c = g.clone()
    assert c.is_night is g.is_night and c.options is g.options
    while not g.over:
        action = rng.choice(g.legal_actions())
        g.apply(g.to_act, action)  # type: ignore[arg-type]
        c.apply(c.to_act, action)  # type: ignore[arg-type]
        assert _state(c) == _state(g)
    assert c.outcome == g.outcome
