"""The search fast path plays Fibonachos exactly as the rules core does, and the
hand-written clone is an independent, equal copy."""

from __future__ import annotations

import random

import pytest

from games.core.registry import new_game
from games.fibonachos import Fibonachos
from games.fibonachos.cards import NACHO_DECK
from games.fibonachos.computer.bits import CARD, card_id
from games.fibonachos.computer.fast import FibonachosState
from games.fibonachos.scoring import NO_SPICY

PLAYERS = (2, 3, 4, 5)


def started(players: int, seed: int, rounds: int = 3) -> Fibonachos:
    """A game some way in: a random number of random actions, into any round."""
    g = Fibonachos.new(players, {"rounds": rounds}, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(rounds * 4 * g.tricks_per_round)):
        if g.over:
            break
        assert g.to_act is not None
        g.apply(g.to_act, rng.choice(g.legal_actions()))
    return g


def play_both_to_the_horizon(g: Fibonachos, rng: random.Random) -> FibonachosState:
    """Random moves on the fast state and the game side by side, checking they agree."""
    state = FibonachosState.from_game(g)
    rounds = len(g.rounds)
    while not state.done():
        assert state.to_act() == g.to_act
        legal = {str(a) for a in g.legal_actions()}
        assert {str(state.action(m)) for m in state.moves()} == legal
        assert len(set(state.moves())) == len(state.moves())
        move = rng.choice(state.moves())
        actor = state.to_act()
        state.play(move)
        g.apply(actor, state.action(move))
    assert len(g.rounds) == rounds + 1, "the fast state's horizon is the end of the round"
    assert [round(v * NO_SPICY) for v in state.values()] == g.rounds[-1]
    return state


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5])
def test_the_fast_state_plays_like_the_game_from_any_state(players, rounds):
    for seed in range(4):
        g = started(players, 100 * rounds + seed, rounds)
        if g.over:
            assert FibonachosState.from_game(g).done()
            continue
        play_both_to_the_horizon(g, random.Random(seed))


@pytest.mark.parametrize("players", PLAYERS)
def test_the_fast_state_agrees_through_whole_rounds_from_the_deal(players):
    g = Fibonachos.new(players, {"rounds": 3}, seed=players)
    rng = random.Random(players)
    while not g.over:
        play_both_to_the_horizon(g, rng)
    assert len(g.rounds) == 3  # every round mirrored, each from its deal


def test_the_fast_state_of_a_finished_game_is_done():
    g = started(3, 1, rounds=1)
    while not g.over:
        g.apply(g.to_act or 0, g.legal_actions()[0])
    state = FibonachosState.from_game(g)
    assert state.done() and state.to_act() == -1
    assert [round(v * NO_SPICY) for v in state.values()] == g.rounds[-1]


def test_moves_and_actions_map_both_ways_for_every_card():
    state = FibonachosState.from_game(started(4, 2))
    for card in NACHO_DECK.cards:
        assert state.action(state.move(state.action(card_id(card)))).card == card
        assert CARD[card_id(card)] == card


def test_a_copy_is_independent_of_its_original():
    g = started(4, 7)
    state = FibonachosState.from_game(g)
    before = FibonachosState.from_game(g)
    copy = state.copy()
    while not copy.done():
        copy.play(copy.moves()[-1])
    for name in FibonachosState.__slots__:
        assert getattr(state, name) == getattr(before, name), name


def test_the_two_player_fast_state_draws_from_its_own_deck():
    g = started(2, 3)
    state = FibonachosState.from_game(g)
    seat = state.to_act()
    deck_before = len(state.decks[seat])
    top = state.decks[seat][-1] if deck_before else None
    state.play(state.moves()[0])
    assert len(state.decks[seat]) == max(0, deck_before - 1)
    if top is not None:
        assert state.hands[seat] >> top & 1, "the top card of the deck is now in hand"


# --- the hand-written clone ------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_a_clone_then_the_same_actions_equals_the_original_then_them(players):
    g = started(players, 11 * players)
    copy = g.clone()
    rng_a, rng_b = random.Random(5), random.Random(5)
    for a, rng in ((g, rng_a), (copy, rng_b)):
        while not a.over:
            a.apply(a.to_act or 0, rng.choice(a.legal_actions()))
    assert copy.record() == g.record()
    assert copy.scores == g.scores and copy.outcome == g.outcome
    assert copy.view_for(0) == g.view_for(0)


@pytest.mark.parametrize("players", PLAYERS)
def test_playing_a_clone_leaves_the_original_as_it_was(players):
    g = started(players, 13 * players, rounds=2)
    before = g.clone()
    copy = g.clone()
    while not copy.over:  # across rounds: new deals drawn from the clone's generator
        copy.apply(copy.to_act or 0, copy.legal_actions()[-1])
    assert g.record() == before.record()
    assert [(z.name, list(z.cards)) for z in g.zones()] == [
        (z.name, list(z.cards)) for z in before.zones()]
    assert g.rng is not None and before.rng is not None
    assert g.rng.getstate() == before.rng.getstate()
    assert (g.scores, g.rounds, g.tricks, g.to_act) == (
        before.scores, before.rounds, before.tricks, before.to_act)


def test_a_clone_shares_no_list_with_its_original():
    g = started(2, 17)
    copy = g.clone()
    for name, value in vars(g).items():
        if isinstance(value, list) and name != "_explicit_deals":  # never changed: shared
            assert getattr(copy, name) is not value, name
            for inner, other in zip(value, getattr(copy, name), strict=True):
                if isinstance(inner, list):
                    assert inner is not other, name
    assert copy.rng is not g.rng


def test_a_clone_of_a_game_without_a_seed_has_no_generator():
    deal = new_game("fibonachos", 3, seed=1).record().deals[0]
    g = new_game("fibonachos", 3, {"rounds": 1}, dealer=0, deals=[deal])
    copy = g.clone()
    assert copy.rng is None
    copy.apply(copy.to_act or 0, copy.legal_actions()[0])
    assert len(g.history) == 0
