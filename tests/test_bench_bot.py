"""``python -m bench.bot --quick``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import json

import pytest

from bench import bot as bench_bot

SPREAD = {"median", "min", "max"}


def test_quick_run_measures_both_modes_through_a_real_bot_process(tmp_path, capsys):
    path = tmp_path / "bot.json"
    bench_bot.main(["--quick", "--json", str(path)])
    result = json.loads(path.read_text())
    out = capsys.readouterr().out

    assert {"cpu", "python", "cpus"} <= set(result["machine"])
    assert result["settings"]["quick"] is True
    [run] = result["runs"]
    assert run["tables"] == 10 and run["games_started"] >= 10
    # Every request was checked against Discord's rules (--quick checks them all).
    assert set(run["violations"]) <= {"late_response"}, run["violations"]
    assert set(run["summary"]) == {"pause", "saturation"}
    for figures in run["summary"].values():
        assert set(figures) == set(bench_bot.FIGURES)
        assert all(set(spread) == SPREAD for spread in figures.values())
    saturation = [r for r in run["rounds"] if r["mode"] == "saturation"]
    assert saturation and all(r["interactions"] > 0 for r in saturation)
    assert all(r["bot_cpu_ms_per_interaction"] > 0 for r in saturation)
    assert run["memory_per_table_at_start_kb"] > 0
    assert run["gc"]["collections"] is not None  # the bot's own account, from its log
    assert "interactions/s" in out and "saturation" in out
    memory = {row["game"]: row for row in result["table_memory"]}
    assert set(memory) == set(bench_bot.GAMES)
    for row in memory.values():
        assert 0 < row["start_kb"] <= row["peak_kb"] and row["actions"] > 0
    assert "once finished" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--tables", "0"], "--tables must be at least 1"),
    (["--tables", "many"], "--tables must be whole numbers"),
    (["--rounds", "0"], "--rounds must be at least 1"),
    (["--modes", "rush"], "--modes takes pause and/or saturation"),
    (["--budget", "0"], "--budget must be above 0"),
])
def test_bad_arguments_are_refused_with_a_clear_message(argv, message, capsys):
    with pytest.raises(SystemExit):
        bench_bot.main(argv)
    assert message in capsys.readouterr().err
