"""The PostgreSQL store: one database shared by several bot processes.

:class:`PostgresStore` implements :class:`bot.store.api.Store` with asyncpg on
a pool of connections, in the layout of the SQLite store (a head row per
table, one row per action, a finished game stored once; see
:mod:`bot.store.rows` and ``bot/store/postgres/migrations/``), so
``python -m bot migrate-db`` copies one into the other as it is.

Durability
    Every write is one transaction, and PostgreSQL (``synchronous_commit`` on,
    its default) returns from COMMIT once the WAL is flushed: an acknowledged
    action survives a crash of the bot or of the server.

Group commit
    PostgreSQL flushes the WAL of every transaction waiting to commit at once,
    so tables saving concurrently on the pool's connections already share
    flushes; the store adds no batching of its own (the figures are in
    ``docs/performance.md``).

Several processes
    A save compares versions (compare and set: version ``n`` is written only
    over ``n - 1``, else :class:`StaleTable`), the partial unique index
    ``tables_open_channel`` keeps one open table per channel
    (:class:`ChannelTaken`), a result is written once (``ON CONFLICT DO
    NOTHING`` on ``results.table_id``), and one board's ratings are recomputed
    by one transaction at a time (an advisory lock per server and game), so two
    games finishing at once for one player both count and the leaderboard's
    buckets never deadlock. A transaction PostgreSQL aborts for a deadlock or a
    serialization failure anyway is retried.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import asyncpg

from bot.models import DailyTry, GameResult, StoredTable, TableStatus, season_of
from bot.store.api import ChannelTaken, DailyTaken, StaleTable, StoreError
from bot.store.common import ColumnSettings, ResultQueries
from bot.store.ratings import Standing, humans, rate_game
from bot.store.rows import (
    DAILY_COLUMNS,
    OPEN_STATUSES,
    appended,
    daily_scores,
    daily_try,
    guild_key,
    head_doc,
    rebuild,
    refusal,
    result_record,
    setting_upsert,
    split_record,
    standings_sql,
    utc,
)
from bot.store.schema import POSTGRES_MIGRATIONS, load_migrations, migrate_postgres
from bot.store.url import redact

if TYPE_CHECKING:
    from bot.store.schema import PgConnection as Connection

T = TypeVar("T")

POOL_SIZE = 10
"""Connections per process: enough for tables saving at once to share WAL flushes."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server when opening the store before saying it is unreachable."""
RETRIES = 3
"""Attempts of a transaction that PostgreSQL aborted for a deadlock or serialization."""

# The head, its result's record and its actions in one statement: one snapshot, so a save
# committing meanwhile can never show a head counting actions the read does not see.
_SELECT = """
SELECT t.id, t.doc::text AS doc, t.status, r.record::text AS final,
       ARRAY(SELECT a.action FROM table_actions AS a WHERE a.table_id = t.id ORDER BY a.n)
           AS actions
FROM tables AS t LEFT JOIN results AS r ON r.table_id = t.id
"""
# Every change of a table is one statement (so one transaction, one WAL flush, one round
# trip): an action is its head and its row, a new table its head and its actions. $1 to $6
# are always the head's (_head_fields).
_APPEND = """
WITH head AS (
    UPDATE tables SET message_id = $2, host_id = $3, doc = $4::jsonb, updated_at = $5,
                      version = $6
    WHERE id = $1 AND version = $6 - 1 AND status = 'playing'
      AND (doc->'record'->>'actions')::integer = $7
    RETURNING id
)
INSERT INTO table_actions (table_id, n, action) SELECT id, $7, $8 FROM head
"""
_SAVE_HEAD = """
UPDATE tables SET message_id = $2, host_id = $3, doc = $4::jsonb, updated_at = $5,
                  version = $6, status = $7
WHERE id = $1 AND version = $6 - 1 AND COALESCE((doc->'record'->>'actions')::integer, 0) = $8
"""
_FINISH_HEAD = """
UPDATE tables SET message_id = $2, host_id = $3, doc = $4::jsonb, updated_at = $5,
                  version = $6, status = 'finished'
WHERE id = $1 AND version = $6 - 1
"""
_CREATE = """
WITH head AS (
    INSERT INTO tables (id, message_id, host_id, doc, updated_at, version, status,
                        guild_id, channel_id, game, created_at)
    VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11)
    ON CONFLICT (id) DO NOTHING
    RETURNING id
), actions AS (
    INSERT INTO table_actions (table_id, n, action)
    SELECT head.id, a.n - 1, a.action
    FROM head, unnest($12::text[]) WITH ORDINALITY AS a(action, n)
)
SELECT COUNT(*) FROM head
"""
_STORED = """
SELECT version, status, COALESCE((doc->'record'->>'actions')::integer, 0)
FROM tables WHERE id = $1
"""
# One page of the leaderboard and the board's size in one statement (one round trip, one
# snapshot): the buckets, added up from the top, say where the page starts; the page is read
# from the ratings_board index from that bucket on. Every row carries the total; a page
# past the end is one row with the total and no player.
_BOARD_PAGE = """
WITH b AS (
    SELECT bucket, players, SUM(players) OVER (ORDER BY bucket DESC) - players AS above
    FROM board_buckets WHERE guild_id = $1 AND game = $2 AND players > 0
), start AS (
    SELECT bucket, above FROM b WHERE above + players > $3 ORDER BY bucket DESC LIMIT 1
)
SELECT (SELECT COALESCE(SUM(players), 0) FROM b) AS total,
       page.user_id, page.mu, page.sigma, page.games, page.wins
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
    SELECT r.* FROM start, LATERAL (
        SELECT user_id, mu, sigma, games, wins FROM ratings
        WHERE guild_id = $1 AND game = $2 AND mu IS NOT NULL
          AND floor((mu - 3.0 * sigma) * 20)::integer <= start.bucket
        ORDER BY floor((mu - 3.0 * sigma) * 20)::integer DESC, (mu - 3.0 * sigma) DESC,
                 wins DESC, games DESC, user_id
        LIMIT $4 OFFSET $3 - start.above
    ) AS r
) AS page ON true
ORDER BY floor((page.mu - 3.0 * page.sigma) * 20)::integer DESC,
         (page.mu - 3.0 * page.sigma) DESC, page.wins DESC, page.games DESC, page.user_id
"""
_SEASON_PAGE = """
SELECT (SELECT COUNT(*) FROM season_ratings
        WHERE guild_id = $1 AND game = $2 AND season = $3 AND mu IS NOT NULL) AS total,
       page.user_id, page.mu, page.sigma, page.games, page.wins
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
    SELECT user_id, mu, sigma, games, wins FROM season_ratings
    WHERE guild_id = $1 AND game = $2 AND season = $3 AND mu IS NOT NULL
    ORDER BY (mu - 3.0 * sigma) DESC, wins DESC, games DESC, user_id
    LIMIT $4 OFFSET $5
) AS page ON true
ORDER BY (page.mu - 3.0 * page.sigma) DESC, page.wins DESC, page.games DESC, page.user_id
"""
_STANDINGS = standings_sql(("$1", "$2", "$3", "$4"))
_RECENT = """
SELECT r.table_id, r.game, r.finished_at, MIN(p.place) AS place,
       (array_agg(p.score ORDER BY p.place, p.seat))[1] AS score,
       (SELECT COUNT(*) FROM result_players AS q WHERE q.result_id = r.id) AS players
FROM (SELECT DISTINCT result_id, finished_at FROM result_players
      WHERE user_id = $1 AND guild_id = $2
      ORDER BY finished_at DESC, result_id DESC
      LIMIT $3) AS latest
JOIN results AS r ON r.id = latest.result_id
JOIN result_players AS p ON p.result_id = r.id AND p.user_id = $1
GROUP BY r.id
ORDER BY r.finished_at DESC, r.id DESC
"""


def _updated(status: str) -> int:
    """How many rows an INSERT, UPDATE or DELETE status string (``"UPDATE 1"``) says."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore(ResultQueries, ColumnSettings):
    """The :class:`bot.store.api.Store` protocol on PostgreSQL; create it with :meth:`open`."""

    def __init__(self, pool: asyncpg.Pool, where: str) -> None:
        """Wrap an open pool on a migrated database; use :meth:`open` rather than this."""
        self._pool = pool
        self.where = where
        """The database, its password hidden (for messages)."""
        self._closed = False

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, dsn: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect to the database ``dsn`` names and bring its schema up to date.

        Raises :class:`StoreError` (naming the server, never the password) when
        the server cannot be reached or refuses the connection, and
        :class:`bot.store.schema.SchemaTooNewError` / :class:`bot.store.schema.MigrationError`
        like the SQLite store.
        """
        where = redact(dsn)
        try:
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size,
                                             timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"cannot connect to {where}: {exc or type(exc).__name__}") from exc
        store = cls(pool, where)
        try:
            async with pool.acquire() as conn:
                await migrate_postgres(conn, load_migrations(POSTGRES_MIGRATIONS))
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        """Wait for the writes under way, then close the pool; further calls do nothing."""
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def _transaction(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """``work`` in one transaction on a pooled connection; durable when this returns.

        A deadlock or serialization failure (PostgreSQL rolled it all back) is
        retried; a lost connection is a :class:`StoreError`.
        """
        for attempt in range(RETRIES):
            try:
                async with self._connection() as conn, conn.transaction():
                    return await work(conn)
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    async def _once(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """``work``, one statement, outside any explicit transaction: one snapshot for a read,
        one atomic write durable when it returns (its own COMMIT), one round trip, not three."""
        async with self._connection() as conn:
            return await work(conn)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool; a lost server is a :class:`StoreError`."""
        if self._closed:
            raise StoreError("the store is closed")
        try:
            async with self._pool.acquire() as conn:
                yield conn
        except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"lost the database {self.where}: {exc}") from exc

    # ----------------------------------------------------------------- tables

    async def create_table(self, table: StoredTable) -> None:
        """Insert a new table and the actions its record holds, in one statement."""
        doc, actions = split_record(table)
        try:
            if table.daily is not None and table.status.value in OPEN_STATUSES:
                created = await self._transaction(
                    lambda conn: _create_daily(conn, table, doc, actions or []))
            else:
                created = await self._once(lambda conn: _create(conn, table, doc, actions or []))
        except asyncpg.UniqueViolationError as exc:
            raise _channel_taken(exc, table) from exc
        if not created:
            stored = await self._once(lambda conn: conn.fetchrow(_STORED, table.id))
            raise StaleTable(table.id, table.version, None if stored is None else stored[0])

    async def save_head(self, table: StoredTable) -> None:
        """Compare and set the table's head; its action rows stay as they are."""
        doc, count = head_doc(table, record_in_results=table.status is TableStatus.FINISHED)
        try:
            saved = await self._once(lambda conn: conn.execute(
                _SAVE_HEAD, *_head_fields(table, doc), table.status.value, count))
        except asyncpg.UniqueViolationError as exc:
            raise _channel_taken(exc, table) from exc
        if not _updated(saved):
            stored = await self._once(lambda conn: conn.fetchrow(_STORED, table.id))
            raise refusal(table, stored, count)

    async def append_action(self, table: StoredTable, action: str) -> None:
        """The table's new head and its one new action row, in one statement."""
        doc, n, text = appended(table, action)
        added = await self._once(lambda conn: conn.execute(
            _APPEND, *_head_fields(table, doc), n, text))
        if not _updated(added):
            stored = await self._once(lambda conn: conn.fetchrow(_STORED, table.id))
            raise refusal(table, stored, n, append=True)

    async def open_tables(self) -> list[StoredTable]:
        """Every table in the lobby or playing, oldest first, to resume at start-up."""
        return await self._once(lambda conn: _read_tables(
            conn, "t.status IN ('lobby', 'playing')", ()))

    async def get_table(self, table_id: str) -> StoredTable | None:
        found = await self._once(lambda conn: _read_tables(conn, "t.id = $1", (table_id,)))
        return found[0] if found else None

    async def prune_tables(self, before: datetime) -> int:
        """Delete finished and cancelled tables last changed before ``before``; their
        action rows go with them (``ON DELETE CASCADE``), results and ratings stay. The
        partial index ``tables_closed`` finds them."""
        deleted = await self._transaction(lambda conn: conn.execute(
            "DELETE FROM tables WHERE status IN ('finished', 'cancelled') AND updated_at < $1",
            utc(before)))
        return _updated(deleted)

    # ----------------------------------------------------------------- results

    async def record_result(self, result: GameResult, *, table: StoredTable | None = None) -> bool:
        """Write a finished game, its players, its ratings (and ``table``) in one transaction.

        Exactly once per ``table_id``: a second call, concurrent or later, from
        any process, writes nothing and returns False.
        """
        record = result_record(result, table)
        return await self._transaction(lambda conn: _insert_result(conn, result, record, table))

    # ----------------------------------------------------------------- queries

    async def _board_rows(self, key: tuple[int, str], offset: int, limit: int
                          ) -> tuple[Sequence[Any], int]:
        """A leaderboard page in one statement: the SQLite store's bucket walk, in SQL. Every
        row carries the board's size; a page past the end is one row with no player."""
        rows = await self._once(lambda conn: conn.fetch(_BOARD_PAGE, *key, offset, limit))
        return [row for row in rows if row["user_id"] is not None], int(rows[0]["total"])

    async def _season_rows(self, key: tuple[int, str], season: str, offset: int, limit: int
                           ) -> tuple[Sequence[Any], int]:
        """A page of a season's board and its size, in one statement (each row carries the
        size; a page past the end is one row with the size and no player)."""
        rows = await self._once(lambda conn: conn.fetch(_SEASON_PAGE, *key, season, limit,
                                                        offset))
        return [row for row in rows if row["user_id"] is not None], int(rows[0]["total"])

    async def _standing_rows(self, guild: int, user_id: int, before: str, limit: int
                             ) -> Sequence[Any]:
        return await self._once(lambda conn: conn.fetch(_STANDINGS, guild, user_id, before,
                                                        limit))

    async def _stats_rows(self, guild: int, user_id: int) -> Sequence[Any]:
        return await self._once(lambda conn: conn.fetch(
            "SELECT game, games, wins, mu, sigma FROM ratings "
            "WHERE guild_id = $1 AND user_id = $2 AND games > 0 ORDER BY games DESC, game",
            guild, user_id))

    async def _recent_rows(self, guild: int, user_id: int, limit: int) -> Sequence[Any]:
        return await self._once(lambda conn: conn.fetch(_RECENT, user_id, guild, limit))

    # ----------------------------------------------------------------- daily deals

    async def daily_try(self, day: str, game: str, user_id: int) -> DailyTry | None:
        row = await self._once(lambda conn: conn.fetchrow(
            f"SELECT {DAILY_COLUMNS} FROM daily_tries "
            "WHERE day = $1 AND game = $2 AND user_id = $3", day, game, user_id))
        return None if row is None else daily_try(row)

    async def daily_board(self, guild_id: int | None, game: str, day: str) -> list[DailyTry]:
        rows = await self._once(lambda conn: conn.fetch(
            f"SELECT {DAILY_COLUMNS} FROM daily_tries WHERE guild_id = $1 AND game = $2 "
            "AND day = $3 ORDER BY started_at, user_id", guild_key(guild_id), game, day))
        return [daily_try(row) for row in rows]

    async def daily_days(self, game: str, user_ids: Sequence[int], *, until: str,
                         limit: int = 400) -> dict[int, list[str]]:
        people = list(dict.fromkeys(user_ids))
        rows = await self._once(lambda conn: conn.fetch(
            "SELECT u.user_id, d.day FROM unnest($1::bigint[]) AS u(user_id), LATERAL ("
            "SELECT day FROM daily_tries WHERE user_id = u.user_id AND game = $2 "
            "AND day <= $3 AND score IS NOT NULL ORDER BY day DESC LIMIT $4) AS d "
            "ORDER BY u.user_id, d.day DESC", people, game, until, limit))
        found: dict[int, list[str]] = {user_id: [] for user_id in people}
        for row in rows:
            found[row["user_id"]].append(row["day"])
        return found

    # ----------------------------------------------------------------- server settings

    async def _setting(self, guild_id: int, column: str) -> Any:
        """One column of the server's settings row (None without a row); ``column`` is ours."""
        return await self._once(lambda conn: conn.fetchval(
            f"SELECT {column} FROM guild_settings WHERE guild_id = $1", guild_id))

    async def _set(self, guild_id: int, column: str, value: object) -> None:
        """Upsert one column of the server's settings row (one statement, durable)."""
        sql = setting_upsert(column, ["$1", "$2", "$3"])
        stamp = datetime.now(UTC)
        await self._once(lambda conn: conn.execute(sql, guild_id, value, stamp))


# --------------------------------------------------------------------------- tables


def _head_fields(table: StoredTable, doc: str) -> tuple[Any, ...]:
    """``$1`` to ``$6`` of every statement that writes a head: the id, what a change may
    change, the version."""
    return (table.id, table.message_id, table.host_id, doc, utc(table.updated_at),
            table.version)


def _channel_taken(exc: asyncpg.UniqueViolationError, table: StoredTable) -> Exception:
    """A head the partial unique index refused: another table is open in the channel."""
    if exc.constraint_name != "tables_open_channel":
        return exc
    return ChannelTaken(table.id, table.channel_id)


async def _create(conn: Connection, table: StoredTable, doc: str, actions: list[str]) -> int:
    """Insert the head (unless the id is taken) and the actions; 1 if inserted, else 0."""
    return int(await conn.fetchval(
        _CREATE, *_head_fields(table, doc), table.status.value, table.guild_id,
        table.channel_id, table.game, utc(table.created_at), actions))


async def _create_daily(conn: Connection, table: StoredTable, doc: str, actions: list[str]
                        ) -> int:
    """A new daily table and its host's try at its day's deal (in the caller's transaction);
    :class:`DailyTaken` if they have one."""
    assert table.daily is not None
    claimed = await conn.fetchval(
        "INSERT INTO daily_tries (day, game, user_id, guild_id, table_id, started_at) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (day, game, user_id) DO NOTHING "
        "RETURNING 1", table.daily, table.game, table.host_id, guild_key(table.guild_id),
        table.id, utc(table.created_at))
    if claimed is None:
        raise DailyTaken(table.daily, table.game, table.host_id)
    return await _create(conn, table, doc, actions)


async def _finish(conn: Connection, table: StoredTable) -> None:
    """The finished table's head, its record left to its result (compare and set, or a new
    table), and its action rows gone."""
    finished = table.model_copy(update={"status": TableStatus.FINISHED, "record": None})
    doc, _ = head_doc(finished)
    if (not _updated(await conn.execute(_FINISH_HEAD, *_head_fields(table, doc)))
            and not await _create(conn, finished, doc, [])):
        stored = await conn.fetchval("SELECT version FROM tables WHERE id = $1", table.id)
        raise StaleTable(table.id, table.version, stored)
    await conn.execute("DELETE FROM table_actions WHERE table_id = $1", table.id)


async def _read_tables(conn: Connection, where: str, params: Sequence[Any]
                       ) -> list[StoredTable]:
    """The tables matching ``where`` (SQL on alias ``t``), oldest first, records rebuilt."""
    rows = await conn.fetch(f"{_SELECT} WHERE {where} ORDER BY t.created_at, t.id", *params)
    return [rebuild(row["id"], row["doc"], row["status"], row["final"], list(row["actions"]))
            for row in rows]


# --------------------------------------------------------------------------- results


async def _insert_result(conn: Connection, result: GameResult, record: str,
                         table: StoredTable | None) -> bool:
    """The body of :meth:`PostgresStore.record_result` (inside its transaction)."""
    guild = guild_key(result.guild_id)
    finished_at = utc(result.finished_at)
    result_id = await conn.fetchval(
        "INSERT INTO results (table_id, guild_id, game, finished_at, record) "
        "VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT (table_id) DO NOTHING RETURNING id",
        result.table_id, guild, result.game, finished_at, record)
    if result_id is None:
        return False  # already recorded; this write changes nothing
    await conn.executemany(
        "INSERT INTO result_players (result_id, seat, user_id, name, score, place, winner, "
        "guild_id, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [(result_id, p.seat, p.user_id, p.name, p.score, p.place, p.winner, guild, finished_at)
         for p in result.players])
    if table is not None:
        await _finish(conn, table)
    else:
        await conn.execute(
            "UPDATE tables SET status = 'finished', updated_at = $2, "
            "doc = doc || jsonb_build_object('status', 'finished', 'updated_at', $3::text, "
            "'record', 'null'::jsonb) WHERE id = $1",
            result.table_id, finished_at, finished_at.isoformat(timespec="microseconds"))
        await conn.execute("DELETE FROM table_actions WHERE table_id = $1", result.table_id)
    if result.daily is not None:
        await conn.executemany(
            "UPDATE daily_tries SET finished_at = $1, score = $2, place = $3 "
            "WHERE day = $4 AND game = $5 AND user_id = $6 AND table_id = $7",
            [(finished_at, score, place, result.daily, result.game, user_id, result.table_id)
             for user_id, score, place in daily_scores(result)])
    await _update_ratings(conn, guild, result.game, season_of(result.finished_at),
                          humans(result.players), rate=result.rated)
    return True


async def _update_ratings(conn: Connection, guild: int, game: str, season: str,
                          standings: list[Standing], *, rate: bool) -> None:
    """Count the game for every human and rate them (:func:`bot.store.ratings.rate_game`),
    all time and in the game's season.

    One board (server and game) is rated by one transaction at a time (an
    advisory lock, held to COMMIT): a concurrent game of the same players then
    waits instead of rating from the same old values, and the board's bucket
    counts, which any two games' players may share, cannot deadlock. Games of
    other boards go on at once. The rows are then created if missing and
    locked before they are read.
    """
    if not standings:
        return
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                       f"fivefold board {guild} {game}")
    await _rate(conn, "ratings", (guild, game), standings, rate=rate)
    await _rate(conn, "season_ratings", (guild, game, season), standings, rate=rate)


_BOARD_KEYS = {"ratings": ("guild_id", "game"),
               "season_ratings": ("guild_id", "game", "season")}
"""The columns that name one board of each table of ratings (before ``user_id``)."""


async def _rate(conn: Connection, table: str, key: tuple[Any, ...], standings: list[Standing],
                *, rate: bool) -> None:
    """One board's rows of ``standings`` (``table`` is one of :data:`_BOARD_KEYS`, never
    input), under the board's lock: created if missing, locked, rated, counted."""
    columns = _BOARD_KEYS[table]
    names = ", ".join(columns)
    marks = [f"${n}" for n in range(1, len(columns) + 1)]
    where = " AND ".join(f"{c} = {m}" for c, m in zip(columns, marks, strict=True))
    users = sorted(h.user_id for h in standings)
    last = f"${len(columns) + 1}"
    await conn.execute(
        f"INSERT INTO {table} ({names}, user_id) SELECT {', '.join(marks)}, u "
        f"FROM unnest({last}::bigint[]) AS u ORDER BY u ON CONFLICT DO NOTHING", *key, users)
    rows = await conn.fetch(
        f"SELECT user_id, mu, sigma FROM {table} WHERE {where} "
        f"AND user_id = ANY({last}::bigint[]) ORDER BY user_id FOR UPDATE", *key, users)
    new = rate_game(standings, {row["user_id"]: (row["mu"], row["sigma"]) for row in rows},
                    rate=rate)
    won = {h.user_id: h.winner for h in standings}
    n = len(columns)
    await conn.executemany(
        f"UPDATE {table} SET mu = ${n + 2}, sigma = ${n + 3}, games = games + 1, "
        f"wins = wins + ${n + 4} WHERE {where} AND user_id = ${n + 1}",
        [(*key, user, *new[user], int(won[user])) for user in users])


__all__ = ["PostgresStore"]
