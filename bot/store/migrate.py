"""``python -m bot migrate-db SQLITE_URL POSTGRES_URL``: move a SQLite database into PostgreSQL.

Everything is copied as it is stored (the two stores share one layout): tables with their
versions and actions, results with their players, ratings (all time and per season),
server settings, the tries at the daily deals. The SQLite file
is first brought up to date the way the bot would at start-up (its migrations), then read
from a read-only connection; the PostgreSQL database is created or migrated the same way and
must hold no data yet. The copy is one transaction: the row counts of every table are
compared with the source's before it commits, so a copy that does not add up leaves the
target as it was. Stop the bot first, so the file does not change during the copy.

Exit status: 0 copied; 2 a bad command line or URL; 1 the copy could not be made (no such
file, an unreachable server, a target that is not empty, counts that differ).
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.api import StoreError
from bot.store.postgres.store import PostgresStore
from bot.store.rows import utc
from bot.store.sqlite.store import SqliteStore
from bot.store.url import parse_database_url, redact

USAGE = "usage: python -m bot migrate-db SQLITE_URL POSTGRES_URL"
EXIT_FAILED = 1
EXIT_USAGE = 2


class MigrateError(Exception):
    """The copy cannot be made; the message says why (and the target is unchanged)."""


def _when(text: str) -> datetime:
    return utc(datetime.fromisoformat(text))


@dataclass(frozen=True)
class Copy:
    """How one table is copied: its columns, and how each SQLite value becomes PostgreSQL's."""

    table: str
    columns: tuple[str, ...]
    key: str
    convert: dict[str, Callable[[Any], Any]]

    def rows(self, source: sqlite3.Connection) -> Iterator[tuple[Any, ...]]:
        cursor = source.execute(f"SELECT {', '.join(self.columns)} FROM {self.table} "
                                f"ORDER BY {self.key}")
        for row in cursor:
            yield tuple(self.convert[c](v) if c in self.convert and v is not None else v
                        for c, v in zip(self.columns, row, strict=True))


COPIES = (
    Copy("tables", ("id", "guild_id", "channel_id", "message_id", "host_id", "game", "status",
                    "version", "doc", "created_at", "updated_at"), "id",
         {"created_at": _when, "updated_at": _when}),
    Copy("table_actions", ("table_id", "n", "action"), "table_id, n", {}),
    Copy("results", ("id", "table_id", "guild_id", "game", "finished_at", "record"), "id",
         {"finished_at": _when}),
    Copy("result_players", ("result_id", "seat", "user_id", "name", "score", "place", "winner",
                            "guild_id", "finished_at"), "result_id, seat",
         {"winner": bool, "finished_at": _when}),
    Copy("ratings", ("guild_id", "game", "user_id", "mu", "sigma", "games", "wins"),
         "guild_id, game, user_id", {}),
    Copy("guild_settings", ("guild_id", "timezone", "pictures", "timer", "updated_at"),
         "guild_id",
         {"pictures": bool, "updated_at": _when}),
    Copy("season_ratings", ("guild_id", "game", "season", "user_id", "mu", "sigma", "games",
                            "wins"), "guild_id, game, season, user_id", {}),
    Copy("daily_tries", ("day", "game", "user_id", "guild_id", "table_id", "started_at",
                         "finished_at", "score", "place"), "day, game, user_id",
         {"started_at": _when, "finished_at": _when}),
)
"""In an order that satisfies the foreign keys (actions after tables, players after results)."""


def _sqlite_path(url: str) -> Path:
    where = parse_database_url(url)
    if where.backend != "sqlite":
        raise ValueError(f"the first URL is the SQLite database to copy from, e.g. "
                         f"sqlite:///fivefold.db; got {where}")
    if where.target == ":memory:":
        raise ValueError("an in-memory SQLite database has nothing to copy")
    return Path(where.target)


def _postgres_dsn(url: str) -> str:
    where = parse_database_url(url)
    if where.backend != "postgresql":
        raise ValueError(f"the second URL is the PostgreSQL database to copy into, e.g. "
                         f"postgresql://fivefold:secret@localhost/fivefold; got {where}")
    return where.target


async def migrate(source_url: str, target_url: str) -> dict[str, int]:
    """Copy the SQLite database into the empty PostgreSQL one; the rows copied per table.

    Raises ValueError for URLs of the wrong kind and :class:`MigrateError` (or
    :class:`StoreError`) when the copy cannot be made.
    """
    path, dsn = _sqlite_path(source_url), _postgres_dsn(target_url)
    if not path.is_file():
        raise MigrateError(f"there is no SQLite database at {path}")
    await (await SqliteStore.open(path)).close()  # its schema brought up to date, as at start
    await (await PostgresStore.open(dsn)).close()  # connected, created or migrated
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        counts = {c.table: int(source.execute(f"SELECT COUNT(*) FROM {c.table}").fetchone()[0])
                  for c in COPIES}
        target = await asyncpg.connect(dsn)
        try:
            async with target.transaction():
                await _require_empty(target, redact(dsn))
                await _copy(source, target)
                await _check_counts(target, counts)
            # The copy is committed: fresh statistics for the planner, and no dead rows.
            await target.execute(f"VACUUM ANALYZE {', '.join(c.table for c in COPIES)}, "
                                 "board_buckets")
        finally:
            await target.close()
    finally:
        source.close()
    return counts


async def _copy(source: sqlite3.Connection, target: asyncpg.Connection[Any]) -> None:
    """Every row, with COPY. The leaderboard's bucket counts are built once at the end
    rather than by the ratings trigger row by row (which is off meanwhile, in this
    transaction only)."""
    await target.execute("ALTER TABLE ratings DISABLE TRIGGER ratings_board_buckets")
    for copy in COPIES:
        await target.copy_records_to_table(copy.table, records=list(copy.rows(source)),
                                           columns=list(copy.columns))
    await target.execute("ALTER TABLE ratings ENABLE TRIGGER ratings_board_buckets")
    await target.execute(
        "INSERT INTO board_buckets (guild_id, game, bucket, players) "
        "SELECT guild_id, game, floor((mu - 3.0 * sigma) * 20)::integer, COUNT(*) "
        "FROM ratings WHERE mu IS NOT NULL GROUP BY 1, 2, 3")
    await target.execute("SELECT setval(pg_get_serial_sequence('results', 'id'), "
                         "COALESCE(MAX(id), 0) + 1, false) FROM results")


async def _require_empty(target: asyncpg.Connection[Any], where: str) -> None:
    for copy in COPIES:
        rows = await target.fetchval(f"SELECT COUNT(*) FROM {copy.table}")
        if rows:
            raise MigrateError(f"{where} is not empty ({copy.table} has {rows} rows): "
                               "migrate-db copies only into a new database")


async def _check_counts(target: asyncpg.Connection[Any], expected: dict[str, int]) -> None:
    for table, wanted in expected.items():
        copied = await target.fetchval(f"SELECT COUNT(*) FROM {table}")
        if copied != wanted:
            raise MigrateError(f"{table}: {copied} rows copied but the source has {wanted}; "
                               "nothing was kept")


def main(argv: list[str]) -> int:
    """The ``migrate-db`` command: one line of what was copied, or of why not."""
    if len(argv) != 2:
        print(USAGE, file=sys.stderr)
        return EXIT_USAGE
    try:
        counts = asyncio.run(migrate(argv[0], argv[1]))
    except ValueError as exc:
        print(f"fivefold migrate-db: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (MigrateError, StoreError, sqlite3.Error, asyncpg.PostgresError) as exc:
        print(f"fivefold migrate-db: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print("fivefold migrate-db: copied " + ", ".join(f"{n} {t}" for t, n in counts.items())
          + f" into {redact(_postgres_dsn(argv[1]))}; the counts match")
    return 0


__all__ = ["COPIES", "MigrateError", "main", "migrate"]
