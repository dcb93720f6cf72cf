"""A heartbeat file for a container's health check: ``fivefold-health``.

While the bot is connected to Discord it touches ``HEALTH_FILE`` every
:data:`BEAT_SECONDS` (see :meth:`bot.app.FivefoldBot.heartbeat`). The check says
healthy (exit 0) when the file was touched within :data:`STALE_SECONDS`, else
unhealthy (exit 1, one line why): a bot that lost Discord and never got it back, or
whose event loop is stuck, stops touching it. A process check alone would say
neither.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

BEAT_SECONDS = 30.0
STALE_SECONDS = 3 * BEAT_SECONDS


def beat(path: Path) -> None:
    """Record that the bot is connected now."""
    path.touch()


def check(path: Path, *, now: float | None = None) -> str | None:
    """Why the bot behind ``path`` is unhealthy, or None when it is healthy."""
    try:
        touched = path.stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot has not connected to Discord yet"
    age = (time.time() if now is None else now) - touched
    if age > STALE_SECONDS:
        return f"the last heartbeat is {age:.0f} s old: the bot is not connected to Discord"
    return None


def main() -> int:
    """``fivefold-health``: exit 0 when the heartbeat is fresh, else 1 with one line why."""
    configured = os.environ.get("HEALTH_FILE", "")
    if not configured:
        print("health: HEALTH_FILE is not set, so the bot writes no heartbeat", file=sys.stderr)
        return 1
    problem = check(Path(configured))
    if problem is not None:
        print(f"health: {problem}", file=sys.stderr)
        return 1
    return 0
