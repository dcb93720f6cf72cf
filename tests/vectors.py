"""Replaying the shared rule vectors (``../shared/rules/vectors``) through the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO.parent / "shared" / "rules" / "vectors"
KEYS = ("game", "over", "scores", "rounds", "winners", "tricks", "hands", "to_act", "legal")


def vector_files(game: str) -> list[Path]:
    """Every vector of ``game``; fails loudly if the shared folder is missing."""
    folder = VECTORS / game
    files = sorted(folder.glob("*.json"))
    assert files, f"no shared vectors in {folder}"
    return files


def run_replay(record: Any, *, raw: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m games replay -`` on a record (or raw text), as a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "games", "replay", "-"],
        input=raw if raw is not None else json.dumps(record),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )


def check_vector(path: Path) -> None:
    """Assert that the vector at ``path`` replays to its expected output and exit status."""
    vec = json.loads(path.read_text())
    want = vec["expect"]
    code = vec.get("exit", 1 if want.get("error") else 0)
    proc = run_replay(vec["record"])
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    if code == 2:
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        return
    got = json.loads(proc.stdout)
    for key in KEYS:
        if key in want:
            assert got[key] == want[key], f"{path.name}: {key}: {got[key]!r} != {want[key]!r}"
    if want.get("error") is None:
        assert got["error"] is None, got["error"]
    else:
        assert got["error"]["index"] == want["error"]["index"]
        assert got["error"]["action"] == want["error"]["action"]
        assert got["error"]["message"]
