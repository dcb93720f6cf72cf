"""``python -m bench.workers``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import json

import pytest

from bench import workers


def test_a_short_run_measures_both_pools_for_each_kind_and_writes_the_figures(tmp_path, capsys):
    path = tmp_path / "workers.json"
    assert workers.main(["--calls", "20", "--rounds", "2", "--in-flight", "3",
                         "--json", str(path)]) == 0
    result = json.loads(path.read_text())
    assert result["rounds"] == 2 and set(result["kinds"]) == set(workers.KINDS)
    for kind in result["kinds"].values():
        for name in ("workers_us", "executor_us", "workers_over_executor"):
            assert set(kind[name]) == {"median", "min", "max"}
            assert kind[name]["min"] > 0
    assert "ProcessPoolExecutor" in capsys.readouterr().out


def test_the_picture_stand_in_answers_with_the_size_asked():
    assert len(workers.picture(b"scene", 40_000)) == 40_000


@pytest.mark.parametrize("argv", [["--kinds", "song"], ["--rounds", "0"],
                                  ["--picture-bytes", "10"]])
def test_bad_arguments_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        workers.main(argv)
    assert exit_.value.code == 2
