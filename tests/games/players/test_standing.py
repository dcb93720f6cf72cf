"""Playouts valued by the game's standing (Fazes and Fibonachos advice): the place a
playout leaves each seat in, from the totals everyone can see."""

from __future__ import annotations

import math
import random

import pytest

from games.core.registry import new_game
from games.fazes.computer.advice import FazesAdvice, StandingFazes, standing_of
from games.fazes.computer.fast import _RULES, FastFazes
from games.fazes.computer.knowledge import KNOWLEDGE as FAZES
from games.fibonachos.computer.advice import POINTS, FibonachosAdvice, StandingFibonachos
from games.fibonachos.computer.advice import standing_of as fibonachos_standing
from games.fibonachos.computer.fast import FibonachosState
from games.fibonachos.computer.knowledge import KNOWLEDGE as FIBONACHOS
from games.fumblaroo.computer.advice import FumblarooAdvice, StandingFumblaroo
from games.fumblaroo.computer.knowledge import KNOWLEDGE as FUMBLAROO
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


def play_alike(plain, standing) -> None:
    """Play both worlds out side by side with the rollout policy: they must agree on
    every move, since the standing changes the values alone."""
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not plain.done():
        assert standing.moves() == plain.moves()
        move = plain.rollout_move(rng_a)
        assert standing.rollout_move(rng_b) == move
        plain.play(move)
        standing.play(move)
    assert standing.done()


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
    # Unweighed (pool 0), the advice's world is the knowledge's own deal, wrapped.
    world = FazesAdvice(pool=0).sample(p, random.Random(3))
    assert isinstance(world, StandingFazes) and not isinstance(plain, StandingFazes)
    copy = world.copy()
    play_alike(plain, copy)
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
    copy = world.copy()
    play_alike(plain, copy)
    assert copy.won == plain.won
    own = plain.values()
    values = copy.values()
    totals = [t + round(v * 34) for t, v in zip(game.scores, own, strict=True)]
    best = max(totals)
    for q in range(4):
        if totals[q] == best:
            assert values[q] == max(values)


def test_one_advice_reads_each_new_position_s_standing_not_the_first_one_s():
    advice = FazesAdvice()  # one instance for every decision, as the registered one is
    game = play_until(new_game("fazes", 4, {"fazes": [2, 3, 4]}, seed=11), 1, 11)
    first = advice.sample(perspective(game, game.to_act), random.Random(1))
    game = play_until(game, 2, 11)
    second = advice.sample(perspective(game, game.to_act), random.Random(1))
    assert isinstance(first, StandingFazes) and isinstance(second, StandingFazes)
    assert second.standing.totals == tuple(game.scores) != first.standing.totals
    twice = FibonachosAdvice()
    fib = play_until(new_game("fibonachos", 4, {"rounds": 3}, seed=4), 1, 4)
    a = twice.sample(perspective(fib, fib.to_act), random.Random(1))
    fib = play_until(fib, 2, 4)
    b = twice.sample(perspective(fib, fib.to_act), random.Random(1))
    assert isinstance(a, StandingFibonachos) and isinstance(b, StandingFibonachos)
    assert b.standing.totals == tuple(fib.scores) != a.standing.totals


@pytest.mark.parametrize("seed", range(3))
def test_fibonachos_totals_add_up_every_finished_round(seed):
    fib = play_until(new_game("fibonachos", 4, {"rounds": 3}, seed=seed), 2, seed)
    assert len(fib.rounds) == 2
    s = fibonachos_standing(perspective(fib, fib.to_act))
    assert s.totals == tuple(a + b for a, b in zip(*fib.rounds, strict=True))
    assert s.width == pytest.approx(0.03 * 34)  # the last round: the curve is nearly a step


def test_the_fazes_width_is_the_current_faze_s_span_and_the_later_ones():
    game = play_until(new_game("fazes", 4, {"fazes": [2, 5, 6]}, seed=3), 1, 3)
    p = perspective(game, game.to_act)  # in faze 5, with 6 to come
    assert standing_of(p).width == pytest.approx(
        0.03 * _RULES[(4, 5)].span + 0.25 * _RULES[(4, 6)].span)
    assert FazesAdvice().read(p) == standing_of(p)


def test_the_widths_to_come_add_as_a_root_sum_of_squares_of_their_spreads():
    game = new_game("fazes", 5, {"fazes": [3, 1, 6, 2]}, seed=4)
    p = perspective(game, game.to_act)
    to_come = math.sqrt(sum((0.25 * _RULES[(5, f)].span) ** 2 for f in (1, 6, 2)))
    assert FazesAdvice().read(p).width == pytest.approx(0.03 * _RULES[(5, 3)].span + to_come)


def test_a_copy_shares_the_standing_and_the_value_counts_the_last_trick_and_the_blend():
    game = play_until(new_game("fazes", 4, {"fazes": [1, 5]}, seed=2), 1, 2)
    p = perspective(game, game.to_act)
    world = FazesAdvice().sample(p, random.Random(4))
    assert isinstance(world, StandingFazes)
    assert world.copy().standing is world.standing
    rng = random.Random(5)
    while not world.done():
        world.play(world.rollout_move(rng))
    assert world.final is not None and -50 in world.final  # faze 5: the last trick's -50
    totals = [t + q for t, q in zip(game.scores, world.final, strict=True)]
    place = place_values(totals, width=world.standing.width, lower_is_better=True, tie=2.5)
    own = FastFazes.values(world)
    assert world.values() == pytest.approx([0.75 * w + 0.25 * v
                                            for w, v in zip(place, own, strict=True)])
    none = FazesAdvice(blend=1).sample(p, random.Random(4))
    assert isinstance(none, StandingFazes)
    rng = random.Random(5)
    while not none.done():
        none.play(none.rollout_move(rng))
    assert none.values() == pytest.approx(place)


def test_fibonachos_values_blend_the_place_with_the_round_s_own_points():
    fib = play_until(new_game("fibonachos", 4, {"rounds": 2}, seed=6), 1, 6)
    p = perspective(fib, fib.to_act)
    world = FibonachosAdvice().sample(p, random.Random(2))
    assert isinstance(world, StandingFibonachos)
    assert world.copy().standing is world.standing
    rng = random.Random(3)
    while not world.done():
        world.play(world.rollout_move(rng))
    totals = [t + POINTS[w] for t, w in zip(fib.scores, world.won, strict=True)]
    place = place_values(totals, width=world.standing.width, lower_is_better=False, tie=0.5)
    own = FibonachosState.values(world)
    assert world.values() == pytest.approx([0.75 * w + 0.25 * v
                                            for w, v in zip(place, own, strict=True)])


def fumblaroo_after_a_hand(seed: int):
    """A target-5 game of random moves in its second hand or later, nobody at the target."""
    for s in range(seed, seed + 200):
        game = new_game("fumblaroo", 3, {"target": 5}, seed=s)
        rng = random.Random(s)
        while not game.over and not (game.rounds and max(game.scores) in (1, 2, 3)):
            game.apply(game.to_act, rng.choice(game.legal_actions()))
        if not game.over and len(set(game.scores)) > 1:
            return game
    raise AssertionError("no game with a leader short of the target")


@pytest.mark.parametrize("seed", range(3))
def test_fumblaroo_standing_values_a_hand_that_makes_no_winner_by_the_totals_it_leaves(seed):
    game = fumblaroo_after_a_hand(seed * 50)
    p = perspective(game, game.to_act)
    world = FumblarooAdvice().sample(p, random.Random(2))
    plain = FUMBLAROO.sample(p, random.Random(2))
    assert isinstance(world, StandingFumblaroo) and world.scores == list(game.scores)
    copy = world.copy()
    assert isinstance(copy, StandingFumblaroo) and copy.blend == world.blend
    play_alike(plain, copy)
    totals = [s + g for s, g in zip(game.scores, copy.gained(), strict=True)]
    if max(totals) >= 5 and totals.count(max(totals)) == 1:  # a winner: as before
        assert copy.values() == plain.values()
        return
    values, own = copy.values(), plain.values()
    width = 1.5 * math.sqrt(max(1.0, (5 - max(totals)) / 0.8))
    place = place_values(totals, width=width, lower_is_better=False, tie=0.0)
    assert values == pytest.approx([0.75 * w + 0.25 * v for w, v in zip(place, own, strict=True)])


def test_fumblaroo_a_lead_near_the_target_is_worth_more_than_the_same_lead_far_from_it():
    game = fumblaroo_after_a_hand(3)
    base = FumblarooAdvice().sample(perspective(game, game.to_act), random.Random(1))
    assert isinstance(base, StandingFumblaroo)
    rng = random.Random(4)
    while not base.done():
        base.play(base.rollout_move(rng))

    def lead_value(scores: list[int]) -> float:
        end = base.copy()
        end.scores = scores
        end.taken = [3, 1, 1]  # one point to seat 0, which took three tricks
        values = end.values()
        return values[0] - values[1]

    # seat 0 ends two points ahead of seat 1 both times: at 4 of 5, or at 2
    assert lead_value([3, 2, 0]) > lead_value([1, 0, 0]) > 0
