"""Whatever the next turn needs: a computer's move, or a person's turn timer.

After every save of a table (:mod:`bot.tables.changes`, :mod:`bot.tables.actions`),
:meth:`Scheduler.schedule` looks at the turn under way (:meth:`Session.turn`). A computer's
seat gets a task that plays its move (:mod:`bot.tables.computers`). A person's turn at a
timed table (:mod:`bot.tables.timers`) has its deadline saved with the change that gave
them the turn; a task of the session watches the bot's clock (injected, so tests move
it), reminds them at half time, then has a computer play the turn
(:meth:`Scheduler._watch`). The seat's count of timeouts in a row is kept on the seat, and
the third passes the seat to a computer in that same save
(:func:`bot.tables.actions.counted`). Every task belongs to the session and dies with it.

A table never hangs, in two layers:

- A task is for one turn (:class:`~bot.tables.session.Turn`: the game's moves, the seat
  to act, who holds it, a person's deadline), not for one version of the table. The
  version is the store's compare-and-set counter, bumped by every save, a new message id
  as much as a move; so a save that leaves the turn as it was (``/table``, a deleted
  table message posted anew, another seat changing hands) keeps the task running and the
  computer's pause, or the person's time and reminder, goes on where it was. This rather
  than retrying a dropped move against the new version: a retry would throw the thought
  away and start the pause again at every ``/table``.
- The retry stays, as a safety net for what no rule foresaw: a turn whose task ended
  without a move (a bug dropping it, a save that failed) is started again by the next
  save, or by the expiry sweep (:meth:`bot.tables.expiry.Sweeper.restart_lost_turns`)
  when nothing else happens there, and logged once with the table's id.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable

from bot.clock import Clock
from bot.models import TAKEOVER_LEVEL, StoredTable
from bot.settings import Settings
from bot.tables.computers import TOURNAMENT_LEVEL, ComputerTurns
from bot.tables.session import Session, TableListener, Turn
from bot.tables.timers import TableTimer, deadline_after, half_time, timer_of

log = logging.getLogger(__name__)


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
        """After a restart or a reload: the turn under way (if a game is) starts afresh."""
        session.scheduled = None
        self.schedule(session)

    def schedule(self, session: Session) -> bool:
        """Make sure the turn under way has what it needs (a computer's move, a person's
        timer): kept if its task runs for this very turn, else started; whether it was lost.

        Lost: this turn had its task and the task ended without the turn moving on, which
        is a bug somewhere; it is logged (once per turn) and the task started again.
        Called after every save, and by the expiry sweep.
        """
        turn = self.needs(session)
        task = session.turn_task
        own = task is asyncio.current_task()  # the turn's own task, about to end
        if turn is not None and turn == session.scheduled and task is not None \
                and not task.done() and not own:
            return False  # the computer's pause, or the person's time, goes on
        if task is not None and not own:
            task.cancel()
        lost = turn is not None and turn == session.scheduled
        if lost:
            self._report_lost(session)
        session.scheduled = turn
        session.turn_task = None if turn is None else self._start(session, turn)
        return lost

    def _report_lost(self, session: Session) -> None:
        """Log, once per turn, that the turn under way had lost its move or its timer."""
        turn = session.scheduled
        if turn is None or session.lost == turn:
            return
        session.lost = turn
        what = "computer move" if turn.holder is None else "turn timer"
        log.warning("table %s: the turn of %s had no %s pending though the game had not "
                    "moved on; started it again", session.id, session.seats[turn.seat].name,
                    what)

    def needs(self, session: Session) -> Turn | None:
        """The turn under way if it needs a task: a computer's, or a timed person's."""
        turn = session.turn()
        if turn is None or turn.holder is None:
            return turn
        timed = turn.deadline is not None or self.timer(session.table).on
        return turn if timed else None

    def _start(self, session: Session, turn: Turn) -> asyncio.Task[None]:
        """The task that plays ``turn``: the computer's move, or the person's timer."""
        if turn.holder is None:
            return session.spawn(
                self.computers.play(session, turn, self.settings.computer_delay),
                name=f"computer-{turn.seat}")
        timer = self.timer(session.table)
        deadline = turn.deadline or deadline_after(self.clock(), timer)  # (old tables: None)
        assert deadline is not None  # needs(): a deadline, or a timer that gives one
        return session.spawn(self._watch(session, turn, deadline, timer),
                             name=f"timer-{turn.seat}")

    async def _watch(self, session: Session, turn: Turn, deadline: dt.datetime,
                     timer: TableTimer) -> None:
        """Watch the clock for ``turn``, a person's: remind at half time, then play it.

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
                self._remind(session, turn)
                continue
            target = deadline if reminded else half
            await asyncio.sleep(min((target - moment).total_seconds(),
                                    self.settings.timer_check_seconds))
        level = TOURNAMENT_LEVEL if timer.tournament else TAKEOVER_LEVEL
        await self.computers.play(session, turn, 0, timed_out=True, level=level)

    def _remind(self, session: Session, turn: Turn) -> None:
        """Tell the listener to remind ``turn``'s person, if it is still that turn."""
        listener = self._listener()
        if listener is not None and turn.holder is not None and session.turn() == turn:
            listener.turn_reminder(session, turn.holder)


__all__ = ["Scheduler"]
