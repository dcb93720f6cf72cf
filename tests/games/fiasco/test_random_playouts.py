"""Seeded random playouts of Fiasco for every player count and option, with invariants."""

from __future__ import annotations

import pytest

from games.core.registry import new_game
from games.core.replay import replay, summarize
from tests.invariants import random_playout

OPTION_SETS = [
    (players, options)
    for players in range(2, 7)
    for options in [{}, {"length": "extended"}]
] + [
    (4, {"teams": True}),
    (6, {"teams": True, "length": "extended"}),
    (2, {"suits": "four"}),
    (2, {"suits": "double", "length": "extended"}),
]


@pytest.mark.parametrize(("players", "options"), OPTION_SETS, ids=str)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_keeps_the_invariants(players, options, seed):
    game = new_game("fiasco", players, options, seed=seed * 101 + players)
    random_playout(game, seed)
    assert game.over
    assert len(game.rounds) >= 1


@pytest.mark.parametrize(("players", "options"), OPTION_SETS[::3], ids=str)
def test_a_finished_games_record_replays_to_the_same_state(players, options):
    game = random_playout(new_game("fiasco", players, options, seed=77), 5)
    again = replay(game.record())
    assert again.error is None
    assert again.summary() == summarize(game)
