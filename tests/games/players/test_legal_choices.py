"""Computer players of every level choose only legal actions, and games between them end.

Generic over every registered game, player count and option variant (``helpers``).
"""

from __future__ import annotations

import pytest

import games
from games.players.match import MAX_ACTIONS, Match, play_match
from tests.games.players.helpers import TEST_BUDGET, all_variants, play_mixed

MIXES = [["hard", "easy", "random"], ["easy", "random", "hard"]]


@pytest.mark.parametrize(("name", "players", "options"), all_variants(), ids=str)
def test_every_level_chooses_a_legal_action(name, players, options):
    mix = MIXES[players % 2]
    game = games.new_game(name, players, options, seed=players * 31 + len(options))
    played = play_mixed(game, mix, seed=players, limit=120)
    assert played > 0


def _default_players(name: str) -> int:
    cls = games.get(name)
    return max(cls.min_players, min(4, cls.max_players))


@pytest.mark.parametrize("name", games.names())
def test_games_between_computers_of_every_level_end(name):
    count = _default_players(name)
    seats = tuple((["hard", "easy", "random"] * count)[:count])
    result = play_match(Match(name, seats, games=1, seed=3, budget=TEST_BUDGET))
    assert result["games"] == 1
    assert 0 < result["longest_game"] < MAX_ACTIONS
    assert sum(result["wins"]) >= 1  # somebody won: the game reached its end
