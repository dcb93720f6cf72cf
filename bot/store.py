"""The SQLite store: tables to resume after a restart, finished games, ratings.

:class:`SqliteStore` implements :class:`bot.store_api.Store` on one aiosqlite
connection per store.

Durability and concurrency
    The database runs in WAL mode with ``synchronous=FULL``: every commit is
    fsynced before the awaiting coroutine resumes, so an acknowledged action
    survives a SIGKILL or a power loss. Every access goes through one
    ``asyncio.Lock`` and every write is one explicit ``BEGIN IMMEDIATE`` ...
    ``COMMIT``, so fifty tables finishing at once queue up behind each other in
    this process instead of meeting "database is locked"; ``busy_timeout``
    covers another process (a backup, the sqlite3 shell) holding the lock
    briefly. Reads take the lock too: otherwise a read could run on the shared
    connection between two statements of a write and see half of it.

Schema
    Numbered migrations in :mod:`bot.migrations` (``0001_initial.sql``,
    ``0002_ratings.sql``, ``0003_guild_settings.sql``, ...) are applied at open, in order, in one
    transaction, and the version reached is kept in ``PRAGMA user_version``. A
    database written by a newer version of the bot is refused
    (:class:`SchemaTooNewError`) rather than misread.

Conventions
    Datetimes are stored as ISO-8601 strings in UTC with microseconds, so they
    sort as text; a naive datetime is taken to be UTC. In key columns a
    ``guild_id`` of ``None`` is stored as ``0`` (:data:`NO_GUILD`) so the
    UNIQUE and PRIMARY KEY constraints hold.

Ratings
    OpenSkill's Plackett-Luce model with its default parameters (mu 25,
    sigma 25/3). A game is rated only when two or more distinct humans played
    it; the humans are rated among themselves by place (tied places share a
    rank) and computer seats are left out. Every human's ``games`` and ``wins``
    counters move on every finished game, including a human alone against
    computers, whose rating is left untouched (a player who never had a rated
    game has no rating at all: ``GameStats.rating`` is None and they are not on
    the leaderboard). The displayed rating is :func:`display_rating`:
    ``round(1000 + 40 * (mu - 3 * sigma))``, i.e. 1000 for a new player.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.models import (
    GameResult,
    GameStats,
    LeaderRow,
    RecentGame,
    ResultPlayer,
    StoredTable,
    TableStatus,
)

__all__ = [
    "NO_GUILD",
    "RATING_BASE",
    "RATING_SCALE",
    "Migration",
    "MigrationError",
    "SchemaTooNewError",
    "SqliteStore",
    "StoreError",
    "display_rating",
    "load_migrations",
    "split_statements",
]

NO_GUILD = 0
"""The ``guild_id`` stored in key columns for "no guild" (Discord never issues snowflake 0)."""

BUSY_TIMEOUT_MS = 10_000
"""How long SQLite waits for another process's lock before raising "database is locked"."""

RATING_BASE = 1000
"""The displayed rating of a new player (whose OpenSkill ordinal is 0)."""

RATING_SCALE = 40
"""Displayed points per unit of OpenSkill ordinal (a decisive first win is worth ~+130)."""

_MODEL = PlackettLuce()
_OPEN_STATUSES = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)
_MIGRATION_NAME = re.compile(r"(\d{4})_([A-Za-z0-9_]+)\.sql")


class StoreError(RuntimeError):
    """The database cannot be used as it is."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot than this one."""


class MigrationError(StoreError):
    """A migration failed or the migration files are inconsistent; nothing was changed."""


def display_rating(mu: float, sigma: float) -> float:
    """The rating shown to players: the OpenSkill ordinal ``mu - 3 sigma``, scaled.

    The ordinal is a conservative estimate (the true skill is ~99.7% likely to
    be higher), so a new player shows 1000 and climbs as both their skill
    estimate rises and the uncertainty shrinks. Returned as a whole number.
    """
    return float(round(RATING_BASE + RATING_SCALE * (mu - 3.0 * sigma)))


# --------------------------------------------------------------------------- migrations


@dataclass(frozen=True)
class Migration:
    """One numbered migration file: applying it takes the schema to ``version``."""

    version: int
    name: str
    sql: str


def load_migrations() -> list[Migration]:
    """Read the ``NNNN_name.sql`` files shipped in :mod:`bot.migrations`, in order.

    Raises :class:`MigrationError` unless they are numbered 1, 2, ... without
    gaps or duplicates, so a misnamed file cannot silently skip a step.
    """
    found: list[Migration] = []
    for entry in importlib.resources.files("bot.migrations").iterdir():
        match = _MIGRATION_NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a migration script into single statements for ``execute``.

    ``executescript`` would commit any open transaction first, which would
    break the one-transaction upgrade; so each statement is run on its own.
    ``sqlite3.complete_statement`` decides where a statement ends, which copes
    with semicolons inside strings, comments and trigger bodies.
    """
    statements: list[str] = []
    buffer = ""
    for char in sql:
        buffer += char
        if char == ";" and sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = "\n".join(
        line for line in buffer.splitlines() if not line.strip().startswith("--")
    ).strip()
    if leftover:
        raise MigrationError(f"unterminated SQL statement: {leftover[:80]!r}")
    return statements


# --------------------------------------------------------------------------- conversions


def _guild_key(guild_id: int | None) -> int:
    """The value stored in key columns for ``guild_id`` (``None`` becomes :data:`NO_GUILD`)."""
    return NO_GUILD if guild_id is None else guild_id


def _utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime; a naive one is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _iso(moment: datetime) -> str:
    """The fixed-width UTC ISO string stored for ``moment`` (sorts correctly as text)."""
    return _utc(moment).isoformat(timespec="microseconds")


def _parse_iso(text: str) -> datetime:
    """A stored ISO string back to an aware datetime."""
    return _utc(datetime.fromisoformat(text))


def _table_doc(table: StoredTable) -> tuple[StoredTable, str]:
    """The table with its datetimes in UTC, and its JSON document."""
    normalised = table.model_copy(
        update={"created_at": _utc(table.created_at), "updated_at": _utc(table.updated_at)}
    )
    return normalised, normalised.model_dump_json()


@dataclass
class _Standing:
    """One human's part in a finished game, merged if they somehow held two seats."""

    user_id: int
    place: int
    winner: bool


def _humans(players: Iterable[ResultPlayer]) -> list[_Standing]:
    """The distinct human players of a game with their best place, in seat order."""
    by_user: dict[int, _Standing] = {}
    for player in sorted(players, key=lambda p: p.seat):
        if player.user_id is None:
            continue
        known = by_user.get(player.user_id)
        if known is None:
            by_user[player.user_id] = _Standing(player.user_id, player.place, player.winner)
        else:
            known.place = min(known.place, player.place)
            known.winner = known.winner or player.winner
    return list(by_user.values())


# --------------------------------------------------------------------------- the store


class SqliteStore:
    """The :class:`bot.store_api.Store` protocol on SQLite; create it with :meth:`open`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        """Wrap an open, migrated connection; use :meth:`open` rather than this."""
        self._conn = conn
        self._path = path
        self._lock = asyncio.Lock()
        self._closed = False

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        Sets WAL, ``synchronous=FULL``, foreign keys and the busy timeout, then
        applies the pending migrations in one transaction. Raises
        :class:`SchemaTooNewError` for a database from a newer bot, and
        :class:`MigrationError` if a migration fails (the database is left as
        it was).
        """
        location = str(path)
        in_memory = location == ":memory:"
        try:
            if not in_memory:
                Path(location).parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: no implicit transactions; this class issues
            # BEGIN/COMMIT itself so a transaction is exactly what it says.
            conn = await aiosqlite.connect(location, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open {location}: {exc}") from exc
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA foreign_keys = ON")
            rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            mode = next(iter(rows))[0]
            if not in_memory and str(mode).lower() != "wal":
                raise StoreError(f"could not switch {location} to WAL mode (got {mode!r})")
            await conn.execute("PRAGMA synchronous = FULL")
            await _migrate(conn, load_migrations())
        except BaseException:
            await conn.close()
            raise
        return cls(conn, location)

    async def close(self) -> None:
        """Close the connection; further calls do nothing. Every commit is already durable."""
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            await self._conn.close()

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

    @asynccontextmanager
    async def _transaction(self, *, write: bool) -> AsyncIterator[aiosqlite.Connection]:
        """Run the body alone on the connection, in one transaction.

        A write takes the database's write lock up front (``BEGIN IMMEDIATE``)
        so it can never fail half-way on a lock upgrade; a read gets a
        consistent snapshot (``BEGIN``). Any exception, cancellation included,
        rolls back, so the next caller never inherits an open transaction.
        """
        if self._closed:
            raise StoreError("the store is closed")
        async with self._lock:
            if self._closed:  # closed while this call waited for the lock
                raise StoreError("the store is closed")
            # BEGIN inside the try: a cancellation while it is queued must still
            # roll back. The worker thread runs statements in order, so a
            # shielded rollback always lands before the next caller's BEGIN.
            try:
                await self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                await asyncio.shield(_rollback(self._conn))
                raise

    # ----------------------------------------------------------------- tables

    async def save_table(self, table: StoredTable) -> None:
        """Insert or update a table, in one transaction, durable when this returns."""
        async with self._transaction(write=True) as conn:
            await _upsert_table(conn, table)

    async def open_tables(self) -> list[StoredTable]:
        """Every table in the lobby or playing, oldest first, to resume at start-up."""
        async with self._transaction(write=False) as conn:
            rows = await conn.execute_fetchall(
                "SELECT doc FROM tables WHERE status IN (?, ?) ORDER BY created_at, id",
                _OPEN_STATUSES,
            )
        return [StoredTable.model_validate_json(row["doc"]) for row in rows]

    async def get_table(self, table_id: str) -> StoredTable | None:
        """The table with this id in any status, or None."""
        async with self._transaction(write=False) as conn:
            rows = list(
                await conn.execute_fetchall("SELECT doc FROM tables WHERE id = ?", (table_id,))
            )
        return StoredTable.model_validate_json(rows[0]["doc"]) if rows else None

    # ----------------------------------------------------------------- results

    async def record_result(self, result: GameResult, *, table: StoredTable | None = None) -> bool:
        """Write a finished game, its players and the rating updates in one transaction.

        Also marks the table (if stored) finished, or, when ``table`` is given, saves
        it whole in the same transaction (so its final action and its result land
        together). Exactly once per
        ``table_id``: the insert is ``ON CONFLICT DO NOTHING`` on the UNIQUE
        column, so a second call, concurrent or later, even from another
        process, writes nothing and returns False.
        """
        guild = _guild_key(result.guild_id)
        finished_at = _iso(result.finished_at)
        record = json.dumps(
            result.model_dump(mode="json")["record"], separators=(",", ":"), ensure_ascii=False
        )
        async with self._transaction(write=True) as conn:
            cursor = await conn.execute(
                """
                INSERT INTO results (table_id, guild_id, game, finished_at, record)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (table_id) DO NOTHING
                """,
                (result.table_id, guild, result.game, finished_at, record),
            )
            if cursor.rowcount == 0:
                return False  # already recorded; the transaction commits nothing
            result_id = cursor.lastrowid
            await conn.executemany(
                """
                INSERT INTO result_players (result_id, seat, user_id, name, score, place, winner)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    (result_id, p.seat, p.user_id, p.name, p.score, p.place, int(p.winner))
                    for p in result.players
                ],
            )
            if table is not None:
                finished = table.model_copy(update={"status": TableStatus.FINISHED})
                await _upsert_table(conn, finished)
            else:
                await conn.execute(
                    """
                    UPDATE tables
                    SET status = ?, updated_at = ?,
                        doc = json_set(doc, '$.status', ?, '$.updated_at', ?)
                    WHERE id = ?
                    """,
                    (
                        TableStatus.FINISHED.value,
                        finished_at,
                        TableStatus.FINISHED.value,
                        finished_at,
                        result.table_id,
                    ),
                )
            await _update_ratings(conn, guild, result.game, _humans(result.players))
        return True

    # ----------------------------------------------------------------- queries

    async def leaderboard(
        self, guild_id: int | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[LeaderRow], int]:
        """A page of the server's rated players of ``game``, and how many there are.

        Ordered by the rating's ordinal (best first), then wins, then games,
        then user id so pages never overlap or skip a player. Only players with
        at least one rated game are listed.
        """
        if offset < 0 or limit < 0:
            raise ValueError(f"offset and limit must be >= 0, got {offset} and {limit}")
        key = (_guild_key(guild_id), game)
        async with self._transaction(write=False) as conn:
            rows = await conn.execute_fetchall(
                """
                SELECT user_id, mu, sigma, games, wins FROM ratings
                WHERE guild_id = ? AND game = ? AND mu IS NOT NULL
                ORDER BY mu - 3.0 * sigma DESC, wins DESC, games DESC, user_id
                LIMIT ? OFFSET ?
                """,
                (*key, limit, offset),
            )
            counted = await conn.execute_fetchall(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND mu IS NOT NULL",
                key,
            )
        page = [
            LeaderRow(
                user_id=row["user_id"],
                rating=display_rating(row["mu"], row["sigma"]),
                games=row["games"],
                wins=row["wins"],
            )
            for row in rows
        ]
        return page, int(next(iter(counted))[0])

    async def stats(self, guild_id: int | None, user_id: int) -> list[GameStats]:
        """The player's games, wins and rating per game played in this server.

        Most played game first. ``rating`` is None for a game the player has
        only played without another human.
        """
        async with self._transaction(write=False) as conn:
            rows = await conn.execute_fetchall(
                """
                SELECT game, games, wins, mu, sigma FROM ratings
                WHERE guild_id = ? AND user_id = ? AND games > 0
                ORDER BY games DESC, game
                """,
                (_guild_key(guild_id), user_id),
            )
        return [
            GameStats(
                game=row["game"],
                games=row["games"],
                wins=row["wins"],
                rating=None if row["mu"] is None else display_rating(row["mu"], row["sigma"]),
            )
            for row in rows
        ]

    # ----------------------------------------------------------------- server settings

    async def get_timezone(self, guild_id: int) -> str | None:
        """The server's time zone (an IANA name), or None if it set none."""
        async with self._transaction(write=False) as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT timezone FROM guild_settings WHERE guild_id = ?", (guild_id,)
                )
            )
        zone = rows[0]["timezone"] if rows else None
        return None if zone is None else str(zone)

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """Set the server's time zone; None goes back to the bot's default.

        The zone is stored as given: the caller checks it is a known IANA name.
        """
        async with self._transaction(write=True) as conn:
            await conn.execute(
                """
                INSERT INTO guild_settings (guild_id, timezone, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET
                    timezone = excluded.timezone,
                    updated_at = excluded.updated_at
                """,
                (guild_id, zone, _iso(datetime.now(UTC))),
            )

    async def get_pictures(self, guild_id: int) -> bool:
        """Whether the server's new tables draw their cards (True unless turned off)."""
        async with self._transaction(write=False) as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT pictures FROM guild_settings WHERE guild_id = ?", (guild_id,)
                )
            )
        return bool(rows[0]["pictures"]) if rows else True

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn pictures on or off for the server's new tables."""
        async with self._transaction(write=True) as conn:
            await conn.execute(
                """
                INSERT INTO guild_settings (guild_id, pictures, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET
                    pictures = excluded.pictures,
                    updated_at = excluded.updated_at
                """,
                (guild_id, int(on), _iso(datetime.now(UTC))),
            )

    async def recent_games(
        self, guild_id: int | None, user_id: int, *, limit: int = 5
    ) -> list[RecentGame]:
        """The player's latest finished games in this server, newest first."""
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        async with self._transaction(write=False) as conn:
            rows = await conn.execute_fetchall(
                """
                SELECT r.table_id, r.game, r.finished_at, MIN(p.place) AS place, p.score,
                       (SELECT COUNT(*) FROM result_players AS q
                        WHERE q.result_id = r.id) AS players
                FROM result_players AS p
                JOIN results AS r ON r.id = p.result_id
                WHERE p.user_id = ? AND r.guild_id = ?
                GROUP BY r.id
                ORDER BY r.finished_at DESC, r.id DESC
                LIMIT ?
                """,
                (user_id, _guild_key(guild_id), limit),
            )
        return [
            RecentGame(
                table_id=row["table_id"],
                game=row["game"],
                finished_at=_parse_iso(row["finished_at"]),
                place=row["place"],
                score=row["score"],
                players=row["players"],
            )
            for row in rows
        ]


# --------------------------------------------------------------------------- helpers


async def _upsert_table(conn: aiosqlite.Connection, table: StoredTable) -> None:
    """Insert or replace one table's row and document (inside the caller's transaction)."""
    table, doc = _table_doc(table)
    await conn.execute(
        """
        INSERT INTO tables (id, guild_id, channel_id, message_id, host_id, game,
                            status, doc, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            guild_id = excluded.guild_id,
            channel_id = excluded.channel_id,
            message_id = excluded.message_id,
            host_id = excluded.host_id,
            game = excluded.game,
            status = excluded.status,
            doc = excluded.doc,
            created_at = excluded.created_at,
            updated_at = excluded.updated_at
        """,
        (
            table.id,
            table.guild_id,
            table.channel_id,
            table.message_id,
            table.host_id,
            table.game,
            table.status.value,
            doc,
            _iso(table.created_at),
            _iso(table.updated_at),
        ),
    )


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back the open transaction, if SQLite still has one (an error may have ended it)."""
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        if "no transaction is active" not in str(error):
            raise


async def _user_version(conn: aiosqlite.Connection) -> int:
    """The schema version recorded in the database header."""
    rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(next(iter(rows))[0])


async def _migrate(conn: aiosqlite.Connection, migrations: list[Migration]) -> None:
    """Apply every migration newer than the database's version, all in one transaction.

    The version is re-read after ``BEGIN IMMEDIATE`` so two processes opening
    the same file at once cannot both apply a step. On any failure everything
    is rolled back and the database keeps its old version.
    """
    latest = migrations[-1].version if migrations else 0
    try:
        await conn.execute("BEGIN IMMEDIATE")
        current = await _user_version(conn)
        if current > latest:
            raise SchemaTooNewError(
                f"the database is at schema version {current} but this version of the bot "
                f"only knows up to {latest}: it was written by a newer Fivefold. "
                "Upgrade the bot (or restore a backup) instead of downgrading."
            )
        for migration in migrations:
            if migration.version <= current:
                continue
            try:
                for statement in split_statements(migration.sql):
                    await conn.execute(statement)
            except sqlite3.Error as error:
                raise MigrationError(
                    f"migration {migration.version:04d}_{migration.name} failed: {error}"
                ) from error
            # An int, never user input: safe to format into the PRAGMA.
            await conn.execute(f"PRAGMA user_version = {migration.version:d}")
        rows = await conn.execute_fetchall("PRAGMA foreign_key_check")
        if list(rows):
            raise MigrationError("the migrated database violates its foreign keys")
        await conn.execute("COMMIT")
    except BaseException:
        await asyncio.shield(_rollback(conn))
        raise


def _rating(mu: Any, sigma: Any) -> PlackettLuceRating:
    """A stored rating, or the model's default for a player never rated."""
    if mu is None or sigma is None:
        return _MODEL.rating()
    return _MODEL.rating(mu=float(mu), sigma=float(sigma))


async def _update_ratings(
    conn: aiosqlite.Connection, guild: int, game: str, humans: list[_Standing]
) -> None:
    """Count the game for every human and, with two or more of them, rate them.

    Runs inside :meth:`SqliteStore.record_result`'s transaction. The humans are
    rated among themselves by place (equal places are a tie); computer seats
    never enter the rating, they only shape the places.
    """
    if not humans:
        return
    marks = ",".join("?" * len(humans))
    rows = await conn.execute_fetchall(
        f"SELECT user_id, mu, sigma FROM ratings "
        f"WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
        (guild, game, *(h.user_id for h in humans)),
    )
    stored: dict[int, tuple[Any, Any]] = {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
    new: dict[int, tuple[float | None, float | None]] = {
        h.user_id: stored.get(h.user_id, (None, None)) for h in humans
    }
    if len(humans) >= 2:
        teams = [[_rating(*new[h.user_id])] for h in humans]
        rated = _MODEL.rate(teams, ranks=[float(h.place) for h in humans])
        for human, team in zip(humans, rated, strict=True):
            new[human.user_id] = (team[0].mu, team[0].sigma)
    await conn.executemany(
        """
        INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins)
        VALUES (?, ?, ?, ?, ?, 1, ?)
        ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
            mu = excluded.mu,
            sigma = excluded.sigma,
            games = ratings.games + 1,
            wins = ratings.wins + excluded.wins
        """,
        [(guild, game, h.user_id, *new[h.user_id], int(h.winner)) for h in humans],
    )
