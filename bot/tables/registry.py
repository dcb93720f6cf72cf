"""Every table this process holds, by table id and by channel, and how many one may open.

A channel or thread has one open table at a time. A closed table stays known a while
(:data:`KEEP_CLOSED`) so its old buttons say why they no longer work; a finished one is
let go at once and its buttons are answered from the store (:meth:`Registry.find`,
:meth:`Registry.stored`) and from what its ``Details`` showed when it closed
(:meth:`Registry.details`), so a finished game keeps little in memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from collections import OrderedDict
from collections.abc import Callable

from bot.logs import working_on
from bot.models import StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import Store
from bot.tables.checks import require_shard
from bot.tables.errors import (
    NO_TABLE_HERE,
    NOT_STARTED,
    UNKNOWN_TABLE,
    NoSuchTable,
    TableClosed,
    TableError,
)
from bot.tables.session import Session
from bot.tables.snapshots import TableSnapshot, table_of
from games.core.words import plural

KEEP_CLOSED = 500
"""How many closed tables stay in memory to answer their old buttons with a reason."""

PRUNED = "this game is over, or that button is not from a table I know"
"""The answer to a button whose table the database no longer has (pruned, or never ours)."""

UNRESUMABLE_NOTE = "this table could not be resumed after a restart, so it was closed"


def refuse_unresumable(table: StoredTable) -> None:
    """:class:`TableClosed` for a table closed because a restart could not rebuild it."""
    if table.unresumable is not None:
        raise TableClosed(f"{UNRESUMABLE_NOTE} (its record is kept; the bot's log names "
                          f"table {table.id})")


class Registry:
    """The tables of this process, found by id or by channel."""

    def __init__(self, store: Store, settings: Settings, *,
                 replayed: Callable[[StoredTable], Session]) -> None:
        self.store = store
        self.settings = settings
        self._replayed = replayed  # a closed table rebuilt from its record, to look at
        self._by_id: dict[str, Session] = {}
        self._by_channel: dict[int, Session] = {}
        # What the Details of the latest closed tables show, taken once (see details()).
        self._seen: OrderedDict[str, TableSnapshot] = OrderedDict()
        self._replays: dict[str, asyncio.Future[TableSnapshot]] = {}

    # --- lookup -------------------------------------------------------------------------

    def get(self, table_id: str) -> Session:
        """The table ``table_id``; :class:`NoSuchTable` if this bot does not know it."""
        session = self._by_id.get(table_id)
        if session is None:
            raise NoSuchTable(UNKNOWN_TABLE)
        return session

    async def find(self, table_id: str) -> Session:
        """Like :meth:`get`, but a table closed before a restart still says why it is closed.

        The rest of the caller's task is about this table: its log lines name it.
        """
        working_on(table_id)
        session = self._by_id.get(table_id)
        if session is not None:
            refuse_unresumable(session.table)
            return session
        stored = await self.store.get_table(table_id)
        if stored is not None:
            refuse_unresumable(stored)
            if stored.status in (TableStatus.LOBBY, TableStatus.PLAYING):
                require_shard(self.settings.shards, stored.guild_id)
        if stored is not None and stored.status is TableStatus.FINISHED:
            raise TableClosed("this game is over")
        if stored is not None and stored.status is TableStatus.CANCELLED:
            raise TableClosed("this table was closed")
        session = self._by_id.get(table_id)  # opened while the store answered, if at all
        if session is None:
            # Tables pruned after TABLE_RETENTION_DAYS leave nothing behind but results.
            raise NoSuchTable(PRUNED)
        return session

    async def stored(self, table_id: str) -> StoredTable:
        """The table ``table_id`` as it stands, open or closed, without rebuilding its game
        (``Rules`` needs no more, and a click is checked against where it came from).

        From memory, else from the store; a table the database dropped
        (``TABLE_RETENTION_DAYS``), or an open one not found, answers as :meth:`find`.
        """
        working_on(table_id)
        session = self._by_id.get(table_id)
        if session is not None:
            return session.table
        stored = await self.store.get_table(table_id)
        if stored is None or stored.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
            return (await self.find(table_id)).table
        refuse_unresumable(stored)
        return stored

    async def details(self, table_id: str) -> TableSnapshot:
        """What ``Details`` shows of the game at ``table_id``, open or closed; TableError
        when it has not started or is gone.

        An open table's is taken now. A closed table's was taken once, when it closed
        (:meth:`release`), and is kept for the last :data:`KEEP_CLOSED` closed tables; an
        older one (or one closed before a restart) is rebuilt once by replaying its stored
        record in a thread, never on the event loop, however many people click at once,
        and then kept in turn. So a finished game keeps only what its Details show, and no
        click replays a record on the loop.
        """
        working_on(table_id)
        session = self._by_id.get(table_id)
        if session is not None and (session.is_open or table_id not in self._seen):
            if session.game is None:
                raise TableError(NOT_STARTED)
            return table_of(session)
        if table_id in self._seen:
            self._seen.move_to_end(table_id)
            return self._seen[table_id]
        pending = self._replays.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._look_again(table_id))
            self._replays[table_id] = pending
            pending.add_done_callback(lambda _: self._replays.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _look_again(self, table_id: str) -> TableSnapshot:
        """The Details of the closed table ``table_id``, its stored record replayed in a
        worker thread, then kept."""
        stored = await self.stored(table_id)
        if stored.record is None:
            raise TableError(NOT_STARTED)
        snapshot = await asyncio.to_thread(self._look_at, stored)
        self._keep_seen(table_id, snapshot)
        return snapshot

    def _look_at(self, table: StoredTable) -> TableSnapshot:
        """``table``'s Details, its game replayed from the record (in a worker thread)."""
        session = self._replayed(table)
        if session.game is None:
            raise TableError(NOT_STARTED)
        return table_of(session)

    def _keep_seen(self, table_id: str, snapshot: TableSnapshot) -> None:
        # Details never show the record (the store keeps it): a kept table holds only
        # what its Details show, a few KB, not its whole game.
        self._seen[table_id] = dataclasses.replace(snapshot, record=None)
        self._seen.move_to_end(table_id)
        while len(self._seen) > KEEP_CLOSED:
            self._seen.popitem(last=False)

    def in_channel(self, channel_id: int) -> Session | None:
        """The open table of this channel or thread, if any."""
        session = self._by_channel.get(channel_id)
        if session is None or not session.is_open:
            return None
        working_on(session.id)  # the caller's next lines are about this table
        return session

    def here(self, channel_id: int) -> Session:
        """The open table of this channel or thread; :class:`TableError` if there is none."""
        session = self.in_channel(channel_id)
        if session is None:
            raise TableError(NO_TABLE_HERE)
        return session

    def sessions(self) -> list[Session]:
        return list(self._by_id.values())

    def open_tables(self, *, guild_id: int | None = None, host_id: int | None = None
                    ) -> list[Session]:
        """The open tables (lobbies and games), of one server or one host if given."""
        return [s for s in self._by_id.values() if s.is_open
                and (guild_id is None or s.table.guild_id == guild_id)
                and (host_id is None or s.table.host_id == host_id)]

    async def finished_table(self, table_id: str) -> StoredTable:
        """The finished table ``table_id``, from memory or (after a restart) the store.

        :class:`NoSuchTable` for an id this bot never made, :class:`TableError` for a
        table that did not finish with a result (still playing, or ended early).
        """
        session = self._by_id.get(table_id)
        table = session.table if session is not None else await self.store.get_table(table_id)
        if table is None:
            raise NoSuchTable(UNKNOWN_TABLE)
        if table.status is not TableStatus.FINISHED or table.record is None:
            raise TableError("that game did not finish with a result, so there is nothing to "
                             "play again or to download")
        return table

    def may_host(self, user_id: int) -> bool:
        """Whether ``user_id`` hosts fewer open tables than one person may."""
        return len(self.open_tables(host_id=user_id)) < self.settings.max_tables_per_host

    def check_limits(self, guild_id: int | None, host_id: int) -> None:
        """TableError when the host, or the server, already has as many tables as allowed."""
        hosted = len(self.open_tables(host_id=host_id))
        if hosted >= self.settings.max_tables_per_host:
            raise TableError(f"you already host {plural(hosted, 'open table')}, the most one "
                             "person may; finish or /end one first")
        if guild_id is not None:
            here = len(self.open_tables(guild_id=guild_id))
            if here >= self.settings.max_tables_per_server:
                raise TableError(f"this server already has {plural(here, 'open table')}, the most "
                                 "it may have at once; try again when one has finished")

    # --- holding and letting go --------------------------------------------------------

    def register(self, session: Session) -> None:
        self._by_id[session.id] = session
        self._by_channel[session.channel_id] = session
        closed = [s for s in self._by_id.values() if not s.is_open]
        if len(closed) > KEEP_CLOSED:
            closed.sort(key=lambda s: s.table.updated_at)
            for old in closed[: len(closed) - KEEP_CLOSED]:
                del self._by_id[old.id]

    def release(self, session: Session) -> None:
        """Let a table the store has as finished or cancelled go from memory.

        Its old buttons are answered from the store (:meth:`find`, :meth:`stored`,
        :meth:`finished_table`) and its Details from what it shows now, taken here once
        (:meth:`details`): a finished table keeps nothing else in memory, however long its
        game was. Whoever still holds the session (the publisher posting its end, a click
        under way) keeps it until done.
        """
        if session.game is not None:
            self._keep_seen(session.id, table_of(session))
        self.forget(session)
        if self._by_id.get(session.id) is session:
            del self._by_id[session.id]

    def forget(self, session: Session) -> None:
        """Free the channel; the closed table stays known a while so its buttons say so."""
        if self._by_channel.get(session.channel_id) is session:
            del self._by_channel[session.channel_id]

    def drop_closed_before(self, before: dt.datetime) -> None:
        """Let go of the closed tables last changed before ``before`` (pruned from the store)."""
        for session in [s for s in self._by_id.values()
                        if not s.is_open and s.table.updated_at < before]:
            del self._by_id[session.id]


__all__ = ["KEEP_CLOSED", "PRUNED", "UNRESUMABLE_NOTE", "Registry", "refuse_unresumable"]
