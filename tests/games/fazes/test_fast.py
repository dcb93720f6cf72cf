"""The search fast path plays Fazes exactly as the validating rules core does."""

from __future__ import annotations

import random

import pytest

from games.fazes import Fazes
from games.fazes.computer.fast import FastFazes
from tests.games.fazes.helpers import COLOUR_HANDS_4P, game

PLAYERS = range(3, 9)
# Every faze, alone and in the full game; trump (1, 6), moons (1-4, 6) and -50 (5, 6).
OPTIONS = [None, *({"fazes": [f]} for f in range(1, 7)), {"fazes": [6, 5, 6]}]


def new(players: int, options: dict[str, list[int]] | None, seed: int) -> Fazes:
    g = Fazes.new(players, options, seed=seed)
    return g


def state_tuple(s: FastFazes) -> tuple[object, ...]:
    """The state's meaning (between tricks, the last trick's winner no longer counts)."""
    trick = (s.led, s.win, s.win_seat, s.win_trump, s.trick_pts) if s.played else ()
    return (s.hands, s.pts, s.to_move, s.played, trick, s.tricks_left, s.final, s.rules)


def mirror_whole_game(g: Fazes, rng: random.Random, *, resync: float) -> int:
    """Play ``g`` to its end with random legal moves, mirrored on the fast path.

    The fast state is taken from the game at each faze's start and, with probability
    ``resync`` per move, again mid-faze (where it must equal the mirrored one). Every
    step compares the seat to act and the legal actions; every faze's end, the points.
    Returns the number of fazes checked.
    """
    fast = FastFazes.from_game(g)
    fazes = 0
    while not g.over:
        assert fast.to_act() == g.to_act
        assert {fast.action(m) for m in fast.moves()} == set(g.legal_actions())
        assert len(set(fast.moves())) == len(fast.moves())
        action = rng.choice(g.legal_actions())
        assert g.to_act is not None
        rounds_before = len(g.rounds)
        g.apply(g.to_act, action)
        fast.play(fast.move(action))
        if len(g.rounds) > rounds_before:  # the faze is over: the horizon
            assert fast.done() and fast.to_act() == -1
            assert fast.points() == g.rounds[-1]
            values = fast.values()
            assert all(0.0 <= v <= 1.0 for v in values)
            best = min(g.rounds[-1])
            assert [values[p] for p in range(g.players) if g.rounds[-1][p] == best] == [
                max(values)] * g.rounds[-1].count(best)
            fazes += 1
            fast = FastFazes.from_game(g)
        else:
            assert not fast.done()
            if rng.random() < resync:
                assert state_tuple(FastFazes.from_game(g)) == state_tuple(fast)
    assert fast.done() and fast.points() == g.rounds[-1]
    return fazes


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "all" if o is None else str(o))
def test_random_playouts_on_the_fast_path_match_the_rules_core(players, options):
    g = new(players, options, seed=100 * players + len(str(options)))
    fazes = mirror_whole_game(g, random.Random(players), resync=0.05)
    assert fazes == len(g.options.fazes)


def test_many_seeds_of_every_faze_match_and_exercise_the_moon():
    """Random play rarely shoots the moon; the short hands of faze 4 do now and then."""
    moons = 0
    for seed in range(40):
        players = 3 + seed % 6
        g = new(players, {"fazes": [4, 3, 1]}, seed)
        mirror_whole_game(g, random.Random(seed), resync=0.0)
        moons += sum(1 for r in g.rounds if r.count(0) == 1 and len(set(r)) == 2)
    assert moons > 0


@pytest.mark.parametrize("faze", [1, 2, 6])
def test_a_stacked_moon_matches(faze):
    """One colour per hand: seat 1 (every green) takes every trick, or with red trump
    seat 0 (every red) does."""
    g = game(COLOUR_HANDS_4P, faze)
    mirror_whole_game(g, random.Random(faze), resync=0.2)
    shooter = 1 if faze == 2 else 0
    assert g.rounds[0][shooter] == (-50 if faze == 6 else 0)
    assert len({pts for p, pts in enumerate(g.rounds[0]) if p != shooter}) == 1


def test_a_copy_is_independent_of_the_original():
    g = new(4, None, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        assert g.to_act is not None
        g.apply(g.to_act, rng.choice(g.legal_actions()))
    original = FastFazes.from_game(g)
    before = state_tuple(original)
    copy = original.copy()
    assert state_tuple(copy) == before
    while not copy.done():
        copy.play(copy.moves()[-1])
    assert state_tuple(original) == before
    assert copy.final is not None and original.final is None


def test_rollout_moves_are_legal_and_reach_the_horizon():
    for players in PLAYERS:
        for faze in range(1, 7):
            rng = random.Random(players * 10 + faze)
            s = FastFazes.from_game(new(players, {"fazes": [faze]}, faze))
            steps = 0
            while not s.done():
                move = s.rollout_move(rng)
                assert move in s.moves()
                s.play(move)
                steps += 1
            assert steps == 52 - 52 % players


def test_a_finished_game_gives_a_done_state_with_the_last_faze_points():
    g = new(3, {"fazes": [4]}, seed=2)
    mirror_whole_game(g, random.Random(2), resync=0.0)
    s = FastFazes.from_game(g)
    assert s.done() and s.points() == g.rounds[-1]
