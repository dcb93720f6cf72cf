"""The command line of the rules core: ``python -m games replay RECORD.json|-``.

Prints the replay output object as JSON. Exit status: 0 when the record
replays, 1 when an action cannot be applied, 2 when the record is malformed or
unreadable (one line on standard error). Output is ASCII JSON, so no locale can
fail to print it; a reader that stops early (``| head``) changes no status.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from games.core.errors import SetupError
from games.core.records import Record
from games.core.replay import replay


class Unreadable(Exception):
    """The record's bytes cannot be had or are not text (exit 2, with this message)."""


def _read(source: str) -> str:
    """The record's text from ``source`` (a path, or ``-`` for standard input).

    Read as bytes and decoded as UTF-8 (a byte-order mark allowed), whatever the locale
    says: JSON is UTF-8, and a record must read the same on every machine.
    """
    try:
        if source == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise Unreadable(f"cannot read {source}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"malformed record: not UTF-8 text (byte {exc.start} is "
                         f"0x{data[exc.start]:02x})") from None


def _fail(message: str) -> int:
    """Say ``message`` as the one line of standard error the contract allows; exit 2."""
    line = message.replace("\r", "\\r").replace("\n", "\\n")
    print(f"replay: {line}", file=sys.stderr)
    return 2


def _emit(summary: dict[str, Any]) -> None:
    """Print the output object; a reader that went away (``| head``) is no error.

    Python's advice for SIGPIPE: point standard output at devnull, so that the
    interpreter's own flush at exit does not raise again.
    """
    try:
        sys.stdout.write(json.dumps(summary) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def cmd_replay(source: str) -> int:
    """Replay one record and print its output object; the exit status (0, 1 or 2)."""
    try:
        result = replay(Record.from_json(_read(source)))
    except Unreadable as exc:
        return _fail(str(exc))
    except SetupError as exc:
        return _fail(f"malformed record: {exc.message}")
    except RecursionError:
        return _fail("malformed record: nested too deeply")
    _emit(result.summary())
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
