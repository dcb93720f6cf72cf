"""Tables back in memory from the store: after a restart, and after a stale save.

A table in play is rebuilt by replaying its record (:func:`replayed`): the record holds
the deals played so far and the seed, and the rules core draws from the seed for given
deals too, so the deals still to come are the ones the uninterrupted game would have
had. A table that expired while the bot was away is closed instead; one that cannot be
rebuilt, whatever the exception, is closed alone as unresumable (its record kept) and
never stops the others.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from bot.clock import Clock
from bot.logs import about_table
from bot.models import StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import StaleTable, Store
from bot.tables.actions import Actions, describe
from bot.tables.changes import Changes
from bot.tables.events import TableEvents
from bot.tables.expiry import expiry_reason
from bot.tables.registry import UNRESUMABLE_NOTE, Registry
from bot.tables.scheduler import Scheduler
from bot.tables.session import Session
from bot.tables.timezones import game_context, usable_zone
from games.core.game import Game
from games.core.records import Record
from games.core.replay import load, split_action

log = logging.getLogger(__name__)


def replayed(table: StoredTable, settings: Settings, clock: Clock) -> Session:
    """``table`` as a session whose game (if it has a record) is its record replayed,
    with the log lines the replay gave."""
    session = Session(table)
    if table.record is None:
        return session
    record = Record.from_data(table.record)
    zone = usable_zone(table.timezone, settings, f"table {table.id}")
    game: Game[Any] = load(record, **game_context(record.game, settings, timezone=zone,
                                                  clock=clock))
    names = [seat.name for seat in table.seats]
    for line in record.actions:
        player, text = split_action(line, game.players)
        session.recent.extend(describe(game.apply(player, text), names))
    session.game = game
    return session


class Restart:
    """Rebuilds tables from the store and puts them back in play."""

    def __init__(self, store: Store, settings: Settings, registry: Registry, changes: Changes,
                 actions: Actions, scheduler: Scheduler, *, clock: Clock,
                 events: TableEvents) -> None:
        self.store = store
        self.settings = settings
        self.registry = registry
        self.changes = changes
        self.actions = actions
        self.scheduler = scheduler
        self.clock = clock
        self.events = events  # tells the Discord layer the table changed

    def rebuild(self, table: StoredTable) -> Session:
        """A stored table back in memory: a game in play is rebuilt by replaying its record."""
        if table.status is not TableStatus.PLAYING:
            return Session(table)
        if table.record is None:
            raise ValueError("a table in play without a record")
        return replayed(table, self.settings, self.clock)

    async def resume_all(self) -> list[Session]:
        """Rebuild every open table of this process's shards from the store by replaying
        its record.

        Tables of servers on other shards are another process's (:mod:`bot.shards`):
        left untouched, neither resumed nor expired, whatever their state.
        A table that expired while the bot was away (:mod:`bot.tables.expiry`) is closed
        instead.
        """
        resumed = []
        moment = self.clock()
        shards = self.settings.shards
        for table in await self.store.open_tables():
            if not shards.owns(table.guild_id):
                continue
            with about_table(table.id):
                session = await self._resume(table, moment)
            if session is not None:
                resumed.append(session)
        return resumed

    async def _resume(self, table: StoredTable, moment: dt.datetime) -> Session | None:
        """``table`` back in play, or None if it expired, ended just before a crash, or is
        broken."""
        try:
            reason = expiry_reason(table, moment, self.settings)
            if reason is not None:
                session = Session(table)
                self.registry.register(session)
                await self.changes.close(session, reason)
                return None
            session = self.rebuild(table)
            self.registry.register(session)
            if session.game is not None and session.game.over:
                await self.actions.finish(session)  # it ended just before a crash
                self.registry.forget(session)
                return None
            return session
        except Exception as exc:  # any bug in any game's replay: this table alone pays
            log.exception("table %s cannot be resumed; closing it", table.id)
            await self._close_unresumable(table, exc)
            return None

    async def _close_unresumable(self, table: StoredTable, exc: Exception) -> None:
        """Mark ``table`` unresumable and close it; its record stays in the store."""
        session = Session(table.model_copy(deep=True))
        session.table.unresumable = f"{type(exc).__name__}: {exc}"[:300]
        self.registry.register(session)
        try:
            await self.changes.close(session, UNRESUMABLE_NOTE)
        except Exception:  # the store failing too: still marked in memory, buttons say so
            log.exception("table %s could not be marked unresumable in the store", table.id)
            session.table.status = TableStatus.CANCELLED
            self.registry.forget(session)

    async def reload(self, session: Session, stale: StaleTable) -> None:
        """``session`` as the store has it, after a save found a newer version there.

        The caller holds the session's lock. The table is rebuilt from its stored record
        (as after a restart), its turn scheduled again and its message re-rendered; a
        table the store has closed (or lost) is let go.
        """
        log.warning("%s; reloading table %s from the store", stale, session.id)
        stored = await self.store.get_table(session.id)
        if stored is None:
            stored = session.table.model_copy(update={"status": TableStatus.CANCELLED})
        fresh = self.rebuild(stored)
        session.table, session.game = fresh.table, fresh.game
        session.recent.clear()
        session.recent.extend(fresh.recent)
        if session.is_open:
            self.scheduler.resume(session)
        else:
            session.cancel_tasks()
            self.registry.release(session)  # its buttons are answered from the store
        self.events.changed(session)


__all__ = ["Restart", "replayed"]
