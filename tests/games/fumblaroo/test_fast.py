"""The search fast path plays Fumblaroo exactly as the rules core does, bidding
included, and the hand-written clone is an independent, equal copy."""

from __future__ import annotations

import random

import pytest

from games.fumblaroo import Fumblaroo
from games.fumblaroo.cards import DECK
from games.fumblaroo.computer.bits import CARD, card_id
from games.fumblaroo.computer.fast import FumblarooState
from games.fumblaroo.options import MAX_TARGET, MIN_TARGET
from tests.games.fumblaroo.helpers import deal, game

TARGETS = (MIN_TARGET, 10, 17, MAX_TARGET)


def started(seed: int, target: int = 10) -> Fumblaroo:
    """A game some random actions in (into any hand, at any stage), perhaps over."""
    g = Fumblaroo.new(3, {"target": target}, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        if g.over:
            break
        g.apply(g.to_act or 0, rng.choice(g.legal_actions()))
    return g


def play_both_to_the_horizon(g: Fumblaroo, rng: random.Random) -> FumblarooState:
    """Random moves on the fast state and the game side by side, checking they agree."""
    state = FumblarooState.from_game(g)
    rows = len(g.rounds)
    while not state.done():
        assert state.to_act() == g.to_act
        legal = {str(a) for a in g.legal_actions()}
        assert {str(state.action(m)) for m in state.moves()} == legal
        move = rng.choice(state.moves())
        assert state.move(state.action(move)) == move
        actor = state.to_act()
        state.play(move)
        g.apply(actor, state.action(move))
    # The hand's row (2-of-clubs forfeits of the next deals may add more after it).
    assert g.rounds[rows] == state.gained()
    totals = [s + p for s, p in zip(state.scores, state.gained(), strict=True)]
    assert [sum(r[p] for r in g.rounds[:rows + 1]) for p in range(3)] == totals
    values = state.values()
    if g.over and len(g.rounds) == rows + 1:
        assert values == [1.0 if p in g.winners else 0.0 for p in range(3)]
    assert all(0.0 <= v <= 1.0 for v in values)
    return state


@pytest.mark.parametrize("target", TARGETS)
def test_the_fast_state_plays_like_the_game_from_any_state(target):
    checked = 0
    for seed in range(25):
        g = started(1000 * target + seed, target)
        if g.over:
            assert FumblarooState.from_game(g).done()
            continue
        play_both_to_the_horizon(g, random.Random(seed))
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("target", TARGETS)
def test_the_fast_state_agrees_through_whole_games(target):
    g = Fumblaroo.new(3, {"target": target}, seed=target)
    rng = random.Random(target)
    while not g.over:
        play_both_to_the_horizon(g, rng)
    [winner] = g.winners  # the fast state's moves took the game to its end: the target
    assert g.scores[winner] >= target


def test_the_fast_state_knows_the_other_two_follows_trump():
    # Hearts trump: 2D is a trump, not a diamond; seat 1 holds it and a diamond.
    g = Fumblaroo.new(3, dealer=2, deals=[deal(
             ["9D 9S TS JS QS", "2D TD KS AS 9H", "JH QH KH AH 2H"], "TH")])
    for line in ("0 order", "2 discard JH", "0 play 9D"):
        seat, _, text = line.partition(" ")
        g.apply(int(seat), text)
    state = FumblarooState.from_game(g)
    assert [CARD[m].text for m in state.moves()] == ["TD"]


def test_moves_and_actions_map_both_ways():
    g = started(5)
    state = FumblarooState.from_game(g)
    for card in DECK.cards:
        for verb in ("play", "discard"):
            action = g.parse(f"{verb} {card}")
            assert state.action(state.move(action)) == action
        assert CARD[card_id(card)] == card
    for text in ("order", "pass", "pick", "turn", "call S", "call H", "call D", "call C"):
        assert state.action(state.move(g.parse(text))) == g.parse(text)


def test_a_copy_is_independent_of_its_original():
    g = started(7)
    while g.over:
        g = started(8)
    state, before = FumblarooState.from_game(g), FumblarooState.from_game(g)
    copy = state.copy()
    while not copy.done():
        copy.play(copy.moves()[-1])
    for name in FumblarooState.__slots__:
        assert getattr(state, name) == getattr(before, name), name


# --- the hand-written clone ------------------------------------------------------


def test_a_clone_then_the_same_actions_equals_the_original_then_them():
    for seed in range(4):
        g = started(20 + seed)
        copy = g.clone()
        for a in (g, copy):
            rng = random.Random(seed)
            while not a.over:
                a.apply(a.to_act or 0, rng.choice(a.legal_actions()))
        assert copy.record() == g.record()
        assert copy.scores == g.scores and copy.outcome == g.outcome


def test_playing_a_clone_leaves_the_original_as_it_was():
    g = started(31)
    before = g.clone()
    copy = g.clone()
    while not copy.over:  # over several hands: new deals from the clone's generator
        copy.apply(copy.to_act or 0, copy.legal_actions()[-1])
    assert g.record() == before.record()
    assert [(z.name, list(z.cards)) for z in g.zones()] == [
        (z.name, list(z.cards)) for z in before.zones()]
    assert g.rng is not None and before.rng is not None
    assert g.rng.getstate() == before.rng.getstate()
    assert (g.scores, g.rounds, g.tricks, g.to_act, g.taken) == (
        before.scores, before.rounds, before.tricks, before.to_act, before.taken)


def test_a_clone_shares_no_list_with_its_original():
    g = started(17)
    copy = g.clone()
    for name, value in vars(g).items():
        if isinstance(value, list) and name != "_explicit_deals":  # never changed: shared
            assert getattr(copy, name) is not value, name
            for inner, other in zip(value, getattr(copy, name), strict=True):
                if isinstance(inner, list):
                    assert inner is not other, name
    assert copy.rng is not g.rng


# --- the taken-up card stays a public fact -------------------------------------------


def test_the_taken_up_card_is_a_fact_and_the_discard_is_not():
    g = game(["9D 9S TS JS QS", "2D TD KS AS 9H", "JH QH KH AH 2H"], "TH")
    assert ("Up-card", "♥️10") in g.view_for(None).facts
    g.apply(0, "order")
    assert ("Taken up", "♥️10") in g.view_for(None).facts
    g.apply(2, "discard TH")  # the dealer may throw the up-card itself
    for viewer in (None, 0, 1):
        facts = g.view_for(viewer).facts
        assert ("Taken up", "♥️10") in facts and ("Trump", "Hearts") in facts
        assert g.view_for(viewer).zone("discard").hidden
    while not g.rounds:
        g.apply(g.to_act or 0, g.legal_actions()[0])
    assert all(name != "Taken up" for name, _ in g.view_for(None).facts)  # a new hand
