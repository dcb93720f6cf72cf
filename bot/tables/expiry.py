"""When an open table has been left alone too long, decided from stored timestamps only.

A lobby nobody touched for ``LOBBY_IDLE_MINUTES`` closes; a game in which no person
acted for ``GAME_IDLE_HOURS`` ends unrated (computers' moves do not count). Because
the decision reads only what the store keeps (``updated_at`` of a lobby, the last
person's action of a game), it is the same after a restart: an expired table is
closed instead of resumed.

:class:`Sweeper` looks for such tables every ``EXPIRY_CHECK_SECONDS`` while the bot runs,
and drops from the database the tables closed more than ``TABLE_RETENTION_DAYS`` ago.
On the same round it is the safety net of every game in play: a turn that lost its
computer's move or its timer (:mod:`bot.tables.scheduler`) is started again, so a table
where nothing else happens cannot hang.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable

from bot.clock import Clock
from bot.logs import about_table
from bot.models import StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import Store
from bot.tables.changes import Changes
from bot.tables.registry import Registry
from bot.tables.session import Session
from games.core.words import plural

log = logging.getLogger(__name__)
SWEEP_SECONDS = 60.0
"""How often open tables are checked for expiry."""


def last_person_activity(table: StoredTable) -> dt.datetime:
    """When a person last did something at ``table`` (its opening, at the latest)."""
    if table.status is TableStatus.LOBBY:
        return table.updated_at  # every lobby change is a person's
    return table.last_person_at or table.created_at


def expiry_reason(table: StoredTable, now: dt.datetime, settings: Settings) -> str | None:
    """Why ``table`` expires at ``now``, in words for the table; None while it lives."""
    idle = now - last_person_activity(table)
    if table.status is TableStatus.LOBBY:
        limit = dt.timedelta(minutes=settings.lobby_idle_minutes)
        if idle >= limit:
            return (f"the lobby closed after {plural(settings.lobby_idle_minutes, 'minute')} "
                    "without anyone joining or starting")
    elif table.status is TableStatus.PLAYING:
        limit = dt.timedelta(hours=settings.game_idle_hours)
        if idle >= limit:
            return (f"the game ended unrated after {plural(settings.game_idle_hours, 'hour')} "
                    "without a move by a person")
    return None


class Sweeper:
    """Closes the tables left alone too long, prunes the long closed ones, and restarts
    the turns that lost their move."""

    def __init__(self, store: Store, settings: Settings, registry: Registry, changes: Changes,
                 *, clock: Clock, turns: Callable[[Session], bool]) -> None:
        self.store = store
        self.settings = settings
        self.registry = registry
        self.changes = changes
        self.clock = clock
        self._turns = turns  # the scheduler's look at a turn: whether it had been lost
        self._task: asyncio.Task[None] | None = None

    def start(self, every: float = SWEEP_SECONDS) -> None:
        """Look for expired tables and lost turns every ``every`` seconds until :meth:`stop`."""
        async def sweep() -> None:
            while True:
                await asyncio.sleep(every)
                await self.sweep_once()

        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(sweep(), name="expiry")

    async def sweep_once(self) -> None:
        """One round: expired tables, long closed ones, then lost turns. A store that fails
        the first steps leaves the last to run: it needs no store."""
        try:
            await self.expire_idle()
            await self.prune_closed()
        except Exception:
            log.exception("looking for expired tables failed; trying again later")
        try:
            self.restart_lost_turns()
        except Exception:
            log.exception("looking for lost turns failed; trying again later")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def expire_idle(self, moment: dt.datetime | None = None) -> int:
        """Close every open table left alone too long (``moment``: now); how many."""
        moment = moment or self.clock()
        closed = 0
        for session in self.registry.open_tables():
            reason = expiry_reason(session.table, moment, self.settings)
            if reason is None:
                continue
            with about_table(session.id):
                async with session.lock:
                    if session.is_open and expiry_reason(session.table, moment,
                                                         self.settings) is not None:
                        log.info("table %s expired: %s", session.id, reason)
                        await self.changes.close(session, reason)
                        closed += 1
        return closed

    def restart_lost_turns(self) -> int:
        """Start again every turn in play whose computer's move or timer was lost; how many.

        A table being changed right now (its lock held) is left to that change, whose
        save looks at the turn anyway.
        """
        lost = 0
        for session in self.registry.open_tables():
            if session.in_play and not session.lock.locked():
                with about_table(session.id):
                    lost += self._turns(session)
        return lost

    async def prune_closed(self, moment: dt.datetime | None = None) -> int:
        """Drop the tables closed more than ``TABLE_RETENTION_DAYS`` before ``moment`` (now)
        from the database and from memory; how many the database dropped.

        Their old buttons then say the game is over; results stay.
        """
        moment = moment or self.clock()
        before = moment - dt.timedelta(days=self.settings.table_retention_days)
        pruned = await self.store.prune_tables(before)
        self.registry.drop_closed_before(before)
        if pruned:
            log.info("pruned %d finished or cancelled tables last changed before %s",
                     pruned, before.isoformat(timespec="seconds"))
        return pruned


__all__ = ["SWEEP_SECONDS", "Sweeper", "expiry_reason", "last_person_activity"]
