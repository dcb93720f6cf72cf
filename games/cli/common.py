"""What the ``play`` and ``hint`` commands share: one-line argument errors, piped output."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn


class UsageError(Exception):
    """A bad command line, said in one line (the command prints it and exits 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of printing usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


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


__all__ = ["OneLineParser", "UsageError", "emit"]
