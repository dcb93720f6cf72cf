"""Turn timers: the choices a table or a server has, their words, and the deadline maths.

A person's turn at a timed table has a **deadline**, a moment stored with the table
(:attr:`bot.models.StoredTable.deadline`) in the same save that gave them the turn, so
a restart finds it there: a deadline already past fires at once, one still ahead waits
what is left of it. At half time the person is reminded (a ping to them alone); at the
deadline a hard computer plays that turn for them, or, with Fiasco's tournament rule,
a random card from that hand is played. A turn is everything a seat does before another
seat moves: if a timed-out turn has more to it (a draw, then a discard; a pot won that
the winner leads again), the computer plays it to its end at once, and that counts as
one timeout. After :data:`MAX_TIMEOUTS` timeouts in a row the seat passes to a computer
until its person takes it back (:mod:`bot.tables.seats`).

Which timer a table has is decided when it opens, in this order: ``/play ... timer:``,
the server's ``/settings timer:``, the bot's ``TURN_TIMEOUT`` (seconds, 0 for none).
The table keeps it for the whole game. Lobbies and computers' turns are never timed.

Everything here is pure (no asyncio, no store): :mod:`bot.tables.turns` runs the clock.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Literal, get_args

from bot.models import SERVER_CHOICES, ServerTimer, StoredTable
from games.core.errors import SetupError

TimerChoice = Literal["off", "30s", "1m", "2m", "5m", "tournament"]
"""A table's timer as ``/play`` names it."""

TOURNAMENT = "tournament"
TOURNAMENT_GAME = "fiasco"
"""The one game with the tournament rule (``rules/fiasco.md`` speaks of no other)."""
TOURNAMENT_SECONDS = 10.0
MAX_TIMEOUTS = 3
"""Timeouts in a row after which a seat passes to a computer."""
DEFAULT_CHOICE: ServerTimer = "2m"
"""What ``TURN_TIMEOUT`` defaults to (120 seconds): timers are on unless turned off."""


@dataclass(frozen=True)
class TableTimer:
    """A table's timer: seconds per turn (0: none), and whether the tournament rule holds."""

    seconds: float
    tournament: bool = False

    @property
    def on(self) -> bool:
        return self.seconds > 0


SECONDS: dict[str, float] = {"off": 0.0, "30s": 30.0, "1m": 60.0, "2m": 120.0, "5m": 300.0,
                             TOURNAMENT: TOURNAMENT_SECONDS}
CHOICES: tuple[TimerChoice, ...] = get_args(TimerChoice)
DESCRIPTION = ("Time for each turn before a computer plays it: off, 30s, 1m, 2m or 5m; "
               "tournament (Fiasco): 10 s, then a random card (default: the server's, 2m)")


def seconds_for(choice: str) -> float:
    """The seconds a choice gives each turn (0 for ``off``); SetupError for an unknown one."""
    try:
        return SECONDS[choice]
    except KeyError:
        known = ", ".join(CHOICES)
        raise SetupError(f"there is no timer {choice!r} (the timers: {known})") from None


def table_timer(choice: str, game: str) -> TableTimer:
    """The timer ``choice`` gives a table of ``game``; SetupError if it is not one for it."""
    seconds = seconds_for(choice)
    if choice == TOURNAMENT and game != TOURNAMENT_GAME:
        raise SetupError("the tournament timer (10 seconds, then a random card) is Fiasco's "
                         "rule; choose off, 30s, 1m, 2m or 5m for this game")
    return TableTimer(seconds, tournament=choice == TOURNAMENT)


def duration_words(seconds: float) -> str:
    """``30 seconds``, ``1 minute``, ``2 minutes``, ``90 seconds``."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute" + ("" if minutes == 1 else "s")
    return f"{seconds:g} second" + ("" if seconds == 1 else "s")


def timer_words(timer: TableTimer) -> str:
    """A table's timer as the lobby says it."""
    if timer.tournament:
        return (f"tournament: {duration_words(timer.seconds)} a turn, then a random card from "
                "that hand is played")
    if not timer.on:
        return "off"
    return (f"{duration_words(timer.seconds)} a turn, then a computer plays it "
            f"({MAX_TIMEOUTS} in a row and a computer takes the seat)")


def choice_words(choice: str | None, fallback: float) -> str:
    """A server's setting in words; None: the bot's default of ``fallback`` seconds."""
    if choice is None:
        own = "off" if fallback <= 0 else duration_words(fallback)
        return f"the bot's default ({own})"
    return "off" if choice == "off" else duration_words(seconds_for(choice))


def timer_of(table: StoredTable, default_seconds: float) -> TableTimer:
    """The timer of ``table``; a table stored before timers existed has the bot's default
    (``TURN_TIMEOUT``, as it had then)."""
    if table.tournament:
        return TableTimer(TOURNAMENT_SECONDS, tournament=True)
    seconds = default_seconds if table.turn_seconds is None else table.turn_seconds
    return TableTimer(seconds)


def choice_of(table: StoredTable) -> TimerChoice | None:
    """The ``/play ... timer:`` that opens a table timed like ``table`` (for a rematch);
    None when its timer is none of the choices (a ``TURN_TIMEOUT`` such as 45 s, or a
    table stored before timers), so the new table takes the server's default."""
    if table.tournament:
        return "tournament"
    for choice in CHOICES:
        if choice != TOURNAMENT and table.turn_seconds == SECONDS[choice]:
            return choice
    return None


def deadline_after(moment: dt.datetime, timer: TableTimer) -> dt.datetime | None:
    """When a turn given at ``moment`` times out; None when the table has no timer."""
    if not timer.on:
        return None
    return moment + dt.timedelta(seconds=timer.seconds)


def half_time(deadline: dt.datetime, timer: TableTimer) -> dt.datetime:
    """When the person whose turn ends at ``deadline`` is reminded."""
    return deadline - dt.timedelta(seconds=timer.seconds / 2)


def countdown(deadline: dt.datetime) -> str:
    """Discord's relative timestamp for ``deadline`` ("in 2 minutes", counting down live)."""
    return f"<t:{math.ceil(deadline.timestamp())}:R>"


__all__ = ["CHOICES", "DEFAULT_CHOICE", "DESCRIPTION", "MAX_TIMEOUTS", "SERVER_CHOICES",
           "TOURNAMENT", "TOURNAMENT_SECONDS", "ServerTimer", "TableTimer", "TimerChoice",
           "choice_of", "choice_words", "countdown", "deadline_after", "duration_words",
           "half_time", "seconds_for", "table_timer", "timer_of", "timer_words"]
