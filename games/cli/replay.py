"""The command line of the rules core: ``python -m games replay RECORD.json|-``.

Prints the replay output object as JSON. Exit status: 0 when the record
replays, 1 when an action cannot be applied, 2 when the record is malformed or
unreadable (one line on standard error). Output is ASCII JSON, so no locale can
fail to print it; a reader that stops early (``| head``) changes no status.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.cli.common import MalformedRecord, Unreadable, emit, replay_source


def _fail(message: str) -> int:
    """Say ``message`` as the one line of standard error the contract allows; exit 2."""
    line = message.replace("\r", "\\r").replace("\n", "\\n")
    print(f"replay: {line}", file=sys.stderr)
    return 2


def cmd_replay(source: str) -> int:
    """Replay one record and print its output object; the exit status (0, 1 or 2)."""
    try:
        result = replay_source(source)
    except (Unreadable, MalformedRecord) as exc:
        return _fail(str(exc))
    emit(json.dumps(result.summary()))
    return result.exit_status


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0] in ("play", "hint"):
        # Each parses its own arguments, so that a bad one is said in one line.
        from games.cli import hint, play

        return (play.main if words[0] == "play" else hint.main)(words[1:])
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a game record and print the resulting state")
    rp.add_argument("record", help="path to a record JSON file, or - for standard input")
    sub.add_parser("play", help="play against computer players, or measure them (--json)")
    sub.add_parser("hint", help="the action a computer player would take next in a record")
    args = parser.parse_args(words)
    if args.command == "replay":
        return cmd_replay(args.record)
    return 2  # pragma: no cover - argparse rejects other commands
