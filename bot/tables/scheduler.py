"""Whatever the next turn needs: a computer's move, or a person's turn timer.

After every change to a started table, :meth:`Scheduler.schedule` looks at the seat to
act. A computer's seat gets a task that plays its move (:mod:`bot.tables.computers`). A
person's turn at a timed table (:mod:`bot.tables.timers`) has its deadline saved with the
change that gave them the turn; a task of the session watches the bot's clock (injected,
so tests move it), reminds them at half time, then has a computer play the turn
(:meth:`Scheduler._watch`). The seat's count of timeouts in a row is kept on the seat, and
the third passes the seat to a computer in that same save
(:func:`bot.tables.actions.counted`). Every task belongs to the session and dies with it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable

from bot.models import StoredTable, TableStatus
from bot.settings import Settings
from bot.tables.computers import TAKEOVER_LEVEL, TOURNAMENT_LEVEL, ComputerTurns
from bot.tables.context import Clock
from bot.tables.session import Session, TableListener
from bot.tables.timers import TableTimer, deadline_after, half_time, timer_of


class Scheduler:
    """Starts the task each table's next turn needs, and runs its turn timer."""

    def __init__(self, settings: Settings, *, clock: Clock, computers: ComputerTurns,
                 listener: Callable[[], TableListener | None]) -> None:
        self.settings = settings
        self.clock = clock  # turn deadlines are read on it (tests move it)
        self.computers = computers
        self._listener = listener

    def timer(self, table: StoredTable) -> TableTimer:
        """The turn timer of ``table``."""
        return timer_of(table, self.settings.turn_timeout)

    def resume(self, session: Session) -> None:
        """After a restart or a reload: schedule the turn under way, if a game is."""
        if session.table.status is TableStatus.PLAYING:
            self.schedule(session)

    def schedule(self, session: Session) -> None:
        """Start whatever the next turn needs: a computer's move or a person's timer."""
        if session.turn_task is not None and session.turn_task is not asyncio.current_task():
            session.turn_task.cancel()
        session.turn_task = None
        seat = session.to_act()
        if seat is None:
            return
        version = session.version
        if session.seats[seat].is_computer:
            session.turn_task = session.spawn(
                self.computers.play(session, seat, version, self.settings.computer_delay),
                name=f"computer-{seat}")
            return
        timer = self.timer(session.table)
        deadline = session.table.deadline
        if deadline is None and timer.on:  # a table saved before it had deadlines
            deadline = deadline_after(self.clock(), timer)
        if deadline is not None:
            session.turn_task = session.spawn(
                self._watch(session, seat, version, deadline, timer), name=f"timer-{seat}")

    async def _watch(self, session: Session, seat: int, version: int, deadline: dt.datetime,
                     timer: TableTimer) -> None:
        """Watch the clock for ``seat``'s turn at ``version``: remind at half time, then play.

        The clock is read at least every ``TIMER_CHECK_SECONDS`` rather than slept on
        once, so a clock that jumps (a test's, or the machine's) is noticed within that
        time; a deadline already past when the task starts (a restart) fires at once.
        The tournament rule's 10 seconds get no reminder: the turn's ping is one.
        """
        reminded = timer.tournament
        half = half_time(deadline, timer)
        while (moment := self.clock()) < deadline:
            if not reminded and moment >= half:
                reminded = True
                self._remind(session, seat, version)
                continue
            target = deadline if reminded else half
            await asyncio.sleep(min((target - moment).total_seconds(),
                                    self.settings.timer_check_seconds))
        level = TOURNAMENT_LEVEL if timer.tournament else TAKEOVER_LEVEL
        await self.computers.play(session, seat, version, 0, timed_out=True, level=level)

    def _remind(self, session: Session, seat: int, version: int) -> None:
        """Tell the listener to remind ``seat``'s person, if it is still their turn."""
        user_id = session.seats[seat].user_id
        listener = self._listener()
        if listener is not None and user_id is not None and session.version == version \
                and session.to_act() == seat:
            listener.turn_reminder(session, user_id)


__all__ = ["Scheduler"]
