"""``python -m bench.rules --quick``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import builtins
import json

import pytest

import games
from bench import rules

SPREAD = {"median", "min", "max"}


def run_quick(tmp_path, capsys) -> tuple[dict, str]:
    path = tmp_path / "rules.json"
    rules.main(["--quick", "--runs", "1", "--seconds", "0.005", "--json", str(path)])
    return json.loads(path.read_text()), capsys.readouterr().out


def check_shape(result: dict) -> None:
    assert {"cpu", "python"} <= set(result["machine"])
    assert set(result["load_average"]) == {"start", "end"}
    assert result["settings"]["quick"] is True
    cases = {(r["game"], r["mode"]) for r in result["playouts"]}
    assert cases == {(name, mode) for name in games.names() for mode in ("dealt", "deal")}
    for row in result["playouts"]:
        assert set(row["per_s"]) == SPREAD and row["per_s"]["median"] > 0
    fast = {row["game"]: row for row in result["fast"]}
    assert set(fast) == set(games.names())
    assert fast["fazes"]["status"] == "ok"
    assert set(fast["fazes"]["mid_game_per_300ms"]) == SPREAD
    for row in fast.values():
        assert row["status"] in {"ok", rules.NO_FAST_PATH}
    for name in games.names():
        costs = result["calls_us"][name]
        assert {"clone", "legal_actions", "apply", "view_for", "record"} <= set(costs)
    assert {"fast copy", "fast moves", "fast play"} <= set(result["calls_us"]["fazes"])


def test_quick_run_writes_every_measurement(tmp_path, capsys):
    result, out = run_quick(tmp_path, capsys)
    check_shape(result)
    assert "cost per call" in out and "fazes" in out


def test_without_open_spiel_the_bench_says_the_reference_is_unavailable(
        tmp_path, capsys, monkeypatch):
    real_import = builtins.__import__

    def no_pyspiel(name, *args, **kwargs):
        if name == "pyspiel":
            raise ImportError("no pyspiel here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspiel)
    result, out = run_quick(tmp_path, capsys)
    check_shape(result)
    assert result["reference"]["available"] is False
    assert result["reference"]["dealt"] is None
    assert all(row["ratio"] is None for row in result["playouts"])
    assert rules.UNAVAILABLE in out


def test_bad_arguments_are_refused_with_a_clear_message(capsys):
    with pytest.raises(SystemExit):
        rules.main(["--runs", "0"])
    assert "--runs must be at least 1" in capsys.readouterr().err
