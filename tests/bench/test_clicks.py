"""``python -m bench.clicks``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import json

import pytest

from bench import clicks
from cogs.clicks.deadline import clicked_only


def test_a_short_run_times_both_payloads_and_writes_the_figures(tmp_path, capsys):
    path = tmp_path / "clicks.json"
    assert clicks.main(["--buttons", "10", "--clicks", "5", "--rounds", "2",
                        "--json", str(path)]) == 0
    result = json.loads(path.read_text())
    assert result["buttons"] == 10 and result["rounds"] == 2
    for name in ("whole_us", "cut_us", "cut_over_whole"):
        assert set(result[name]) == {"median", "min", "max"}
        assert result[name]["min"] > 0
    assert "cut by the gate" in capsys.readouterr().out


def test_the_payload_is_a_click_discord_py_builds_with_every_button():
    data, connection = clicks.payload(25), clicks.state()
    assert clicks.parse(data, connection) == 25  # the whole menu, as discord.py would see it
    assert clicks.parse(clicked_only(data), connection) == 1


@pytest.mark.parametrize("argv", [["--buttons", "0"], ["--buttons", "26"], ["--rounds", "0"]])
def test_bad_arguments_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        clicks.main(argv)
    assert exit_.value.code == 2
    assert "--buttons takes 1 to 25" in capsys.readouterr().err
