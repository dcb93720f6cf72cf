"""The SQLite store: tables to resume after a restart, finished games, ratings.

:class:`SqliteStore` implements :class:`bot.store.api.Store` on one aiosqlite
connection per store; how a table is laid out is in :mod:`bot.store.rows`.

Durability and concurrency
    The database runs in WAL mode with ``synchronous=FULL``: every commit is
    fsynced before the awaiting coroutine resumes, so an acknowledged action
    survives a SIGKILL or a power loss. Writes are group-committed
    (:mod:`bot.store.sqlite.commit`): those queued while a transaction commits
    share the next ``BEGIN IMMEDIATE`` ... ``COMMIT`` and its one fsync, the
    actions among them as one ``executemany`` per statement, every other write in
    its own savepoint, so thirty-two tables acting at once cost one fsync and a few
    round trips, and a write that fails fails alone. ``busy_timeout`` covers
    another process (a backup, the sqlite3 shell) holding the lock briefly. A read
    runs between two transactions, in a snapshot of its own, so it never sees half
    a write.

Schema
    Numbered migrations in :mod:`bot.store.sqlite.migrations` (``0001_initial.sql``,
    ``0002_ratings.sql``, ...) are applied at open by :mod:`bot.store.schema`, in one
    transaction; the version reached is kept in ``PRAGMA user_version``.

Conventions
    Datetimes are stored as ISO-8601 strings in UTC with microseconds, so they
    sort as text; a naive datetime is taken to be UTC. In key columns a
    ``guild_id`` of ``None`` is stored as ``0`` (:data:`bot.store.rows.NO_GUILD`) so the
    UNIQUE and PRIMARY KEY constraints hold.

Ratings
    :mod:`bot.store.ratings` (shared with the PostgreSQL store) computes them; the
    rated players' board is kept in buckets (:func:`_board_page`).

Compare and set
    A table of version ``n`` is written only over the stored version ``n - 1``:
    a stale copy raises :class:`~bot.store.api.StaleTable`. At most one open table
    per channel is the partial unique index ``tables_open_channel``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, TypeVar, cast

import aiosqlite

from bot.models import DailyTry, GameResult, StoredTable, TableStatus, season_of
from bot.store.api import ChannelTaken, DailyTaken, StaleTable, StoreError
from bot.store.common import ColumnSettings, ResultQueries
from bot.store.ratings import Standing, humans, rate_game
from bot.store.rows import (
    CLOSED_STATUSES,
    DAILY_COLUMNS,
    OPEN_STATUSES,
    appended,
    daily_scores,
    daily_try,
    guild_key,
    head_doc,
    iso,
    rebuild,
    refusal,
    result_record,
    setting_upsert,
    split_record,
    standings_sql,
)
from bot.store.schema import load_migrations, migrate_sqlite
from bot.store.sqlite.commit import Batched, GroupCommit, GroupCommitError, Write

__all__ = ["GroupCommitError", "SqliteStore"]

BUSY_TIMEOUT_MS = 10_000
"""How long SQLite waits for another process's lock before raising "database is locked"."""

T = TypeVar("T")
Read = Callable[[aiosqlite.Connection], Awaitable[T]]

_INSERT_HEAD = """
INSERT INTO tables (id, guild_id, channel_id, message_id, host_id, game,
                    status, doc, created_at, updated_at, version)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
_INSERT_ACTION = "INSERT INTO table_actions (table_id, n, action) VALUES (?, ?, ?)"
# An action leaves ``status`` (and the columns that never change) out of SET: SQLite
# rewrites an index entry whenever its column is SET, even to the same value.
_APPEND_HEAD = """
UPDATE tables SET message_id = ?, host_id = ?, doc = ?, updated_at = ?, version = ?
WHERE id = ? AND version = ? AND status = 'playing'
  AND json_extract(doc, '$.record.actions') = ?
"""
_SAVE_HEAD = """
UPDATE tables SET message_id = ?, host_id = ?, status = ?, doc = ?, updated_at = ?, version = ?
WHERE id = ? AND version = ? AND COALESCE(json_extract(doc, '$.record.actions'), 0) = ?
"""
_FINISH_HEAD = """
UPDATE tables SET message_id = ?, host_id = ?, status = 'finished', doc = ?, updated_at = ?,
                  version = ?
WHERE id = ? AND version = ?
"""
_STORED = """
SELECT version, status, COALESCE(json_extract(doc, '$.record.actions'), 0)
FROM tables WHERE id = ?
"""
_HEADS = """
SELECT t.id, t.doc, t.status, r.record AS final
FROM tables AS t LEFT JOIN results AS r ON r.table_id = t.id
WHERE {where} ORDER BY t.created_at, t.id
"""
_ACTIONS = """
SELECT table_id, action FROM table_actions
WHERE table_id IN (SELECT t.id FROM tables AS t WHERE {where}) ORDER BY table_id, n
"""


async def _connect(location: str) -> aiosqlite.Connection:
    """Open the database with the store's settings and bring its schema up to date."""
    if location != ":memory:":
        Path(location).parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: no implicit transactions; the store issues BEGIN and
    # COMMIT itself so a transaction is exactly what it says.
    connecting = aiosqlite.connect(location, isolation_level=None, check_same_thread=False)
    # The connection's thread is a daemon, as the executor's thread of the store before it
    # was, so a process that ends without closing the store is not kept alive by it: every
    # acknowledged write was committed already, and SQLite recovers from the rest. (aiosqlite
    # 0.22 keeps its thread apart; before, the connection was the thread.)
    cast(threading.Thread, getattr(connecting, "_thread", connecting)).daemon = True
    db = await connecting
    try:
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await db.execute("PRAGMA foreign_keys = ON")
        [(mode,)] = await db.execute_fetchall("PRAGMA journal_mode = WAL")
        if location != ":memory:" and str(mode).lower() != "wal":
            raise StoreError(f"could not switch {location} to WAL mode (got {mode!r})")
        await db.execute("PRAGMA synchronous = FULL")
        await migrate_sqlite(db, load_migrations())
    except BaseException:
        await db.close()
        raise
    return db


class SqliteStore(ResultQueries, ColumnSettings):
    """The :class:`bot.store.api.Store` protocol on SQLite; create it with :meth:`open`."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        """Wrap an open, migrated connection; use :meth:`open` rather than this."""
        self._db = db
        self._lock = asyncio.Lock()
        self._commits = GroupCommit(db, self._lock)
        self.path = path
        self._closed = False

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        Sets WAL, ``synchronous=FULL``, foreign keys and the busy timeout, then
        applies the pending migrations in one transaction. Raises
        :class:`~bot.store.schema.SchemaTooNewError` for a database from a newer bot,
        and :class:`~bot.store.schema.MigrationError` if a migration fails (the
        database is left as it was).
        """
        location = str(path)
        try:
            db = await _connect(location)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open {location}: {exc}") from exc
        return cls(db, location)

    async def close(self) -> None:
        """Wait for queued writes, then close; further calls do nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._commits.drain()
        finally:
            await self._db.close()

    async def __aenter__(self) -> SqliteStore:
        """Use the store as ``async with await SqliteStore.open(path) as store``."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the store."""
        await self.close()

    @property
    def groups_committed(self) -> int:
        """Transactions committed so far (writes / groups is the group-commit factor)."""
        return self._commits.groups

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    async def _write(self, write: Write[T]) -> T:
        """Run ``write`` in the next group commit; durable when this returns."""
        self._check_open()
        return await self._commits.write(write)

    async def _read(self, work: Read[T], *, snapshot: bool = False) -> T:
        """Run ``work`` between two groups; with ``snapshot``, its several queries in one
        read transaction (another process may write between them otherwise)."""
        self._check_open()
        async with self._lock:
            if not snapshot:
                return await work(self._db)
            await self._db.execute("BEGIN")
            try:
                return await work(self._db)
            finally:
                await self._db.execute("COMMIT")

    # ----------------------------------------------------------------- tables

    async def create_table(self, table: StoredTable) -> None:
        """Insert a new table and the actions its record holds, durable when this returns."""
        await self._write(lambda db: _create(db, table))

    async def save_head(self, table: StoredTable) -> None:
        """Compare and set the table's head; its action rows stay as they are."""
        await self._write(lambda db: _save_head(db, table))

    async def append_action(self, table: StoredTable, action: str) -> None:
        """The table's new head and its one new action: two rows, however long the game.

        Actions queued together are written with one ``executemany`` per statement.
        """
        await self._write(_Append(table, action))

    async def open_tables(self) -> list[StoredTable]:
        """Every table in the lobby or playing, oldest first, to resume at start-up."""
        return await self._read(lambda db: _read_tables(db, "t.status IN (?, ?)",
                                                        OPEN_STATUSES), snapshot=True)

    async def get_table(self, table_id: str) -> StoredTable | None:
        """The table with this id in any status, or None."""
        found = await self._read(lambda db: _read_tables(db, "t.id = ?", (table_id,)),
                                 snapshot=True)
        return found[0] if found else None

    async def prune_tables(self, before: datetime) -> int:
        """Delete finished and cancelled tables older than ``before``; their action rows go
        with them (``ON DELETE CASCADE``), results and ratings stay. ``tables_status``
        finds them."""
        async def prune(db: aiosqlite.Connection) -> int:
            cursor = await db.execute(
                "DELETE FROM tables WHERE status IN (?, ?) AND updated_at < ?",
                (*CLOSED_STATUSES, iso(before)))
            return cursor.rowcount
        return await self._write(prune)

    # ----------------------------------------------------------------- results

    async def record_result(self, result: GameResult, *, table: StoredTable | None = None) -> bool:
        """Write a finished game, its players and the rating updates in one transaction.

        Also marks the table (if stored) finished, or, when ``table`` is given, saves
        it in the same transaction (so its final action and its result land
        together). The record is stored once, as the result's: ``table.record``
        must be ``result.record`` (ValueError otherwise). Exactly once per
        ``table_id``: the insert is ``ON CONFLICT DO NOTHING`` on the UNIQUE
        column, so a second call, concurrent or later, even from another
        process, writes nothing and returns False.
        """
        record = result_record(result, table)
        return await self._write(lambda db: _insert_result(db, result, record, table))

    # ----------------------------------------------------------------- queries

    async def _board_rows(self, key: tuple[int, str], offset: int, limit: int
                          ) -> tuple[Sequence[Any], int]:
        """A leaderboard page (see :func:`_board_page`), its queries in one snapshot."""
        return await self._read(lambda db: _board_page(db, key, offset, limit), snapshot=True)

    async def _season_rows(self, key: tuple[int, str], season: str, offset: int, limit: int
                           ) -> tuple[Sequence[Any], int]:
        """A page of a season's board and its size, in one snapshot."""
        async def page(db: aiosqlite.Connection) -> tuple[Sequence[Any], int]:
            [(total,)] = await db.execute_fetchall(
                "SELECT COUNT(*) FROM season_ratings INDEXED BY season_ratings_board "
                "WHERE guild_id = ? AND game = ? AND season = ? AND mu IS NOT NULL",
                (*key, season))
            rows = await db.execute_fetchall(_SEASON_PAGE, (*key, season, limit, offset))
            return list(rows), int(total)
        return await self._read(page, snapshot=True)

    async def _standing_rows(self, guild: int, user_id: int, before: str, limit: int
                             ) -> Sequence[Any]:
        return list(await self._read(lambda db: db.execute_fetchall(
            _STANDINGS, (guild, user_id, before, limit))))

    async def _stats_rows(self, guild: int, user_id: int) -> Sequence[Any]:
        return list(await self._read(lambda db: db.execute_fetchall(
            """
            SELECT game, games, wins, mu, sigma FROM ratings INDEXED BY ratings_player
            WHERE guild_id = ? AND user_id = ? AND games > 0
            ORDER BY games DESC, game
            """,
            (guild, user_id),
        )))

    async def _recent_rows(self, guild: int, user_id: int, limit: int) -> Sequence[Any]:
        return list(await self._read(lambda db: db.execute_fetchall(
            """
            SELECT r.table_id, r.game, r.finished_at, MIN(p.place) AS place, p.score,
                   (SELECT COUNT(*) FROM result_players AS q
                    WHERE q.result_id = r.id) AS players
            FROM (SELECT DISTINCT result_id, finished_at
                  FROM result_players INDEXED BY result_players_recent
                  WHERE user_id = ? AND guild_id = ?
                  ORDER BY finished_at DESC, result_id DESC
                  LIMIT ?) AS latest
            JOIN results AS r ON r.id = latest.result_id
            JOIN result_players AS p ON p.result_id = r.id AND p.user_id = ?
            GROUP BY r.id
            ORDER BY r.finished_at DESC, r.id DESC
            """,
            (user_id, guild, limit, user_id),
        )))

    # ----------------------------------------------------------------- daily deals

    async def daily_try(self, day: str, game: str, user_id: int) -> DailyTry | None:
        rows = list(await self._read(lambda db: db.execute_fetchall(
            f"SELECT {DAILY_COLUMNS} FROM daily_tries WHERE day = ? AND game = ? AND user_id = ?",
            (day, game, user_id))))
        return daily_try(rows[0]) if rows else None

    async def daily_board(self, guild_id: int | None, game: str, day: str) -> list[DailyTry]:
        rows = await self._read(lambda db: db.execute_fetchall(
            f"SELECT {DAILY_COLUMNS} FROM daily_tries INDEXED BY daily_tries_board "
            "WHERE guild_id = ? AND game = ? AND day = ? ORDER BY started_at, user_id",
            (guild_key(guild_id), game, day)))
        return [daily_try(row) for row in rows]

    async def daily_days(self, game: str, user_ids: Sequence[int], *, until: str,
                         limit: int = 400) -> dict[int, list[str]]:
        async def days(db: aiosqlite.Connection) -> dict[int, list[str]]:
            found: dict[int, list[str]] = {}
            for user_id in dict.fromkeys(user_ids):
                rows = await db.execute_fetchall(
                    "SELECT day FROM daily_tries INDEXED BY daily_tries_person "
                    "WHERE user_id = ? AND game = ? AND day <= ? AND score IS NOT NULL "
                    "ORDER BY day DESC LIMIT ?", (user_id, game, until, limit))
                found[user_id] = [row[0] for row in rows]
            return found
        return await self._read(days, snapshot=True)

    # ----------------------------------------------------------------- server settings

    async def _setting(self, guild_id: int, column: str) -> Any:
        """One column of the server's settings row (None without a row); ``column`` is ours."""
        rows = list(await self._read(lambda db: db.execute_fetchall(
            f"SELECT {column} FROM guild_settings WHERE guild_id = ?", (guild_id,))))
        return None if not rows else rows[0][0]

    async def _set(self, guild_id: int, column: str, value: object) -> None:
        """Upsert one column of the server's settings row."""
        sql = setting_upsert(column, ["?"] * 3)
        stamp = iso(datetime.now(UTC))
        await self._write(lambda db: db.execute(sql, (guild_id, value, stamp)))


# --------------------------------------------------------------------------- tables


def _compared(table: StoredTable) -> tuple[Any, ...]:
    """The end of a guarded UPDATE's parameters: the table's id and the version it replaces."""
    return table.id, table.version - 1


@dataclass(eq=False)
class _Append(Batched):
    """One action appended: the head (guarded: version, in play, the count of actions
    before it), then the action's row."""

    STATEMENTS: ClassVar[tuple[str, ...]] = (_APPEND_HEAD, _INSERT_ACTION)

    table: StoredTable
    action: str

    def __post_init__(self) -> None:
        doc, n, text = appended(self.table, self.action)  # ValueError before anything queues
        self.n = n
        self.params = ((self.table.message_id, self.table.host_id, doc,
                        iso(self.table.updated_at), self.table.version,
                        *_compared(self.table), n),
                       (self.table.id, n, text))

    async def __call__(self, db: aiosqlite.Connection) -> None:
        head, action = self.params
        if not (await db.execute(_APPEND_HEAD, head)).rowcount:
            raise refusal(self.table, await _stored(db, self.table.id), self.n, append=True)
        await db.execute(_INSERT_ACTION, action)


async def _stored(db: aiosqlite.Connection, table_id: str) -> Sequence[Any] | None:
    """The stored ``(version, status, count of actions)`` of a table, or None."""
    rows = list(await db.execute_fetchall(_STORED, (table_id,)))
    return rows[0] if rows else None


async def _create(db: aiosqlite.Connection, table: StoredTable) -> None:
    """Insert a new table's head and the actions its record holds."""
    doc, actions = split_record(table)
    try:
        await db.execute(_INSERT_HEAD, (
            table.id, table.guild_id, table.channel_id, table.message_id, table.host_id,
            table.game, table.status.value, doc, iso(table.created_at), iso(table.updated_at),
            table.version))
    except sqlite3.IntegrityError as error:
        # The id first (as PostgreSQL's ON CONFLICT (id) does): a copy of a stored table is
        # stale even when its channel is taken too, by itself.
        stored = await _stored(db, table.id)
        if stored is not None:
            raise StaleTable(table.id, table.version, stored[0]) from error
        if "tables.channel_id" in str(error):
            raise ChannelTaken(table.id, table.channel_id) from error
        raise
    if actions:
        await db.executemany(_INSERT_ACTION, [(table.id, n, a) for n, a in enumerate(actions)])
    if table.daily is not None and table.status.value in OPEN_STATUSES:
        await _claim_daily(db, table)


async def _claim_daily(db: aiosqlite.Connection, table: StoredTable) -> None:
    """A new daily table's try at its day's deal; :class:`DailyTaken` if its host has one."""
    assert table.daily is not None
    cursor = await db.execute(
        "INSERT INTO daily_tries (day, game, user_id, guild_id, table_id, started_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (day, game, user_id) DO NOTHING",
        (table.daily, table.game, table.host_id, guild_key(table.guild_id), table.id,
         iso(table.created_at)))
    if not cursor.rowcount:
        raise DailyTaken(table.daily, table.game, table.host_id)


async def _save_head(db: aiosqlite.Connection, table: StoredTable) -> None:
    """Compare and set the head of a table that gained no action."""
    doc, count = head_doc(table, record_in_results=table.status is TableStatus.FINISHED)
    try:
        cursor = await db.execute(_SAVE_HEAD, (
            table.message_id, table.host_id, table.status.value, doc, iso(table.updated_at),
            table.version, *_compared(table), count))
    except sqlite3.IntegrityError as error:
        if "tables.channel_id" not in str(error):
            raise
        raise ChannelTaken(table.id, table.channel_id) from error
    if not cursor.rowcount:
        raise refusal(table, await _stored(db, table.id), count)


async def _finish(db: aiosqlite.Connection, table: StoredTable) -> None:
    """The finished table's head, its record left to its result (compare and set, or a new
    table), and its action rows gone."""
    finished = table.model_copy(update={"status": TableStatus.FINISHED})
    doc, _ = head_doc(finished, record_in_results=True)
    cursor = await db.execute(_FINISH_HEAD, (
        table.message_id, table.host_id, doc, iso(table.updated_at), table.version,
        *_compared(table)))
    if not cursor.rowcount:
        await _create(db, finished.model_copy(update={"record": None}))
    await db.execute("DELETE FROM table_actions WHERE table_id = ?", (table.id,))


async def _read_tables(db: aiosqlite.Connection, where: str, params: tuple[Any, ...]
                       ) -> list[StoredTable]:
    """The tables matching ``where`` (SQL on alias ``t``), oldest first, records rebuilt
    (the caller holds a read transaction: heads and actions are one snapshot)."""
    heads = await db.execute_fetchall(_HEADS.format(where=where), params)
    actions: dict[str, list[str]] = {}
    for table_id, action in await db.execute_fetchall(_ACTIONS.format(where=where), params):
        actions.setdefault(table_id, []).append(action)
    return [rebuild(row["id"], row["doc"], row["status"], row["final"],
                    actions.get(row["id"], []))
            for row in heads]


# --------------------------------------------------------------------------- results

_BUCKET = "CAST((mu - 3.0 * sigma) * 20 AS INTEGER)"
_PAGE = f"""
SELECT user_id, mu, sigma, games, wins FROM ratings INDEXED BY ratings_board
WHERE guild_id = ? AND game = ? AND mu IS NOT NULL AND {_BUCKET} <= ?
ORDER BY {_BUCKET} DESC, mu - 3.0 * sigma DESC, wins DESC, games DESC, user_id
LIMIT ? OFFSET ?
"""


_SEASON_PAGE = """
SELECT user_id, mu, sigma, games, wins FROM season_ratings INDEXED BY season_ratings_board
WHERE guild_id = ? AND game = ? AND season = ? AND mu IS NOT NULL
ORDER BY mu - 3.0 * sigma DESC, wins DESC, games DESC, user_id
LIMIT ? OFFSET ?
"""
_STANDINGS = standings_sql(("?", "?", "?", "?"), hint="INDEXED BY season_ratings_player")


async def _board_page(db: aiosqlite.Connection, key: tuple[int, str], offset: int, limit: int
                      ) -> tuple[Sequence[Any], int]:
    """One leaderboard page and the board's size, without walking the players above it.

    ``board_buckets`` (kept by triggers) says how many players each slice of
    2 rating points holds: adding them up from the top finds the bucket the
    page starts in and the board's size; the page is then read from the
    ``ratings_board`` index from that bucket on, skipping only the players of
    the same bucket ranked above it.
    """
    buckets = await db.execute_fetchall(
        "SELECT bucket, players FROM board_buckets "
        "WHERE guild_id = ? AND game = ? AND players > 0 ORDER BY bucket DESC",
        key,
    )
    total = sum(row[1] for row in buckets)
    above = 0
    start = None
    for bucket, players in buckets:
        if above + players > offset:
            start = bucket
            break
        above += players
    rows = [] if start is None or limit == 0 else await db.execute_fetchall(
        _PAGE, (*key, start, limit, offset - above))
    return list(rows), total


async def _insert_result(db: aiosqlite.Connection, result: GameResult, record: str,
                         table: StoredTable | None) -> bool:
    """The body of :meth:`SqliteStore.record_result` (inside its transaction)."""
    guild = guild_key(result.guild_id)
    finished_at = iso(result.finished_at)
    cursor = await db.execute(
        """
        INSERT INTO results (table_id, guild_id, game, finished_at, record)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (table_id) DO NOTHING
        """,
        (result.table_id, guild, result.game, finished_at, record),
    )
    if cursor.rowcount == 0:
        return False  # already recorded; this write changes nothing
    await db.executemany(
        """
        INSERT INTO result_players (result_id, seat, user_id, name, score, place, winner,
                                    guild_id, finished_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
            (cursor.lastrowid, p.seat, p.user_id, p.name, p.score, p.place, int(p.winner),
             guild, finished_at)
            for p in result.players
        ],
    )
    if table is not None:
        await _finish(db, table)
    else:
        await db.execute(
            """
            UPDATE tables
            SET status = 'finished', updated_at = ?,
                doc = json_set(doc, '$.status', 'finished', '$.updated_at', ?,
                               '$.record', json('null'))
            WHERE id = ?
            """,
            (finished_at, finished_at, result.table_id),
        )
        await db.execute("DELETE FROM table_actions WHERE table_id = ?", (result.table_id,))
    if result.daily is not None:
        await db.executemany(
            "UPDATE daily_tries SET finished_at = ?, score = ?, place = ? "
            "WHERE day = ? AND game = ? AND user_id = ? AND table_id = ?",
            [(finished_at, score, place, result.daily, result.game, user_id, result.table_id)
             for user_id, score, place in daily_scores(result)])
    await _update_ratings(db, guild, result.game, season_of(result.finished_at),
                          humans(result.players), rate=result.rated)
    return True


async def _update_ratings(
    db: aiosqlite.Connection, guild: int, game: str, season: str, standings: list[Standing], *,
    rate: bool = True,
) -> None:
    """Count the game for every human and, with two or more of them, rate them: all time,
    and in the game's season.

    Runs inside :meth:`SqliteStore.record_result`'s transaction (SQLite has one
    writer at a time, so no lock is needed). The humans are rated among themselves
    by place (equal places are a tie); computer seats never enter the rating, they
    only shape the places. Without ``rate`` (a game played with hints) the game is
    only counted.
    """
    if not standings:
        return
    await _rate(db, "ratings", (guild, game), standings, rate=rate)
    await _rate(db, "season_ratings", (guild, game, season), standings, rate=rate)


_BOARD_KEYS = {"ratings": ("guild_id", "game"),
               "season_ratings": ("guild_id", "game", "season")}
"""The columns that name one board of each table of ratings (before ``user_id``)."""


async def _rate(db: aiosqlite.Connection, table: str, key: tuple[Any, ...],
                standings: list[Standing], *, rate: bool) -> None:
    """One board's rows of ``standings`` (``table`` is one of :data:`_BOARD_KEYS`, never
    input): read, rated (:func:`bot.store.ratings.rate_game`), written back counted."""
    columns = _BOARD_KEYS[table]
    where = " AND ".join(f"{column} = ?" for column in columns)
    marks = ",".join("?" * len(standings))
    rows = await db.execute_fetchall(
        f"SELECT user_id, mu, sigma FROM {table} WHERE {where} AND user_id IN ({marks})",
        (*key, *(h.user_id for h in standings)),
    )
    stored = {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
    new = rate_game(standings, stored, rate=rate)
    names = ", ".join(columns)
    await db.executemany(
        f"""
        INSERT INTO {table} ({names}, user_id, mu, sigma, games, wins)
        VALUES ({", ".join("?" * len(columns))}, ?, ?, ?, 1, ?)
        ON CONFLICT ({names}, user_id) DO UPDATE SET
            mu = excluded.mu,
            sigma = excluded.sigma,
            games = {table}.games + 1,
            wins = {table}.wins + excluded.wins
        """,
        [(*key, h.user_id, *new[h.user_id], int(h.winner)) for h in standings],
    )
