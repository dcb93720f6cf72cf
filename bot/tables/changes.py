"""Every change to a table other than an action: saved first, then made the session's.

Lobby changes, seat changes in play and closings are made to a copy of the table, saved,
and only then swapped in (:meth:`Changes.save`): a failed save leaves the session as the
database has it. Each save is the next version; a store that holds a newer one (another
process moved first) refuses it (:class:`~bot.store.api.StaleTable`), and the session is
reloaded from the store (:meth:`bot.tables.restart.Restart.reload`) rather than
overwriting that newer move. Actions take their own path (:mod:`bot.tables.actions`).

Every save of a table in play is followed by the scheduler's look at its turn
(:meth:`bot.tables.scheduler.Scheduler.schedule`): a save that changed the turn (a game
started, the seat to act changing hands) gets the task the new turn needs, and one that
did not (a new message id, another seat changing hands) keeps the computer's move or the
turn timer running, or starts it again if it was lost.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.logs import about_table
from bot.models import StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import StaleTable, Store
from bot.tables.context import Clock, utc_now
from bot.tables.errors import MOVED_ELSEWHERE, TableMoved
from bot.tables.events import TableEvents
from bot.tables.registry import Registry
from bot.tables.session import Session
from bot.tables.timers import with_deadline
from games.core.game import Game

log = logging.getLogger(__name__)


def copied(table: StoredTable) -> StoredTable:
    """A copy of ``table`` to change (seats and record included) without touching it."""
    return table.model_copy(deep=True)


class Changes:
    """Saves a table's changes (other than actions) and closes tables."""

    def __init__(self, store: Store, settings: Settings, registry: Registry, *, clock: Clock,
                 events: TableEvents) -> None:
        self.store = store
        self.settings = settings
        self.registry = registry
        self.clock = clock
        self.events = events  # what follows a save: the next turn, the table shown, ...

    async def save(self, session: Session, table: StoredTable, *,
                   game: Game[Any] | None = None, note: str | None = None,
                   notify: bool = True) -> None:
        """Save ``table`` (a changed copy of the session's), then make it the session's.

        Nothing of ``session`` changes before the store has the table, so a save
        that raises leaves it as the database has it. ``game`` (a game just
        started) and ``note`` (a line for the table's recent events) are taken
        in with it. The table is saved as the session's next version; if the
        store has a newer one, the session is reloaded and :class:`TableMoved`
        raised (nothing of this change was applied). Once saved, the turn under way
        gets what it needs (:mod:`bot.tables.scheduler`).
        """
        table.updated_at = utc_now()
        table.version = session.table.version + 1
        try:
            await self.store.save_head(table)
        except StaleTable as exc:
            await self.events.reload(session, exc)
            raise TableMoved(MOVED_ELSEWHERE) from None
        session.table = table
        if game is not None:
            session.game = game
        if note is not None:
            session.recent.append(note)
        self.events.next_turn(session)
        if notify:
            self.events.changed(session)

    async def seat_changed(self, session: Session, table: StoredTable, note: str) -> None:
        """Save ``table`` (``session``'s with a seat changed): a new host, or closed if empty.

        The host role passes to the first person seated who may host one more table
        (``MAX_TABLES_PER_HOST``): leaving never makes anyone host more than the limit.
        If nobody may, a lobby closes (nobody could start it) and a game keeps its host.
        """
        humans = [seat.user_id for seat in table.seats if seat.user_id is not None]
        if not humans:
            await self.close(session, note + "; nobody is left", table=table)
            return
        playing = session.status is TableStatus.PLAYING
        if table.host_id not in humans:
            heir = next((h for h in humans if self.registry.may_host(h)), None)
            if heir is None and not playing:
                await self.close(session, note + "; nobody left here may host another table",
                                 table=table)
                return
            table.host_id = heir if heir is not None else table.host_id
        if playing:
            assert session.game is not None
            table = with_deadline(table, session.game, self.clock(), self.settings.turn_timeout,
                                  before=session.table)
        await self.save(session, table, note=note if playing else None)

    async def close(self, session: Session, note: str, *, table: StoredTable | None = None,
                    closed_by: str | None = None) -> None:
        """Save the table (``table`` if given, else the session's) cancelled, then let it go."""
        table = copied(session.table if table is None else table)
        table.status = TableStatus.CANCELLED
        await self.save(session, table, note=note, notify=False)
        if closed_by is not None:
            session.closed_by = closed_by
        session.cancel_tasks()
        self.registry.release(session)
        self.events.changed(session)

    async def close_gone(self, session: Session,
                         note: str = "the table's channel or message is gone") -> None:
        """The table's place is gone (channel, thread or server): close it as cancelled.

        Unrated, its record kept; a closed table is never resumed.
        """
        with about_table(session.id):
            async with session.lock:
                if session.is_open:
                    log.info("table %s closed: %s", session.id, note)
                    await self.close(session, note)

    async def set_message(self, session: Session, message_id: int) -> int | None:
        """Remember the public lobby/table message of ``session``; the one it replaces.

        Unlike other changes, the id is known in memory while it is being saved:
        the message already exists on Discord whatever the database says, and
        whoever renders the table meanwhile should edit that message, not post
        another. A save that fails puts the old id back, so memory and database
        still agree. The save is a new version of the table but not of its game: a
        computer thinking meanwhile, or a person's running timer, goes on
        (:class:`~bot.tables.session.Turn`). Whoever posted the new message takes down
        the one returned (exactly the one it replaced, even when two posts race), so a
        table has one live message.
        """
        async with session.lock:
            old = session.table.message_id
            session.table.message_id = message_id
            try:
                await self.save(session, session.table.model_copy(), notify=False)
            except BaseException:
                session.table.message_id = old
                raise
            return old if old != message_id else None


__all__ = ["Changes", "copied"]
