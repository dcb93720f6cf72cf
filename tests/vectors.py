"""The one harness for replay records: the public rule vectors (``docs/rules/vectors``, the
project's copy of the shared ``rules/vectors``) and the games' own records, through the real
command ``python -m games replay -``.

The comparison is the one ``docs/rules/README.md`` describes: every key of ``expect``,
``error`` by presence, ``index`` and ``action`` (its ``message`` is free text: only required
to be there), and the exit status; for exit 2 only the status and one line on stderr count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO / "docs" / "rules" / "vectors"


def vector_files(game: str) -> list[Path]:
    """Every vector of ``game``; fails loudly if its folder is missing or empty."""
    folder = VECTORS / game
    assert folder.is_dir(), f"the rule vectors are missing: {folder}"
    files = sorted(folder.glob("*.json"))
    assert files, f"no rule vectors in {folder}"
    return files


def run_replay(record: Any, *, raw: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m games replay -`` on a record (or on ``raw`` text), as a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "games", "replay", "-"],
        input=raw if raw is not None else json.dumps(record),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )


def check_replay(
    record: Any, expect: dict[str, Any], code: int, *, raw: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Replay ``record`` (or ``raw`` text) and assert the exit status ``code``, no traceback,
    and for 0 and 1 every key of ``expect``; for 2, one line on stderr and nothing else.

    Returns the finished process for any further checks of the caller's own.
    """
    proc = run_replay(record, raw=raw)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    if code == 2:
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        return proc
    got = json.loads(proc.stdout)
    # exit 1 exactly when an action cannot be applied
    if code == 0:
        assert got["error"] is None, got["error"]
    else:
        assert got["error"] is not None, got
    for key, want in expect.items():
        assert key in got, f"{key} missing from {got!r}"
        if key == "error" and want is not None:
            error = got["error"]
            assert error is not None, got
            assert error["index"] == want["index"], ("error.index", error, want)
            assert error["action"] == want["action"], ("error.action", error, want)
            assert isinstance(error["message"], str) and error["message"], error
        else:
            assert got[key] == want, f"{key}: {got[key]!r} != {want!r}"
    return proc


def check_vector(path: Path) -> None:
    """Assert that the vector at ``path`` replays to its expected output and exit status."""
    vec = json.loads(path.read_text(encoding="utf-8"))
    expect = vec["expect"]
    code = vec.get("exit", 1 if expect.get("error") else 0)
    check_replay(vec["record"], expect, code)
