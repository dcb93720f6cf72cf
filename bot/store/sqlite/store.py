"""The SQLite store: tables to resume after a restart, finished games, ratings.

:class:`SqliteStore` implements :class:`bot.store.api.Store` on one sqlite3
connection per store, used only from the store's own thread
(:mod:`bot.store.sqlite.thread`); how a table is laid out is in :mod:`bot.store.rows`.

Durability and concurrency
    The database runs in WAL mode with ``synchronous=FULL``: every commit is
    fsynced before the awaiting coroutine resumes, so an acknowledged action
    survives a SIGKILL or a power loss. Writes are group-committed: those
    queued while a transaction commits share the next ``BEGIN IMMEDIATE`` ...
    ``COMMIT`` and its one fsync, each in its own savepoint, so thirty-two
    tables acting at once cost one fsync, not thirty-two, and a write that
    fails fails alone. ``busy_timeout`` covers another process (a backup, the
    sqlite3 shell) holding the lock briefly. A read runs on the same thread
    between two transactions, in a snapshot of its own, so it never sees half
    a write.

Schema
    Numbered migrations in :mod:`bot.store.sqlite.migrations` (``0001_initial.sql``,
    ``0002_ratings.sql``, ...) are applied at open by :mod:`bot.store.schema`, in one
    transaction; the version reached is kept in ``PRAGMA user_version``.

Conventions
    Datetimes are stored as ISO-8601 strings in UTC with microseconds, so they
    sort as text; a naive datetime is taken to be UTC. In key columns a
    ``guild_id`` of ``None`` is stored as ``0`` (:data:`NO_GUILD`) so the
    UNIQUE and PRIMARY KEY constraints hold.

Ratings
    :mod:`bot.store.ratings` (shared with the PostgreSQL store) computes them; the
    rated players' board is kept in buckets (:func:`_board_page`).

Compare and set
    A table of version ``n`` is written only over the stored version ``n - 1``
    (or as a new table): a stale copy raises :class:`StaleTable`. At most one
    open table per channel is the partial unique index ``tables_open_channel``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from bot.models import (
    GameResult,
    GameStats,
    LeaderRow,
    RecentGame,
    StoredTable,
    TableStatus,
)
from bot.store.api import StoreError
from bot.store.ratings import RATING_BASE, RATING_SCALE, Standing, display_rating, humans, rate_game
from bot.store.rows import delete_actions, read_tables, result_record, write_table
from bot.store.rows import iso as _iso
from bot.store.rows import utc as _utc
from bot.store.schema import (
    Migration,
    MigrationError,
    SchemaTooNewError,
    load_migrations,
    migrate_sqlite,
    split_statements,
)
from bot.store.sqlite.thread import GroupCommitError, StoreThread
from bot.tables.timers import SERVER_CHOICES

__all__ = [
    "NO_GUILD",
    "RATING_BASE",
    "RATING_SCALE",
    "GroupCommitError",
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

T = TypeVar("T")
_OPEN_STATUSES = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)
_CLOSED_STATUSES = (TableStatus.FINISHED.value, TableStatus.CANCELLED.value)


# --------------------------------------------------------------------------- conversions


def _guild_key(guild_id: int | None) -> int:
    """The value stored in key columns for ``guild_id`` (``None`` becomes :data:`NO_GUILD`)."""
    return NO_GUILD if guild_id is None else guild_id






def _parse_iso(text: str) -> datetime:
    """A stored ISO string back to an aware datetime."""
    return _utc(datetime.fromisoformat(text))




# --------------------------------------------------------------------------- the store


def _connect(location: str) -> sqlite3.Connection:
    """Open the database with the store's settings (runs on the store's thread)."""
    if location != ":memory:":
        Path(location).parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: no implicit transactions; the store issues BEGIN and
    # COMMIT itself so a transaction is exactly what it says.
    conn = sqlite3.connect(location, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if location != ":memory:" and str(mode).lower() != "wal":
            raise StoreError(f"could not switch {location} to WAL mode (got {mode!r})")
        conn.execute("PRAGMA synchronous = FULL")
        migrate_sqlite(conn, load_migrations())
    except BaseException:
        conn.close()
        raise
    return conn


def _read(work: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """``work`` in a read transaction, so its queries see one consistent snapshot."""
    def in_snapshot(conn: sqlite3.Connection) -> T:
        conn.execute("BEGIN")
        try:
            return work(conn)
        finally:
            conn.execute("COMMIT")
    return in_snapshot


class SqliteStore:
    """The :class:`bot.store.api.Store` protocol on SQLite; create it with :meth:`open`."""

    def __init__(self, thread: StoreThread, path: str) -> None:
        """Wrap an open, migrated connection; use :meth:`open` rather than this."""
        self._thread = thread
        self.path = path
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
        try:
            thread = await StoreThread.start(lambda: _connect(location))
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open {location}: {exc}") from exc
        return cls(thread, location)

    async def close(self) -> None:
        """Wait for queued writes, then close; further calls do nothing."""
        if self._closed:
            return
        self._closed = True
        await self._thread.close()

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
        return self._thread.groups

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    async def _write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``write`` in the next group commit; durable when this returns."""
        self._check_open()
        return await self._thread.write(write)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in a read snapshot on the store's thread."""
        self._check_open()
        return await self._thread.run(_read(work))

    # ----------------------------------------------------------------- tables

    async def save_table(self, table: StoredTable) -> None:
        """Insert or update a table, durable when this returns.

        Writes the table's head and only the record's actions not stored yet,
        so the cost does not grow with the length of the game.
        """
        await self._write(lambda conn: write_table(conn, table))

    async def open_tables(self) -> list[StoredTable]:
        """Every table in the lobby or playing, oldest first, to resume at start-up."""
        return await self._run(lambda conn: read_tables(conn, "t.status IN (?, ?)",
                                                         _OPEN_STATUSES))

    async def get_table(self, table_id: str) -> StoredTable | None:
        """The table with this id in any status, or None."""
        found = await self._run(lambda conn: read_tables(conn, "t.id = ?", (table_id,)))
        return found[0] if found else None

    async def prune_tables(self, before: datetime) -> int:
        """Delete finished and cancelled tables older than ``before``; their action rows go
        with them (``ON DELETE CASCADE``), results and ratings stay. ``tables_status``
        finds them."""
        def prune(conn: sqlite3.Connection) -> int:
            return conn.execute(
                "DELETE FROM tables WHERE status IN (?, ?) AND updated_at < ?",
                (*_CLOSED_STATUSES, _iso(before))).rowcount
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
        return await self._write(lambda conn: _insert_result(conn, result, record, table))

    # ----------------------------------------------------------------- queries

    async def leaderboard(
        self, guild_id: int | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[LeaderRow], int]:
        """A page of the server's rated players of ``game``, and how many there are.

        Ordered by the rating's ordinal (best first), then wins, then games,
        then user id so pages never overlap or skip a player. Only players with
        at least one rated game are listed. Any page of a board of 100,000
        players costs about the same as the first (see :func:`_board_page`).
        """
        if offset < 0 or limit < 0:
            raise ValueError(f"offset and limit must be >= 0, got {offset} and {limit}")
        key = (_guild_key(guild_id), game)
        return await self._run(lambda conn: _board_page(conn, key, offset, limit))

    async def stats(self, guild_id: int | None, user_id: int) -> list[GameStats]:
        """The player's games, wins and rating per game played in this server.

        Most played game first. ``rating`` is None for a game the player has
        only played without another human.
        """
        rows = await self._run(lambda conn: conn.execute(
            """
            SELECT game, games, wins, mu, sigma FROM ratings INDEXED BY ratings_player
            WHERE guild_id = ? AND user_id = ? AND games > 0
            ORDER BY games DESC, game
            """,
            (_guild_key(guild_id), user_id),
        ).fetchall())
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
        row = await self._run(lambda conn: conn.execute(
            "SELECT timezone FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone())
        zone = None if row is None else row["timezone"]
        return None if zone is None else str(zone)

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """Set the server's time zone; None goes back to the bot's default.

        The zone is stored as given: the caller checks it is a known IANA name.
        """
        stamp = _iso(datetime.now(UTC))
        await self._write(lambda conn: conn.execute(
            """
            INSERT INTO guild_settings (guild_id, timezone, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE SET
                timezone = excluded.timezone,
                updated_at = excluded.updated_at
            """,
            (guild_id, zone, stamp),
        ))

    async def get_pictures(self, guild_id: int) -> bool:
        """Whether the server's new tables draw their cards (True unless turned off)."""
        row = await self._run(lambda conn: conn.execute(
            "SELECT pictures FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone())
        return True if row is None else bool(row["pictures"])

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn pictures on or off for the server's new tables."""
        stamp = _iso(datetime.now(UTC))
        await self._write(lambda conn: conn.execute(
            """
            INSERT INTO guild_settings (guild_id, pictures, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE SET
                pictures = excluded.pictures,
                updated_at = excluded.updated_at
            """,
            (guild_id, int(on), stamp),
        ))

    async def get_timer(self, guild_id: int) -> str | None:
        """The server's turn timer for new tables (one of ``bot.tables.timers.SERVER_CHOICES``), or
        None if it chose none (the bot's TURN_TIMEOUT applies)."""
        row = await self._run(lambda conn: conn.execute(
            "SELECT timer FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone())
        return None if row is None or row["timer"] is None else str(row["timer"])

    async def set_timer(self, guild_id: int, choice: str | None) -> None:
        """Set the server's turn timer for new tables; None goes back to the bot's default.

        ValueError for a choice that is not one of ``bot.tables.timers.SERVER_CHOICES`` (the
        schema refuses it too).
        """
        if choice is not None and choice not in SERVER_CHOICES:
            raise ValueError(f"no server timer {choice!r} (one of {', '.join(SERVER_CHOICES)})")
        stamp = _iso(datetime.now(UTC))
        await self._write(lambda conn: conn.execute(
            """
            INSERT INTO guild_settings (guild_id, timer, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE SET
                timer = excluded.timer,
                updated_at = excluded.updated_at
            """,
            (guild_id, choice, stamp),
        ))

    async def recent_games(
        self, guild_id: int | None, user_id: int, *, limit: int = 5
    ) -> list[RecentGame]:
        """The player's latest finished games in this server, newest first."""
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        rows = await self._run(lambda conn: conn.execute(
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
            (user_id, _guild_key(guild_id), limit, user_id),
        ).fetchall())
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

_BUCKET = "CAST((mu - 3.0 * sigma) * 20 AS INTEGER)"
_PAGE = f"""
SELECT user_id, mu, sigma, games, wins FROM ratings INDEXED BY ratings_board
WHERE guild_id = ? AND game = ? AND mu IS NOT NULL AND {_BUCKET} <= ?
ORDER BY {_BUCKET} DESC, mu - 3.0 * sigma DESC, wins DESC, games DESC, user_id
LIMIT ? OFFSET ?
"""


def _board_page(conn: sqlite3.Connection, key: tuple[int, str], offset: int, limit: int
                ) -> tuple[list[LeaderRow], int]:
    """One leaderboard page and the board's size, without walking the players above it.

    ``board_buckets`` (kept by triggers) says how many players each slice of
    2 rating points holds: adding them up from the top finds the bucket the
    page starts in and the board's size; the page is then read from the
    ``ratings_board`` index from that bucket on, skipping only the players of
    the same bucket ranked above it.
    """
    buckets = conn.execute(
        "SELECT bucket, players FROM board_buckets "
        "WHERE guild_id = ? AND game = ? AND players > 0 ORDER BY bucket DESC",
        key,
    ).fetchall()
    total = sum(row[1] for row in buckets)
    above = 0
    start = None
    for bucket, players in buckets:
        if above + players > offset:
            start = bucket
            break
        above += players
    rows = [] if start is None or limit == 0 else conn.execute(
        _PAGE, (*key, start, limit, offset - above)).fetchall()
    page = [
        LeaderRow(user_id=row["user_id"], rating=display_rating(row["mu"], row["sigma"]),
                  games=row["games"], wins=row["wins"])
        for row in rows
    ]
    return page, total


def _insert_result(conn: sqlite3.Connection, result: GameResult, record: str,
                   table: StoredTable | None) -> bool:
    """The body of :meth:`SqliteStore.record_result` (inside its transaction)."""
    guild = _guild_key(result.guild_id)
    finished_at = _iso(result.finished_at)
    cursor = conn.execute(
        """
        INSERT INTO results (table_id, guild_id, game, finished_at, record)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (table_id) DO NOTHING
        """,
        (result.table_id, guild, result.game, finished_at, record),
    )
    if cursor.rowcount == 0:
        return False  # already recorded; this write changes nothing
    conn.executemany(
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
        finished = table.model_copy(update={"status": TableStatus.FINISHED})
        write_table(conn, finished, record_in_results=True)
    else:
        conn.execute(
            """
            UPDATE tables
            SET status = ?, updated_at = ?,
                doc = json_set(doc, '$.status', ?, '$.updated_at', ?, '$.record', json('null'))
            WHERE id = ?
            """,
            (TableStatus.FINISHED.value, finished_at, TableStatus.FINISHED.value, finished_at,
             result.table_id),
        )
        delete_actions(conn, result.table_id)
    _update_ratings(conn, guild, result.game, humans(result.players), rate=result.rated)
    return True


def _update_ratings(
    conn: sqlite3.Connection, guild: int, game: str, standings: list[Standing], *,
    rate: bool = True,
) -> None:
    """Count the game for every human and, with two or more of them, rate them.

    Runs inside :meth:`SqliteStore.record_result`'s transaction. The humans are
    rated among themselves by place (equal places are a tie); computer seats
    never enter the rating, they only shape the places. Without ``rate`` (a
    game played with hints) the game is only counted.
    """
    if not standings:
        return
    marks = ",".join("?" * len(standings))
    rows = conn.execute(
        f"SELECT user_id, mu, sigma FROM ratings "
        f"WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
        (guild, game, *(h.user_id for h in standings)),
    )
    stored = {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
    new = rate_game(standings, stored, rate=rate)
    conn.executemany(
        """
        INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins)
        VALUES (?, ?, ?, ?, ?, 1, ?)
        ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
            mu = excluded.mu,
            sigma = excluded.sigma,
            games = ratings.games + 1,
            wins = ratings.wins + excluded.wins
        """,
        [(guild, game, h.user_id, *new[h.user_id], int(h.winner)) for h in standings],
    )
