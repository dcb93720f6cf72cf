"""The ``python -m games hint`` contract: a legal action in notation on the first line,
exit 0/1/2, the same hint for the same view and ``--seed`` in any process, whatever the
record's own seed."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import games
from games.cli import hint
from games.core.records import Record
from games.core.replay import replay
from tests.games.players.helpers import TEST_BUDGET

LEVELS = ("hard", "easy", "random")


def record_of(name: str, actions: int, seed: int = 11) -> dict:
    """A record of ``name`` ``actions`` random actions in, carrying its deals and dealer."""
    cls = games.get(name)
    game = games.new_game(name, max(cls.min_players, min(4, cls.max_players)), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.over:
            break
        game.apply(game.to_act, rng.choice(game.legal_actions()))
    return game.record()


def write(tmp_path, record: dict, name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def run_hint(capsys, *argv: str) -> tuple[int, str, str]:
    status = hint.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", games.names())
def test_the_first_line_is_a_legal_action_without_the_player_number(
        capsys, tmp_path, name, level):
    record = record_of(name, 7)
    status, out, err = run_hint(capsys, write(tmp_path, record), "--level", level,
                                "--budget", str(TEST_BUDGET))
    assert (status, err) == (0, "")
    first, reason = out.splitlines()
    game = replay(Record.from_data(record)).game
    assert first in {str(a) for a in game.legal_actions()}
    assert not first.split()[0].isdigit()
    assert reason


def test_a_finished_game_exits_1(capsys, tmp_path):
    record = record_of("fiasco", 10_000)
    status, out, err = run_hint(capsys, write(tmp_path, record))
    assert (status, out) == (1, "") and err == "hint: the game is over\n"


def test_an_action_that_cannot_be_applied_exits_1_naming_it(capsys, tmp_path):
    record = record_of("fiasco", 3)
    record["actions"].append("0 play ZZ")
    status, out, err = run_hint(capsys, write(tmp_path, record))
    assert (status, out) == (1, "")
    assert err.startswith("hint: action 3 ('0 play ZZ') cannot be applied: ")


@pytest.mark.parametrize("text", ["not json", "[]", '{"game": "fiasco"}',
                                  '{"game": "nogame", "players": 3}'])
def test_a_malformed_record_exits_2_with_one_line(capsys, text, monkeypatch):
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(text))
    status, out, err = run_hint(capsys, "-")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("hint: ")
    assert "malformed record: malformed record" not in err


@pytest.mark.parametrize("argv", [["/no/such/file.json"], [], ["-", "--level", "wizard"],
                                  ["-", "--seed", "x"], ["-", "--budget", "0"]])
def test_bad_arguments_exit_2_with_one_line(capsys, argv):
    status, out, err = run_hint(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("hint: ")


def test_the_same_view_and_seed_give_the_same_hint_in_another_process(capsys, tmp_path):
    paths = [write(tmp_path, record_of(name, 5), f"{name}.json") for name in games.names()]
    budget = ["--budget", str(TEST_BUDGET)]
    here = []
    for path in paths:
        assert hint.main([path, *budget, "--seed", "3"]) == 0
        here.append(capsys.readouterr().out)
    code = ("import sys; from games.cli import hint\n"
            f"for p in sys.argv[1:]: hint.main([p, '--budget', '{TEST_BUDGET}', '--seed', '3'])")
    there = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True,
                           text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert there.stdout == "".join(here)


@pytest.mark.parametrize("name", games.names())
def test_the_records_seed_does_not_change_the_hint_for_the_same_view(capsys, tmp_path, name):
    record = record_of(name, 6)
    other = dict(record, seed=record["seed"] + 1)  # same deals and dealer: the same view
    assert replay(Record.from_data(other)).game.view_for(0) == \
        replay(Record.from_data(record)).game.view_for(0)
    outs = []
    for rec in (record, other):
        assert hint.main([write(tmp_path, rec), "--budget", str(TEST_BUDGET)]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]


def test_bytes_that_are_not_text_exit_2_with_one_line(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"game": "fiasco\xff\xfe"}')
    status, out, err = run_hint(capsys, str(path))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("hint: ")
