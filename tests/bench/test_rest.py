"""``python -m bench.rest``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import json

import pytest

from bench import rest


def test_a_short_run_measures_both_sides_for_each_kind_and_writes_the_figures(tmp_path,
                                                                              capsys):
    path = tmp_path / "rest.json"
    assert rest.main(["--calls", "20", "--rounds", "2", "--in-flight", "3",
                      "--picture-bytes", "2000", "--json", str(path)]) == 0
    result = json.loads(path.read_text())
    assert result["rounds"] == 2 and set(result["kinds"]) == set(rest.KINDS)
    for kind in result["kinds"].values():
        for name in ("kept_us", "aiohttp_us", "kept_over_aiohttp"):
            assert set(kind[name]) == {"median", "min", "max"}
            assert kind[name]["min"] > 0
    assert "kept connections" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--kinds", "song"], ["--rounds", "0"],
                                  ["--picture-bytes", "0"]])
def test_bad_arguments_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        rest.main(argv)
    assert exit_.value.code == 2
