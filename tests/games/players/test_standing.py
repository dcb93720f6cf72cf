"""Playouts valued by the game's standing (Fazes and Fibonachos advice): the place a
playout leaves each seat in, from the totals everyone can see."""

from __future__ import annotations

import random

import pytest

from games.core.registry import new_game
from games.fazes.computer.advice import FazesAdvice, StandingFazes, standing_of
from games.fazes.computer.fast import FastFazes
from games.fazes.computer.knowledge import KNOWLEDGE as FAZES
from games.fibonachos.computer.advice import FibonachosAdvice, StandingFibonachos
from games.fibonachos.computer.advice import standing_of as fibonachos_standing
from games.fibonachos.computer.knowledge import KNOWLEDGE as FIBONACHOS
from games.players import perspective
from games.players.standing import place_values


def play_until(game, rounds: int, seed: int):
    """Random legal moves until ``rounds`` deals are over and the next has begun."""
    rng = random.Random(seed)
    while len(game.rounds) < rounds or game.to_act is None:
        game.apply(game.to_act, rng.choice(game.legal_actions()))
    for _ in range(rng.randrange(1, 6)):
        game.apply(game.to_act, rng.choice(game.legal_actions()))
    return game


def test_the_best_total_has_the_best_value_and_a_tie_for_first_is_a_win_for_both():
    low = place_values([40, 40, 90, 60], width=2, lower_is_better=True, tie=2.5)
    assert low[0] == low[1] > 0.75 and low[2] < low[3] < 0.01
    high = place_values([40, 40, 90, 60], width=2, lower_is_better=False, tie=0.5)
    assert high[2] > 0.99 and high[0] == high[1] < 0.01


def test_a_wider_curve_tells_the_same_margin_apart_less():
    narrow = place_values([10, 30], width=2, lower_is_better=True, tie=0)
    wide = place_values([10, 30], width=40, lower_is_better=True, tie=0)
    assert narrow[0] - narrow[1] > wide[0] - wide[1] > 0


def test_a_width_that_is_not_positive_is_refused():
    with pytest.raises(ValueError, match="width"):
        place_values([1, 2], width=0, lower_is_better=True, tie=0)


@pytest.mark.parametrize("seed", range(4))
def test_fazes_standing_is_the_totals_everyone_saw_and_narrows_to_the_last_faze(seed):
    game = play_until(new_game("fazes", 4, {"fazes": [1, 3, 2]}, seed=seed), 1, seed)
    p = perspective(game, game.to_act)
    first = standing_of(p)
    assert first.totals == tuple(game.scores)
    game = play_until(game, 2, seed)
    last = standing_of(perspective(game, game.to_act))
    assert last.totals == tuple(game.scores)
    assert last.width < first.width / 5  # one faze to go against two


def test_fazes_standing_worlds_play_as_the_knowledges_and_value_the_place():
    game = play_until(new_game("fazes", 4, {"fazes": [1, 1]}, seed=5), 1, 5)
    p = perspective(game, game.to_act)
    plain = FAZES.sample(p, random.Random(3))
    world = FazesAdvice().sample(p, random.Random(3))
    assert isinstance(world, StandingFazes) and not isinstance(plain, StandingFazes)
    copy = world.copy()
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not plain.done():
        assert copy.moves() == plain.moves()
        move = plain.rollout_move(rng_a)
        assert copy.rollout_move(rng_b) == move
        plain.play(move)
        copy.play(move)
    assert copy.points() == plain.points()
    assert not world.done()  # the copy played, the world it came from did not
    totals = [t + q for t, q in zip(game.scores, copy.points(), strict=True)]
    values = copy.values()
    leader = min(range(4), key=lambda q: (totals[q], q))
    trailer = max(range(4), key=lambda q: (totals[q], -q))
    assert values[leader] > values[trailer]
    assert values != plain.values()


def test_in_the_last_faze_points_to_the_leader_are_worth_more_than_to_the_last():
    game = play_until(new_game("fazes", 4, {"fazes": [1, 1]}, seed=7), 1, 7)
    p = perspective(game, game.to_act)
    world = FazesAdvice().sample(p, random.Random(1))
    assert isinstance(world, StandingFazes)
    s = world.standing
    me = min(range(4), key=lambda q: -s.totals[q])  # the seat furthest behind
    leader = min(range(4), key=lambda q: s.totals[q])
    other = next(q for q in range(4) if q not in (me, leader))

    def value_when(taker: int) -> float:
        end = world.copy()
        end.pts = [0, 0, 0, 0]
        end.pts[taker] = 25
        end.final = end.pts
        return end.values()[me]

    if s.totals[leader] < s.totals[other]:
        assert value_when(leader) > value_when(other)
    assert FazesAdvice(blend=0).sample(p, random.Random(1)).__class__ is FastFazes


@pytest.mark.parametrize("seed", range(3))
def test_fibonachos_standing_worlds_play_as_the_knowledges_and_value_the_place(seed):
    game = play_until(new_game("fibonachos", 4, {"rounds": 2}, seed=seed), 1, seed)
    p = perspective(game, game.to_act)
    assert fibonachos_standing(p).totals == tuple(game.scores)
    plain = FIBONACHOS.sample(p, random.Random(3))
    world = FibonachosAdvice().sample(p, random.Random(3))
    assert isinstance(world, StandingFibonachos)
    rng_a, rng_b = random.Random(9), random.Random(9)
    copy = world.copy()
    while not plain.done():
        assert copy.moves() == plain.moves()
        move = plain.rollout_move(rng_a)
        assert copy.rollout_move(rng_b) == move
        plain.play(move)
        copy.play(move)
    assert copy.won == plain.won
    own = plain.values()
    values = copy.values()
    totals = [t + round(v * 34) for t, v in zip(game.scores, own, strict=True)]
    best = max(totals)
    for q in range(4):
        if totals[q] == best:
            assert values[q] == max(values)
