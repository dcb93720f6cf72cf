"""What the commands share: one-line argument errors, piped output, reading a record.

``replay`` dispatches to ``play`` and ``hint``; all three import this module and nothing
of each other.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from games.core.errors import SetupError
from games.core.records import Record
from games.core.replay import Replay, replay


class UsageError(Exception):
    """A bad command line, said in one line (the command prints it and exits 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of printing usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class Unreadable(Exception):
    """The record's bytes cannot be had or are not text (exit 2, with this message)."""


class MalformedRecord(Exception):
    """The record is no record of a game that can be set up (exit 2, with this message)."""


def emit(text: str) -> None:
    """Print ``text`` and a newline; a reader that went away (``| head``) is no error.

    As Python's documentation advises for SIGPIPE: point standard output at devnull,
    so that the interpreter's own flush at exit does not raise again.
    """
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def read_text(source: str) -> str:
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


def replay_source(source: str) -> Replay:
    """The record read from ``source``, replayed as far as its actions go.

    :class:`Unreadable` when its bytes cannot be read as text, :class:`MalformedRecord`
    when they are no record (not JSON, a bad shape, options or deals that set up no game).
    """
    text = read_text(source)
    try:
        return replay(Record.from_json(text))
    except SetupError as exc:
        raise MalformedRecord(f"malformed record: {exc.message}") from None
    except RecursionError:
        raise MalformedRecord("malformed record: nested too deeply") from None


__all__ = ["MalformedRecord", "OneLineParser", "Unreadable", "UsageError", "emit", "read_text",
           "replay_source"]
