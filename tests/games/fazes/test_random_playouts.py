"""Seeded random playouts of Fazes with the shared invariant checks, and record round trips."""

from __future__ import annotations

import pytest

from games.core.records import Record
from games.core.registry import new_game
from games.core.replay import replay, summarize
from games.fazes import Fazes
from tests.invariants import random_playout

PLAYERS = range(3, 9)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_full_games_keep_the_invariants(players, seed):
    g = random_playout(Fazes.new(players, seed=1000 * players + seed), seed)
    assert len(g.rounds) == 6
    assert len(g.tricks) == 6 * (52 // players)
    assert g.scores == [sum(r[p] for r in g.rounds) for p in range(players)]
    assert g.winners and all(g.scores[w] == min(g.scores) for w in g.winners)


@pytest.mark.parametrize("faze", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_random_single_faze_games_keep_the_invariants(faze, seed):
    players = 3 + (faze + seed) % 6
    g = random_playout(Fazes.new(players, {"fazes": [faze]}, seed=seed), seed)
    (points,) = g.rounds
    tricks = 52 // players
    raw = g.points_taken()  # what each player took in the faze, before moon and -50
    assert sum(raw) == {1: 65, 2: 10 * tricks, 3: 130, 4: 100, 5: 0, 6: 295 + 10 * tricks}[faze]
    expected = list(raw)
    if faze != 5 and max(raw) == sum(raw):  # a moon: the shooter 0, every other the total
        expected = [0 if p == raw.index(max(raw)) else sum(raw) for p in range(players)]
    if faze in (5, 6):
        expected[g.tricks[-1]] -= 50
    assert points == expected


def test_random_games_with_repeated_fazes_keep_the_invariants():
    g = random_playout(new_game("fazes", 5, {"fazes": [6, 6, 1]}, seed=11), 11)
    assert len(g.rounds) == 3 and len(g.record().deals) == 3


@pytest.mark.parametrize("players", [3, 6, 8])
def test_record_of_a_finished_random_game_replays_to_the_same_summary(players):
    g = random_playout(new_game("fazes", players, seed=77 + players), players)
    assert g.over
    result = replay(g.record())
    assert result.error is None
    assert result.summary() == summarize(g)
    # The deals alone (no seed) replay it too.
    data = g.record().model_dump()
    data["seed"] = None
    assert replay(Record.from_data(data)).summary() == summarize(g)
