"""Fumblaroo's endgame option: the searching seat plays its last cards of a playout as
well as it can in the sampled world, the others by the rules of thumb."""

from __future__ import annotations

import itertools
import random

import pytest

from games.core.registry import new_game
from games.fumblaroo.computer.advice import EndgameFumblaroo, FumblarooAdvice
from games.fumblaroo.computer.fast import PLAYING, FumblarooState, thumb_move
from games.players import perspective
from games.players.standing import adopt


def endgames(count: int, cards: int) -> list[EndgameFumblaroo]:
    """Hands played by the rules of thumb until the seat to act holds ``cards`` cards."""
    out = []
    for seed in itertools.count(1):
        state = FumblarooState.from_game(new_game("fumblaroo", 3, {"target": 5}, seed=seed))
        rng = random.Random(seed)
        while not state.done() and not (
                state.stage == PLAYING and state.hands[state.turn].bit_count() == cards):
            state.play(thumb_move(state, rng))
        if state.done():
            continue
        ended = adopt(state, EndgameFumblaroo)
        ended.blend, ended.me, ended.tricks = 0.75, state.turn, cards
        out.append(ended)
        if len(out) == count:
            return out
    raise AssertionError("unreachable")


def every_order(state: EndgameFumblaroo) -> float:
    """The seat's best value over every way of playing its cards, by brute force."""
    if state.done():
        return state.values()[state.me]
    if state.turn != state.me:
        after = state.copy()
        after.play(thumb_move(after))
        return every_order(after)
    results = []
    for move in state.moves():
        after = state.copy()
        after.play(move)
        results.append(every_order(after))
    return max(results)


def thumb_value(state: EndgameFumblaroo) -> float:
    after = state.copy()
    while not after.done():
        after.play(thumb_move(after))
    return after.values()[state.me]


def test_the_best_own_card_is_worth_the_best_of_every_order_and_never_less_than_thumb():
    positions = endgames(60, 3)
    better = 0
    for state in positions:
        move, value = state.best_own()
        assert move in state.moves()
        assert value == pytest.approx(every_order(state))
        assert value >= thumb_value(state) - 1e-12
        better += value > thumb_value(state) + 1e-12
    assert better > 0, "the rules of thumb were already best everywhere: nothing is tested"


def test_a_playout_plays_the_best_own_card_only_within_its_last_cards():
    state = endgames(1, 3)[0]
    best, _ = state.best_own()
    assert state.rollout_move(random.Random(1)) == best
    early = endgames(1, 4)[0]
    early.tricks = 3  # four cards in hand: the rules of thumb still play
    assert early.rollout_move(random.Random(1)) == thumb_move(early)


def test_the_advice_draws_endgame_worlds_for_the_seat_and_refuses_what_makes_no_sense():
    game = new_game("fumblaroo", 3, {"target": 5}, seed=3)
    p = perspective(game, game.to_act)
    world = FumblarooAdvice(endgame=3).sample(p, random.Random(1))
    assert isinstance(world, EndgameFumblaroo)
    assert (world.me, world.tricks, world.blend) == (p.seat, 3, 0.75)
    copy = world.copy()
    assert (copy.me, copy.tricks, copy.hands) == (world.me, world.tricks, world.hands)
    assert not isinstance(FumblarooAdvice().sample(p, random.Random(1)), EndgameFumblaroo)
    for bad in ({"endgame": -1}, {"endgame": 6}, {"endgame": 2, "blend": 0}):
        with pytest.raises(ValueError):
            FumblarooAdvice(**bad)
