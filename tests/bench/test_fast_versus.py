"""``python -m bench.fast_versus``: it refuses two versions that play differently, and
measures both; a smoke test of the checks and the output's shape, never of a speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import fast_versus

FAST = Path(__file__).parents[2] / "games" / "fizzbin" / "computer" / "fast.py"


def test_the_same_version_plays_the_same_games_and_is_measured(monkeypatch):
    monkeypatch.setattr(fast_versus, "SEEDS", 3)
    monkeypatch.setattr(fast_versus, "per_300ms", lambda state, seed: 1000.0 + seed)
    result = fast_versus.run("fizzbin", "today", 2, source=FAST.read_text())
    assert result["same_playouts_checked"] > 0
    assert result["per_300ms_at_rev"]["median"] == result["per_300ms_now"]["median"] == 1000.5
    assert result["ratio"] == {"median": 1.0, "min": 1.0, "max": 1.0}


def test_a_version_that_plays_otherwise_stops_the_bench(monkeypatch):
    monkeypatch.setattr(fast_versus, "SEEDS", 3)
    # Offer the moves in another order: the same rules, but not the same games.
    changed = FAST.read_text().replace("            return self._draws[self.sources]\n",
                                       "            return self._draws[self.sources][::-1]\n")
    assert changed != FAST.read_text()
    with pytest.raises(AssertionError, match="part ways"):
        fast_versus.run("fizzbin", "changed", 1, source=changed)
