"""``python -m bench.bot --quick``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import bot as bench_bot
from bench import botcode

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
    # Over the clicks acted on alone: at least the figure over all (a busy answer is one).
    assert all(r["bot_cpu_ms_per_acted"] >= r["bot_cpu_ms_per_interaction"] for r in saturation)
    assert run["memory_per_table_at_start_kb"] > 0
    assert run["gc"]["collections"] is not None  # the bot's own account, from its log
    assert sum(run["gc"]["by_generation"]) == run["gc"]["collections"]
    assert 0 <= run["gc"]["share_of_bot_cpu"] < 1
    assert run["fake_gc"]["collections"] >= 0 and run["fake_gc"]["longest_ms"] >= 0
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


def test_a_reference_is_a_revision_of_the_bot_with_libraries_hidden(tmp_path):
    code = botcode.parse("rev=HEAD+without=speed,uvloop", tmp_path)
    assert (code.root / "bot" / "__main__.py").is_file()
    assert (code.root / "tests" / "run_bot_against_fake.py").is_file()
    assert set(code.always) == {"aiodns", "brotli", "zstandard", "uvloop"}
    assert code.while_discord == ("orjson",)  # the store's own orjson is the code's
    command = code.command("python", 1234)
    assert command[:2] == ["python", "-c"] and command[-1] == "1234"
    assert botcode.parse("") is botcode.THIS


def test_a_reference_may_be_run_by_another_interpreter(tmp_path):
    """``python=PATH``: the bot's command starts with that interpreter, not the bench's."""
    code = botcode.parse(f"python={sys.executable}+without=uvloop", tmp_path)
    assert code.python == sys.executable and code.always == ("uvloop",)
    assert code.command("bench-python", 1234)[0] == sys.executable
    assert botcode.THIS.command("bench-python", 1234)[0] == "bench-python"


def test_another_interpreter_is_named_by_its_absolute_path(tmp_path, monkeypatch):
    """The bot runs in a folder of its own, so a path relative to the bench's must not
    reach its command line as it was given."""
    python = Path(sys.executable)
    monkeypatch.chdir(python.parent)
    code = botcode.parse(f"python=./{python.name}", tmp_path)
    assert code.python is not None and Path(code.python).is_absolute()
    assert Path(code.python).samefile(python)


@pytest.mark.parametrize(("spec", "message"), [
    ("without=numpy", "the libraries are speed, uvloop"),
    ("tree=main", "a reference is rev=REV, without=NAME, python=PATH"),
    ("rev=no-such-revision", "cannot read revision"),
    ("python=/no/such/python", "not an interpreter with discord.py installed"),
])
def test_a_reference_that_names_no_bot_is_refused_with_the_reason(spec, message, tmp_path):
    with pytest.raises(botcode.CodeError, match=message):
        botcode.parse(spec, tmp_path)


async def test_the_fakes_heap_is_frozen_while_the_tables_play_and_handed_back_after():
    """``short_collections``: what is alive when play starts, and every second's objects
    after, are left out of this process's collections; all of it is collected again after."""
    import gc

    kept = [[n] for n in range(1000)]  # alive before play starts
    assert gc.get_freeze_count() == 0
    async with bench_bot.short_collections() as meter:
        assert gc.get_freeze_count() >= len(kept)
        gc.collect(0)
        assert meter.collections >= 1  # the process's collections are counted while it plays
    assert gc.get_freeze_count() == 0
    assert gc.is_tracked(kept[0])
