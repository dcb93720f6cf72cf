"""The SQLite store: tables to resume after a restart, finished games, ratings.

:class:`SqliteStore` implements :class:`bot.store_api.Store` on one sqlite3
connection per store, used only from the store's own thread
(:mod:`bot.store_thread`); how a table is laid out is in :mod:`bot.store_tables`.

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
    the leaderboard). A game played with hints (``GameResult.rated`` False) is
    counted the same way but rates nobody. The displayed rating is :func:`display_rating`:
    ``round(1000 + 40 * (mu - 3 * sigma))``, i.e. 1000 for a new player.
"""

from __future__ import annotations

import importlib.resources
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

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
from bot.store_api import StoreError
from bot.store_tables import delete_actions, dump, read_tables, write_table
from bot.store_tables import iso as _iso
from bot.store_tables import utc as _utc
from bot.store_thread import GroupCommitError, StoreThread

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

RATING_BASE = 1000
"""The displayed rating of a new player (whose OpenSkill ordinal is 0)."""

RATING_SCALE = 40
"""Displayed points per unit of OpenSkill ordinal (a decisive first win is worth ~+130)."""

T = TypeVar("T")
_MODEL = PlackettLuce()
_OPEN_STATUSES = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)
_MIGRATION_NAME = re.compile(r"(\d{4})_([A-Za-z0-9_]+)\.sql")


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






def _parse_iso(text: str) -> datetime:
    """A stored ISO string back to an aware datetime."""
    return _utc(datetime.fromisoformat(text))




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
        _migrate(conn, load_migrations())
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
    """The :class:`bot.store_api.Store` protocol on SQLite; create it with :meth:`open`."""

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
        if table is not None and table.record != result.record:
            raise ValueError(f"table {table.id}'s record is not the result's record")
        record = dump(result.model_dump(mode="json")["record"])
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
    _update_ratings(conn, guild, result.game, _humans(result.players), rate=result.rated)
    return True


def _user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database header."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _migrate(conn: sqlite3.Connection, migrations: list[Migration]) -> None:
    """Apply every migration newer than the database's version, all in one transaction.

    The version is re-read after ``BEGIN IMMEDIATE`` so two processes opening
    the same file at once cannot both apply a step. On any failure everything
    is rolled back and the database keeps its old version.
    """
    latest = migrations[-1].version if migrations else 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = _user_version(conn)
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
                    conn.execute(statement)
            except sqlite3.Error as error:
                raise MigrationError(
                    f"migration {migration.version:04d}_{migration.name} failed: {error}"
                ) from error
            # An int, never user input: safe to format into the PRAGMA.
            conn.execute(f"PRAGMA user_version = {migration.version:d}")
        if conn.execute("PRAGMA foreign_key_check").fetchall():
            raise MigrationError("the migrated database violates its foreign keys")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _rating(mu: Any, sigma: Any) -> PlackettLuceRating:
    """A stored rating, or the model's default for a player never rated."""
    if mu is None or sigma is None:
        return _MODEL.rating()
    return _MODEL.rating(mu=float(mu), sigma=float(sigma))


def _update_ratings(
    conn: sqlite3.Connection, guild: int, game: str, humans: list[_Standing], *,
    rate: bool = True,
) -> None:
    """Count the game for every human and, with two or more of them, rate them.

    Runs inside :meth:`SqliteStore.record_result`'s transaction. The humans are
    rated among themselves by place (equal places are a tie); computer seats
    never enter the rating, they only shape the places. Without ``rate`` (a
    game played with hints) the game is only counted.
    """
    if not humans:
        return
    marks = ",".join("?" * len(humans))
    rows = conn.execute(
        f"SELECT user_id, mu, sigma FROM ratings "
        f"WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
        (guild, game, *(h.user_id for h in humans)),
    )
    stored: dict[int, tuple[Any, Any]] = {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
    new: dict[int, tuple[float | None, float | None]] = {
        h.user_id: stored.get(h.user_id, (None, None)) for h in humans
    }
    if rate and len(humans) >= 2:
        teams = [[_rating(*new[h.user_id])] for h in humans]
        rated = _MODEL.rate(teams, ranks=[float(h.place) for h in humans])
        for human, team in zip(humans, rated, strict=True):
            new[human.user_id] = (team[0].mu, team[0].sigma)
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
        [(guild, game, h.user_id, *new[h.user_id], int(h.winner)) for h in humans],
    )
