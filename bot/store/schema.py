"""Numbered migrations, one folder per backend, each applied in one transaction.

``bot/store/sqlite/migrations/NNNN_name.sql`` is SQLite's schema, ``bot/store/postgres/migrations/``
PostgreSQL's; each backend numbers its own 1, 2, ... without gaps. Opening a
store applies every migration newer than the database's version, all in one
transaction (so a failure changes nothing), under a lock (so two processes
opening one database at once cannot both apply a step), and refuses a database
written by a newer bot (:class:`SchemaTooNewError`) rather than misread it.
SQLite keeps the version in ``PRAGMA user_version``, PostgreSQL in the
one-row table ``fivefold_schema``.
"""

from __future__ import annotations

import importlib.resources
import re
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.store.api import StoreError

if TYPE_CHECKING:
    from typing import Any, TypeAlias

    import aiosqlite
    import asyncpg
    from asyncpg.pool import PoolConnectionProxy

    PgConnection: TypeAlias = asyncpg.Connection[Any] | PoolConnectionProxy[Any]
    """A connection of its own or one lent by a pool: the PostgreSQL store uses both."""

SQLITE_MIGRATIONS = "bot.store.sqlite.migrations"
POSTGRES_MIGRATIONS = "bot.store.postgres.migrations"
POSTGRES_LOCK = 0x5F1FEF01D
"""The advisory lock key that serialises migrations of one PostgreSQL database."""

_MIGRATION_NAME = re.compile(r"(\d{4})_([A-Za-z0-9_]+)\.sql")


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot than this one."""


class MigrationError(StoreError):
    """A migration failed or the migration files are inconsistent; nothing was changed."""


@dataclass(frozen=True)
class Migration:
    """One numbered migration file: applying it takes the schema to ``version``."""

    version: int
    name: str
    sql: str

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"


def load_migrations(package: str = SQLITE_MIGRATIONS) -> list[Migration]:
    """Read the ``NNNN_name.sql`` files shipped in ``package``, in order.

    Raises :class:`MigrationError` unless they are numbered 1, 2, ... without
    gaps or duplicates, so a misnamed file cannot silently skip a step.
    """
    found: list[Migration] = []
    for entry in importlib.resources.files(package).iterdir():
        match = _MIGRATION_NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def pending(migrations: list[Migration], current: int) -> list[Migration]:
    """The migrations a database at ``current`` still needs; SchemaTooNewError if it is ahead."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise SchemaTooNewError(
            f"the database is at schema version {current} but this version of the bot "
            f"only knows up to {latest}: it was written by a newer Fivefold. "
            "Upgrade the bot (or restore a backup) instead of downgrading."
        )
    return [m for m in migrations if m.version > current]


# --------------------------------------------------------------------------- SQLite


def split_statements(sql: str) -> list[str]:
    """Split a SQLite migration script into single statements for ``execute``.

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


async def migrate_sqlite(db: aiosqlite.Connection, migrations: list[Migration]) -> None:
    """Bring a SQLite database up to date in one ``BEGIN IMMEDIATE`` transaction.

    The version is read after the lock is taken, so two processes opening the
    same file at once cannot both apply a step. On any failure everything is
    rolled back and the database keeps its old version.
    """
    await db.execute("BEGIN IMMEDIATE")
    try:
        [(current,)] = await db.execute_fetchall("PRAGMA user_version")
        for migration in pending(migrations, int(current)):
            try:
                for statement in split_statements(migration.sql):
                    await db.execute(statement)
            except sqlite3.Error as error:
                raise MigrationError(f"migration {migration.label} failed: {error}") from error
            # An int, never user input: safe to format into the PRAGMA.
            await db.execute(f"PRAGMA user_version = {migration.version:d}")
        if await db.execute_fetchall("PRAGMA foreign_key_check"):
            raise MigrationError("the migrated database violates its foreign keys")
        await db.execute("COMMIT")
    except BaseException:
        await db.execute("ROLLBACK")
        raise


# --------------------------------------------------------------------------- PostgreSQL


async def postgres_version(conn: PgConnection) -> int:
    """The schema version of the connection's database (0 for an empty one)."""
    exists = await conn.fetchval("SELECT to_regclass('fivefold_schema') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT version FROM fivefold_schema"))


async def migrate_postgres(conn: PgConnection, migrations: list[Migration]) -> None:
    """Bring a PostgreSQL database up to date in one transaction, under an advisory lock.

    PostgreSQL's DDL is transactional, so a failing step rolls back every step
    of this run and the version with them.
    """
    import asyncpg

    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", POSTGRES_LOCK)
        current = await postgres_version(conn)
        steps = pending(migrations, current)
        if not steps:
            return
        if current == 0:
            await conn.execute("CREATE TABLE fivefold_schema (version INTEGER NOT NULL, "
                               "one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one))")
            await conn.execute("INSERT INTO fivefold_schema (version) VALUES (0)")
        for migration in steps:
            try:
                await conn.execute(migration.sql)
            except asyncpg.PostgresError as error:
                raise MigrationError(f"migration {migration.label} failed: {error}") from error
            await conn.execute("UPDATE fivefold_schema SET version = $1", migration.version)


__all__ = ["POSTGRES_MIGRATIONS", "SQLITE_MIGRATIONS", "Migration", "MigrationError",
           "SchemaTooNewError", "load_migrations", "migrate_postgres", "migrate_sqlite",
           "pending", "postgres_version", "split_statements"]
