"""The bot's clock: the one the process reads, and the type of any clock handed in instead.

Everything that stamps a moment (a table's last change, a deadline, a result's end) reads
the clock it is given (tests hand in a fake one they move), and the real one only where
no clock reaches. Imports nothing of the bot, so the models, the store and the table
service may all take it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]
"""The current moment; an aware datetime (a naive one is taken as UTC)."""


def utc_now() -> dt.datetime:
    """The real clock."""
    return dt.datetime.now(dt.UTC)


__all__ = ["Clock", "utc_now"]
