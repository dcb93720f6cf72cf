"""What the ``play`` and ``hint`` commands share: argument errors said in one line."""

from __future__ import annotations

import argparse
from typing import NoReturn


class UsageError(Exception):
    """A bad command line, said in one line (the command prints it and exits 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of printing usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


__all__ = ["OneLineParser", "UsageError"]
