"""Every shared Fizzbin vector, and a few records of our own, replayed through the real
command ``python -m games replay -``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import games
from tests.fizzbin.helpers import DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, deal

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "vectors" / "fizzbin"
ROOT = Path(games.__file__).resolve().parent.parent  # where ``python -m games`` is found


def vector_files() -> list[Path]:
    assert VECTORS.is_dir(), f"the shared vectors are missing: {VECTORS}"
    files = sorted(VECTORS.glob("*.json"))
    assert files, f"no vectors in {VECTORS}"
    return files


def run_replay(record: Any, *, raw: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games", "replay", "-"],
        input=raw if raw is not None else json.dumps(record),
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )


def check(record: Any, expect: dict[str, Any], code: int) -> None:
    proc = run_replay(record)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    if code == 2:
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        return
    got = json.loads(proc.stdout)
    for key, want in expect.items():
        if key == "error" and want is not None:
            assert got["error"] is not None
            assert got["error"]["index"] == want["index"]
            assert got["error"]["action"] == want["action"]
            assert got["error"]["message"]
        else:
            assert got[key] == want, f"{key}: {got[key]!r} != {want!r}"


def test_the_shared_vectors_are_there():
    assert len(vector_files()) >= 8


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.stem)
def test_shared_vector_replays_as_expected(path):
    vec = json.loads(path.read_text())
    expect = vec["expect"]
    check(vec["record"], expect, vec.get("exit", 1 if expect.get("error") else 0))


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "game": "fizzbin", "players": 6, "options": {"hands": 1, "time": "day"}, "dealer": 0,
        "deals": [deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, night=False)],
        "actions": ["1 draw stack", "1 discard 6S 1", "0 draw stack"],
    }
    record.update(changes)
    return record


@pytest.mark.parametrize(
    "record",
    [
        _record(options={"time": "day", "hands": 0}),
        _record(options={"hands": True}),
        _record(options={"moon": "full"}),
        _record(players=7),
        _record(deals=[deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, night=True)]),
        _record(deals=[{**deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK), "kingdom": []}]),
        _record(deals=[deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK), {"hands": [], "stack": []}]),
        _record(dealer=2),  # the 7-card hands are not the dealer's and the left player's
        _record(deals=[]),  # the deal must come from the seed, and there is none
        _record(seed="7"),
        _record(actions="1 draw stack"),
    ],
    ids=["hands-0", "hands-bool", "unknown-option", "players-7", "night-with-time-day",
         "deal-unknown-key", "later-deal-not-deck", "big-hands-misplaced", "no-seed",
         "seed-string", "actions-not-list"],
)
def test_malformed_records_exit_2_with_one_line(record):
    check(record, {}, 2)


def test_not_json_exits_2():
    proc = run_replay(None, raw="{not json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_a_stack_card_may_be_discarded_at_once():
    proc = run_replay(_record(actions=["1 draw stack", "1 discard 6S 1", "0 draw stack",
                                       "0 discard TS 3"]))
    assert proc.returncode == 0 and json.loads(proc.stdout)["error"] is None
    assert json.loads(proc.stdout)["to_act"] == 5


@pytest.mark.parametrize(
    "action",
    ["1 draw stack", "0 draw stack", "0 discard AS 0", "0 discard TS 9", "0 shuffle",
     "0 discard TS", "x draw stack"],
    ids=["not-their-turn", "drawing-is-over", "not-held", "no-player-9", "unknown-verb",
         "missing-pile", "no-player-number"],
)
def test_an_action_that_cannot_be_applied_exits_1_with_the_state_before_it(action):
    proc = run_replay(_record(actions=["1 draw stack", "1 discard 6S 1", "0 draw stack",
                                       action]))
    assert proc.returncode == 1, proc.stderr
    out = json.loads(proc.stdout)
    assert out["error"]["index"] == 3 and out["error"]["action"] == action
    assert out["error"]["message"]
    assert out["to_act"] == 0
    assert "draw stack" not in out["legal"] and "discard TS 5" in out["legal"]
    assert out["hands"] == [] and out["rounds"] == [] and out["over"] is False


def test_an_action_after_the_game_is_over_exits_1():
    order = [1, 0, 5, 4, 3, 2] * 3
    stack = DAY_ALL_RANKS_STACK.split()
    lines = [f"{order[i]} draw stack" if j == 0 else f"{order[i]} discard {stack[i]} {order[i]}"
             for i in range(14) for j in (0, 1)]
    proc = run_replay(_record(actions=[*lines, "5 draw stack"]))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["over"] is True and out["winners"] == [1] and out["error"]["index"] == 28
    assert out["hands"] == [{"winner": 1, "loser": 5, "ranks": [
        "full", "royal", "three-quarters", "half", "nothing", "shronk"]}]
