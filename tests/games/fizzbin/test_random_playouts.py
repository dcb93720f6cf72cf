"""Seeded random playouts of Fizzbin for every player count and option, with invariants."""

from __future__ import annotations

import pytest

from games.core.registry import new_game
from games.core.replay import replay, summarize
from games.fizzbin import Fizzbin
from tests.invariants import random_playout

SHORT = [
    (players, {"hands": 1, "time": time})
    for players in range(2, 7)
    for time in ("clock", "day", "night")
]
LONG = [(players, {}) for players in range(2, 7)] + [(2, {"hands": 15, "time": "night"})]


@pytest.mark.parametrize(("players", "options", "seed"),
                         [(p, o, 17 * i + 1) for i, (p, o) in enumerate(SHORT)], ids=str)
def test_one_hand_random_playouts_keep_the_invariants(players, options, seed):
    game = new_game("fizzbin", players, options, seed=seed * 101 + players)
    random_playout(game, seed)
    assert game.over and len(game.rounds) == 1


@pytest.mark.parametrize(("players", "options"), LONG, ids=str)
def test_whole_match_random_playouts_keep_the_invariants(players, options):
    game = random_playout(Fizzbin.new(players, options, seed=300 + players), 9,
                          probe_every=11)
    assert len(game.results) == options.get("hands", 5) == len(game.rounds)
    assert sum(game.scores) == sum(r.winner is not None for r in game.results)


def test_a_clock_game_keeps_the_invariants_with_night_and_day_hands():
    flips = iter([True, False, True])
    game = new_game("fizzbin", 3, {"hands": 3}, seed=5, is_night=lambda: next(flips))
    random_playout(game, 3)
    assert [d["night"] for d in game.record().deals] == [True, False, True]


REPLAYED = [(2, {"hands": 3}), (4, {"hands": 2, "time": "night"}),
            (6, {"hands": 2, "time": "day"})]


@pytest.mark.parametrize(("players", "options"), REPLAYED, ids=str)
def test_a_finished_games_record_replays_to_the_same_state(players, options):
    nights = iter([True, False] * 10)
    game = random_playout(new_game("fizzbin", players, options, seed=77,
                                   is_night=lambda: next(nights)), 5)
    again = replay(game.record())
    assert again.error is None and again.game.over
    assert again.summary() == summarize(game)
    assert again.game.record().deals == game.record().deals
