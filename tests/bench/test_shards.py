"""``python -m bench.shards --quick``: the output's shape, never a speed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import shards

SPREAD = {"median", "min", "max"}
FIGURES = {"actions_per_s", "interactions_per_s", "p50_ms", "p99_ms", "bot_cpu_ms_per_action",
           "rest_calls_per_action", "bot_cores", "fake_cpu"}


def test_the_quick_bench_measures_one_and_two_processes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "shards.json"
    assert shards.main(["--quick", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["settings"] == {"tables": 2, "moves": 2, "rounds": 1, "database": "sqlite",
                                  "rate": 0.0, "pictures": "off", "openapi_every": 1,
                                  "quick": True}
    for mode in ("one", "two"):
        assert set(result[mode]) == FIGURES
        for figure in result[mode].values():
            assert set(figure) == SPREAD and figure["median"] > 0
    assert set(result["two_over_one"]) == {"actions_per_s", "p99_ms", "bot_cpu_ms_per_action",
                                           "rest_calls_per_action"}
    printed = capsys.readouterr().out
    assert "| one |" in printed and "| two |" in printed and "two / one, same round" in printed


def test_the_bench_refuses_sizes_it_cannot_run() -> None:
    with pytest.raises(SystemExit):
        shards.main(["--moves", "60"])
