"""The command line of the rules core: ``python -m games replay RECORD.json|-``.

Prints the replay output object as JSON. Exit status: 0 when the record
replays, 1 when an action cannot be applied, 2 when the record is malformed
(one line on standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.core.errors import SetupError
from games.core.records import Record
from games.core.replay import replay


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    with open(source, encoding="utf-8") as f:
        return f.read()


def cmd_replay(source: str) -> int:
    """Replay one record and print its output object; the exit status."""
    try:
        text = _read(source)
    except OSError as exc:
        print(f"replay: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = replay(Record.from_json(text))
    except SetupError as exc:
        print(f"replay: malformed record: {exc.message}", file=sys.stderr)
        return 2
    except RecursionError:  # pragma: no cover - absurdly nested JSON
        print("replay: malformed record: nested too deeply", file=sys.stderr)
        return 2
    json.dump(result.summary(), sys.stdout)
    sys.stdout.write("\n")
    return result.exit_status


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0] in ("play", "hint"):
        # Each parses its own arguments, so that a bad one is said in one line.
        from games import hint, play

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
