"""``python -m research.reading``: how much the weighed pool favours the true deal."""

from __future__ import annotations

import json

import pytest

from research import reading


@pytest.mark.parametrize("game", ["fazes", "fumblaroo"])
def test_easy_players_clues_favour_the_true_deal_and_random_players_hardly_move_it(
        game, capsys):
    def figures(level: str) -> dict[str, dict[str, float]]:
        assert reading.main([game, "--level", level, "--positions", "12", "--size", "64",
                             "--priors", "1,0.5"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["game"] == game and 0 < out["positions"] <= 12
        return out["log_truth_over_mean"]

    easy, rand = figures("easy"), figures("random")
    assert easy["0.5"]["mean"] > 1.0 and easy["1.0"]["mean"] > 1.0
    # Random players read as rules-of-thumb players mislead the pool; read as either
    # player they do not.
    assert rand["1.0"]["mean"] < rand["0.5"]["mean"]
    assert 1 <= easy["0.5"]["effective_size_median"] <= 64
