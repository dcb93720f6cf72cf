"""Turn timers: the choices a table or a server has, their words, and the deadline maths.

A person's turn at a timed table has a **deadline**, a moment stored with the table
(:attr:`bot.models.StoredTable.deadline`) in the same save that gave them the turn, so
a restart finds it there: a deadline already past fires at once, one still ahead waits
what is left of it. At half time the person is reminded (a ping to them alone); at the
deadline a hard computer plays that turn for them, or, at a game whose rules have the
tournament rule (:attr:`games.core.game.Game.tournament_rule`), a random card from that
hand is played. A turn is everything a seat does before another
seat moves: if a timed-out turn has more to it (a draw, then a discard; a pot won that
the winner leads again), the computer plays it to its end at once, and that counts as
one timeout. After :data:`MAX_TIMEOUTS` timeouts in a row the seat passes to a computer
until its person takes it back (:mod:`bot.tables.seats`).

Which timer a table has is decided when it opens, in this order: ``/play ... timer:``,
the server's ``/settings timer:``, the bot's ``TURN_TIMEOUT`` (seconds, 0 for none).
The table keeps it for the whole game. Lobbies and computers' turns are never timed.

Everything here is pure (no asyncio, no store): :mod:`bot.tables.scheduler` runs the clock.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any, Literal, get_args

import games
from bot.models import SERVER_CHOICES, SERVER_SECONDS, ServerTimer, StoredTable
from games.core.errors import SetupError
from games.core.game import Game
from games.core.words import plural

TimerChoice = Literal["off", "30s", "1m", "2m", "5m", "tournament"]
"""A table's timer as ``/play`` names it."""

TOURNAMENT = "tournament"
TOURNAMENT_SECONDS = 10.0
MAX_TIMEOUTS = 3
"""Timeouts in a row after which a seat passes to a computer."""


@dataclass(frozen=True)
class TableTimer:
    """A table's timer: seconds per turn (0: none), and whether the tournament rule holds."""

    seconds: float
    tournament: bool = False

    @property
    def on(self) -> bool:
        return self.seconds > 0


SECONDS: dict[str, float] = {choice: seconds for choice, seconds in SERVER_SECONDS.items()}
SECONDS[TOURNAMENT] = TOURNAMENT_SECONDS
CHOICES: tuple[TimerChoice, ...] = get_args(TimerChoice)


def has_tournament(game: str) -> bool:
    """Whether the rules of ``game`` have the tournament timer (the game declares it)."""
    return games.get(game).tournament_rule


def tournament_titles() -> str:
    """The titles of the games whose rules have the tournament timer, in words."""
    return " and ".join(games.get(name).title for name in games.names() if has_tournament(name))


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
    if choice == TOURNAMENT and not has_tournament(game):
        raise SetupError(f"the tournament timer (10 seconds, then a random card) is "
                         f"{tournament_titles()}'s rule; choose off, 30s, 1m, 2m or 5m for this "
                         "game")
    return TableTimer(seconds, tournament=choice == TOURNAMENT)


def duration_words(seconds: float) -> str:
    """``30 seconds``, ``1 minute``, ``2 minutes``, ``90 seconds``."""
    if seconds >= 60 and seconds % 60 == 0:
        return plural(int(seconds // 60), "minute")
    return plural(float(seconds), "second")


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


def with_deadline(table: StoredTable, game: Game[Any], moment: dt.datetime,
                  default_seconds: float, *, before: StoredTable | None = None) -> StoredTable:
    """``table`` (about to be saved with ``game`` at ``moment``) with the deadline of the turn
    to come.

    A person's turn at a timed table ends at ``moment`` plus the timer (``default_seconds``
    for a table stored before timers); a seat in overtime (timed out with more to do) at
    once; anyone else's turn is not timed. With ``before`` (the same turn, only a seat
    changed hands), a deadline the person to act already had is kept.
    """
    seat = None if game.over else game.to_act
    deadline: dt.datetime | None = None
    if seat is not None and not table.seats[seat].is_computer:
        if before is not None and before.deadline is not None \
                and before.seats[seat].user_id == table.seats[seat].user_id:
            deadline = before.deadline
        elif table.overtime:
            deadline = moment
        else:
            deadline = deadline_after(moment, timer_of(table, default_seconds))
    return table.model_copy(update={"deadline": deadline})


def half_time(deadline: dt.datetime, timer: TableTimer) -> dt.datetime:
    """When the person whose turn ends at ``deadline`` is reminded."""
    return deadline - dt.timedelta(seconds=timer.seconds / 2)


def countdown(deadline: dt.datetime) -> str:
    """Discord's relative timestamp for ``deadline`` ("in 2 minutes", counting down live)."""
    return f"<t:{math.ceil(deadline.timestamp())}:R>"


__all__ = ["CHOICES", "MAX_TIMEOUTS", "SERVER_CHOICES", "TOURNAMENT",
           "TOURNAMENT_SECONDS", "ServerTimer", "TableTimer", "TimerChoice", "choice_of",
           "choice_words", "countdown", "deadline_after", "duration_words", "half_time",
           "has_tournament", "seconds_for", "table_timer", "timer_of", "timer_words",
           "tournament_titles", "with_deadline"]
