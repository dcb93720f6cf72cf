"""``python -m games replay`` keeps its contract whatever it is fed: exit 0, 1 or 2, never a
traceback, and for 2 exactly one line on standard error.

The property tests call the command in-process (``games.cli.replay.main``) so that hypothesis
can try hundreds of inputs in a few seconds; the few things only a real process shows (the locale,
a closed pipe) run it as one.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.cli import replay as cli
from tests.vectors import REPO, VECTORS, check_replay

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

VERBS = ["play", "choose", "draw", "discard", "order", "pass", "pick", "turn", "call", "PLAY"]
TOKENS = ["S4", "s4", "K", "KH", "R1", "TD", "S", "R", "H", "stack", "0", "1", "02", "9" * 5000,
          "\u017f4", "\u017f", "\u212a", "\u212aH", "\u00b2", "\udcff", "\n", ""]


def replay_bytes(data: bytes) -> tuple[int, str, str]:
    """The command on ``data`` as standard input: (exit status, stdout, stderr)."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", stdin), redirect_stdout(out), redirect_stderr(err):
        code = cli.main(["replay", "-"])
    return code, out.getvalue(), err.getvalue()


def assert_contract(code: int, out: str, err: str) -> dict[str, Any] | None:
    """The replay contract; the output object for exit 0 and 1."""
    assert code in (0, 1, 2), (code, out, err)
    if code == 2:
        assert out == "" and len(err.splitlines()) == 1 and err.startswith("replay: "), err
        return None
    assert err == ""
    summary = json.loads(out)
    assert (summary["error"] is None) == (code == 0)
    return summary


def vector_records() -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8"))["record"]
            for path in sorted(VECTORS.glob("*/*.json"))]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
action_lines = st.builds(
    " ".join,
    st.lists(st.sampled_from(["0", "1", "2", "-1", "9" * 4400, *VERBS, *TOKENS]) | st.text(),
             min_size=0, max_size=4),
)
records = st.fixed_dictionaries(
    {"game": st.sampled_from(games.names()) | st.text(max_size=10)},
    optional={
        "players": st.integers(-1, 12) | json_values,
        "options": st.dictionaries(st.text(max_size=10), json_values, max_size=3) | json_values,
        "seed": st.integers() | json_values,
        "dealer": st.integers(-1, 12) | json_values,
        "deals": st.lists(json_values, max_size=3) | json_values,
        "actions": st.lists(action_lines, max_size=6) | json_values,
        "record": json_values,
    },
)


@st.composite
def mutated_vectors(draw: st.DrawFn) -> dict[str, Any]:
    """A real record with one field replaced or one action line inserted: deep game paths."""
    record = dict(draw(st.sampled_from(vector_records())))
    if draw(st.booleans()):
        actions = list(record.get("actions", []))
        actions.insert(draw(st.integers(0, len(actions))), draw(action_lines))
        record["actions"] = actions
    else:
        key = draw(st.sampled_from(["players", "options", "seed", "dealer", "deals"]))
        record[key] = draw(json_values | st.integers(-1, 12))
    return record


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_keep_the_contract(data: bytes):
    assert_contract(*replay_bytes(data))


@FUZZ
@given(json_values | records)
def test_any_json_keeps_the_contract(doc: Any):
    assert_contract(*replay_bytes(json.dumps(doc).encode()))


@FUZZ
@given(mutated_vectors())
def test_real_records_with_a_wrong_field_or_line_keep_the_contract(record: dict[str, Any]):
    assert_contract(*replay_bytes(json.dumps(record).encode()))


FIASCO = {"game": "fiasco", "players": 2, "seed": 7}


@pytest.mark.parametrize("line", ["9" * 5000 + " play S4", "0" * 5000 + "9 play S4"])
def test_a_player_number_of_thousands_of_digits_is_no_player(line):
    summary = assert_contract(*replay_bytes(json.dumps({**FIASCO, "actions": [line]}).encode()))
    assert summary is not None and summary["error"]["index"] == 0
    assert "there is no player" in summary["error"]["message"]
    assert len(summary["error"]["message"]) < 200


def test_a_player_argument_of_thousands_of_digits_is_no_player():
    record = {"game": "fizzbin", "players": 3, "seed": 1, "actions": ["0 draw " + "1" * 5000]}
    summary = assert_contract(*replay_bytes(json.dumps(record).encode()))
    assert summary is not None and "is not 'stack' or a player" in summary["error"]["message"]


@pytest.mark.parametrize("text", [
    "0 choose \u017f",   # the long s upper-cases to S
    "0 play \u017f4",
    "0 \u212ahoose S",   # not a verb either: the Kelvin sign lower-cases to k
    "0 pl\u0430y S4",   # a Cyrillic a
])
def test_letters_that_only_case_map_to_ascii_are_not_the_notation(text):
    summary = assert_contract(*replay_bytes(json.dumps({**FIASCO, "actions": [text]}).encode()))
    assert summary is not None and summary["error"]["index"] == 0
    assert "ASCII" in summary["error"]["message"]


def test_the_ascii_spelling_of_the_same_action_is_accepted():
    code, out, _ = replay_bytes(json.dumps({**FIASCO, "actions": ["0 choose s"]}).encode())
    assert code == 0 and json.loads(out)["error"] is None


def test_a_malformed_record_is_said_malformed_once():
    code, _, err = replay_bytes(json.dumps({"game": "fiasco", "players": "2"}).encode())
    assert code == 2
    assert err.count("malformed record") == 1 and "players" in err


def test_a_rule_vector_given_whole_gets_a_hint():
    path = sorted(VECTORS.glob("fiasco/*.json"))[0]
    code, _, err = replay_bytes(path.read_bytes())
    assert code == 2 and 'replay its "record" alone' in err


def test_a_byte_order_mark_is_allowed():
    check_replay(None, {}, 0, raw="\ufeff" + json.dumps(FIASCO))


def run(args: list[str], data: bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "games", "replay", *args], input=data,
                          capture_output=True, cwd=REPO, timeout=60, check=False,
                          env={**os.environ, **env})


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_bytes_that_are_not_utf8_are_a_malformed_record_in_any_locale(tmp_path: Path, locale):
    data = b'{"game": "fiasco", "players": 2, "seed": 7, "actions": ["0 choose \xff"]}'
    (tmp_path / "record.json").write_bytes(data)
    for args, stdin in ((["-"], data), ([str(tmp_path / "record.json")], b"")):
        proc = run(args, stdin, LC_ALL=locale, PYTHONUTF8="0")
        assert proc.returncode == 2, proc
        assert proc.stderr.decode().splitlines() == [
            f"replay: malformed record: not UTF-8 text (byte {data.index(0xff)} is 0xff)"]


def test_a_reader_that_goes_away_is_no_crash():
    proc = subprocess.Popen([sys.executable, "-m", "games", "replay", "-"], cwd=REPO,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head` before the replay prints anything
    proc.stdin.write(json.dumps(FIASCO).encode())
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""
