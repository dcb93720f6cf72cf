"""One table in one channel or thread: the stored lobby, then the live game.

A :class:`Session` is what the table service keeps in memory per table. Its
``lock`` serialises every change (clicks, commands, computer turns, timers), so
a double click applies once. Its tasks (computer seats, turn timers) belong to
it and die with it. The Discord layer is told of its changes through a
:class:`TableListener`.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot.logs import working_on
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.results import Ending
from games.core.game import Game

if TYPE_CHECKING:
    from bot.tables.snapshots import Seen

RECENT_EVENTS = 30  # the table shows the last few; Details shows them all


class TableListener(Protocol):
    """The Discord layer's side: told when a table's public message should change."""

    def table_changed(self, session: Session) -> None:
        """Re-render the table (must not block; coalescing is the listener's job)."""

    def turn_reminder(self, session: Session, user_id: int) -> None:
        """Remind ``user_id`` (alone) that half their time is gone (must not block)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a game in play: what a computer's move or a person's turn timer is for.

    Made of the game alone: the moves made so far, the seat to act, who holds that seat
    and, for a person, when their time is up. Never of the table's version, which counts
    every save (a new message id, a seat's name, the timer's bookkeeping) because the
    store compares and sets on it: a save that leaves the game where it was leaves the
    turn equal, so it never makes a computer's move moot or stops a turn timer.
    """

    moves: int
    seat: int
    holder: int | None  # the seat's person; None while a computer holds it
    deadline: dt.datetime | None  # a person's, when their turn is timed


@dataclass(eq=False)
class Session:
    """A table held in memory: its stored form, its game once started, its lock and tasks."""

    table: StoredTable
    game: Game[Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    turn_task: asyncio.Task[None] | None = None
    # The turn ``turn_task`` was started for, and the last turn found without one
    # (bot.tables.scheduler): a lost move is logged once, however often it is looked at.
    scheduled: Turn | None = None
    lost: Turn | None = None
    closed_by: str | None = None
    # Set when the game has just finished, until the result message is posted.
    ending: Ending | None = None
    # The people watching the game (``Watch``): in memory only; a watcher's next click after
    # a restart counts them again. Never a seated person.
    watchers: set[int] = field(default_factory=set)
    # What every reader of ``game`` as it is shares (bot.tables.snapshots.Seen): its zones
    # and its public view, which the table message and every menu show.
    public: Seen | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def channel_id(self) -> int:
        return self.table.channel_id

    @property
    def status(self) -> TableStatus:
        return self.table.status

    @property
    def is_open(self) -> bool:
        return self.table.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    @property
    def started(self) -> bool:
        """Whether its game has been dealt (it may be over since, or the table ended)."""
        return self.game is not None

    @property
    def in_play(self) -> bool:
        """Whether a game is under way here: started, not over, the table not ended."""
        return self.game is not None and not self.game.over and self.is_open

    @property
    def seats(self) -> list[Seat]:
        return self.table.seats

    @property
    def version(self) -> int:
        return self.table.version

    def menu_is_stale(self, seat: int, version: int) -> bool:
        """Whether ``seat``'s hand menu drawn at ``version`` may no longer be acted on.

        It may not once the seat has acted since it was drawn (so a double click
        applies once), nor if it claims a version the table never reached. Other
        seats' actions do not make it stale: the click is checked against the
        current state anyway.
        """
        return version < self.seats[seat].acted_version or version > self.version

    def names(self) -> list[str]:
        """Each seat's display name, by seat index."""
        return [seat.name for seat in self.table.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds, or None."""
        for index, seat in enumerate(self.table.seats):
            if seat.user_id == user_id:
                return index
        return None

    def humans(self) -> list[int]:
        """The user ids of the people seated, in seat order."""
        return [seat.user_id for seat in self.table.seats if seat.user_id is not None]

    def to_act(self) -> int | None:
        """The seat whose decision comes next, when a game is running."""
        if self.game is None or self.table.status is not TableStatus.PLAYING:
            return None
        return self.game.to_act

    def turn(self) -> Turn | None:
        """The turn under way, when a game is running and a seat is to act."""
        seat = self.to_act()
        if seat is None:
            return None
        assert self.game is not None
        held = self.seats[seat]
        return Turn(moves=len(self.game.history), seat=seat, holder=held.user_id,
                    deadline=None if held.is_computer else self.table.deadline)

    def spawn(self, coro: Coroutine[Any, Any, None], *, name: str) -> asyncio.Task[None]:
        """Run ``coro`` as a task owned by this session (cancelled when it closes), its log
        lines naming the table (:mod:`bot.logs`)."""
        context = contextvars.copy_context()
        context.run(working_on, self.id)
        task = asyncio.get_running_loop().create_task(coro, name=f"table-{self.id}-{name}",
                                                      context=context)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def cancel_tasks(self) -> None:
        """Cancel every task of this session (but not the one calling, if it is one)."""
        current = asyncio.current_task()
        for task in list(self.tasks):
            if task is not current:
                task.cancel()
        self.turn_task = None
        self.scheduled = None


# Ending is the results' (bot.tables.results): named here, beside the session that holds
# it, for whatever tells a game's end outside the service.
__all__ = ["RECENT_EVENTS", "Ending", "Session", "TableListener", "Turn"]
