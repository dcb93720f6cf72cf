"""The shared Fibonachos vectors, and a few records of our own, through the real
replay command (``python -m games replay -``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import games
from games.core.records import Record
from games.core.replay import replay as core_replay
from tests.fibonachos.helpers import MIXED, ROUND_SCRIPT, SPICY_28_2, deal, one_suit_each

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "vectors" / "fibonachos"
ROOT = Path(games.__file__).resolve().parent.parent  # where the tested ``games`` lives


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.json"))


def replay(record: Any) -> subprocess.CompletedProcess[str]:
    text = record if isinstance(record, str) else json.dumps(record)
    return subprocess.run(
        [sys.executable, "-m", "games", "replay", "-"],
        input=text, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )


def check(record: Any, expect: dict[str, Any], exit_status: int) -> None:
    """Replay ``record`` and compare as rules/README.md says: every key of ``expect``
    but ``error.message``, and the exit status (only it, and one line of stderr, for 2)."""
    proc = replay(record)
    assert proc.returncode == exit_status, proc.stderr
    if exit_status == 2:
        assert "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        return
    out = json.loads(proc.stdout)
    for key, want in expect.items():
        if key == "error":
            continue
        assert out[key] == want, key
    want_error, got_error = expect.get("error"), out["error"]
    assert (want_error is None) == (got_error is None)
    if want_error is not None:
        assert (got_error["index"], got_error["action"]) == (want_error["index"],
                                                             want_error["action"])
        assert got_error["message"]


def test_the_shared_vectors_are_there():
    assert VECTORS.is_dir(), VECTORS
    assert vector_files()


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.stem)
def test_shared_vector(path: Path):
    vector = json.loads(path.read_text(encoding="utf-8"))
    expect = vector["expect"]
    default = 1 if isinstance(expect, dict) and expect.get("error") else 0
    check(vector["record"], expect, vector.get("exit", default))


# --- records of our own -------------------------------------------------------------

def record(actions: list[str], /, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"game": "fibonachos", "players": 3, "options": {}, "seed": 5,
                            "dealer": 2, "deals": [deal(MIXED)], "actions": actions}
    base.update(changes)
    return base


def test_own_record_replays_a_trump_trick():
    check(record(["0 play R16", "1 play R2", "2 play G13", "2 PLAY y9"]),
          {"over": False, "scores": [0, 0, 0], "rounds": [], "winners": [], "tricks": [2],
           "to_act": 0, "error": None,
           "legal": ["play Y1", "play Y2", "play Y3", "play Y4", "play Y5", "play Y6",
                     "play Y7", "play Y8"]},
          0)


@pytest.mark.parametrize(
    ("actions", "index"),
    [
        (["0 play R4", "2 play G5"], 1),  # out of turn
        (["0 play R4", "1 play G1"], 1),  # seat 1 must follow Red
        (["0 play G13"], 0),  # not held
        (["0 play R17"], 0),  # no such card
        (["0 play 2"], 0),  # a Spicy card is not played
        (["0 draw R1"], 0),  # no such verb
        (["3 play R1"], 0),  # no such player
        (["0 play R4", "1 play R10", "2 play G5", "1 play R1 R2"], 3),  # does not parse
    ],
)
def test_own_illegal_record_exits_1_at_the_bad_action(actions, index):
    before = core_replay(Record.from_data(record(actions[:index])))
    assert before.error is None
    state = before.summary()
    state["error"] = {"index": index, "action": actions[index]}
    check(record(actions), state, 1)


@pytest.mark.parametrize(
    "spoil",
    [
        {"options": {"rounds": True}},
        {"options": {"rounds": 6}},
        {"options": {"length": "quick"}},
        {"players": 6},
        {"seed": "5"},
        {"seed": None, "dealer": None},
        {"deals": [{**deal(MIXED), "spicy": [1, 2, 3] * 4 + [True, 2, 3]}]},
        {"deals": [{**deal(MIXED), "decks": [[], [], []]}]},
        {"deals": [deal(MIXED), {**deal(MIXED), "aside": ["R1"]}]},
        {"players": 2},  # a three-player deal for two players
        {"actions": "0 play R4"},
    ],
)
def test_own_malformed_record_exits_2(spoil):
    check(record([], **spoil), {}, 2)


def test_not_json_exits_2():
    check("{not json", {}, 2)


def test_a_round_needing_a_deal_without_a_seed_exits_2():
    actions = [f"{'RYG'.index(card[0])} play {card}" for card in ROUND_SCRIPT]
    rec = record(actions, seed=None, deals=[one_suit_each(0, SPICY_28_2)], options={"rounds": 2})
    check(rec, {}, 2)
    rec["options"] = {"rounds": 1}
    check(rec, {"over": True, "winners": [2], "rounds": [[28, 3, 34]], "scores": [28, 3, 34],
                "tricks": [0] * 13 + [1, 1, 2, 2], "to_act": None, "legal": [],
                "error": None}, 0)
