"""Both stores under one test: the ``backend`` and ``store`` fixtures run a test on SQLite and
on a real PostgreSQL server.

PostgreSQL is the server ``FIVEFOLD_TEST_POSTGRES_URL`` names (``scripts/test`` and ``.ci/run``
start one with ``scripts/postgres``); each test gets a schema of its own on it, dropped after.
Without a server those tests are skipped with the reason, unless
``FIVEFOLD_REQUIRE_POSTGRES`` is set (CI), where a missing server fails them.

A test looks at what a store wrote through :class:`Backend`, on a connection of its own,
never through the store's.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store.api import Store
from bot.store.connect import open_store

POSTGRES_URL = os.environ.get("FIVEFOLD_TEST_POSTGRES_URL", "").strip()
NO_POSTGRES = ("no PostgreSQL server: FIVEFOLD_TEST_POSTGRES_URL is unset (./scripts/test "
               "starts one when Debian's postgresql is installed)")
BACKENDS = ("sqlite", "postgresql")


def need_postgres() -> str:
    """The test server's URL, or skip (fail under ``FIVEFOLD_REQUIRE_POSTGRES``) without one."""
    if not POSTGRES_URL:
        if os.environ.get("FIVEFOLD_REQUIRE_POSTGRES"):
            pytest.fail(f"FIVEFOLD_REQUIRE_POSTGRES is set but there is {NO_POSTGRES[3:]}")
        pytest.skip(NO_POSTGRES)
    return POSTGRES_URL


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections work in ``schema`` (asyncpg passes it as a server setting)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


@dataclass
class Backend:
    """One database of one backend for one test: its URL, and a look at what is stored."""

    name: str
    url: str
    path: Path | None = None  # the SQLite file
    dsn: str | None = None  # the PostgreSQL URL (with this test's schema)

    @property
    def integrity_error(self) -> type[Exception]:
        """What the backend's driver raises for a row its constraints refuse."""
        if self.name == "sqlite":
            return sqlite3.IntegrityError
        return asyncpg.IntegrityConstraintViolationError

    async def open(self) -> Store:
        return await open_store(self.url)

    def _sql(self, sql: str) -> str:
        """``?`` placeholders as ``$1, $2, ...`` for PostgreSQL."""
        if self.name == "sqlite":
            return sql
        parts = sql.split("?")
        return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))

    async def fetch(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (``?`` placeholders) on a connection of the test's own."""
        if self.path is not None:
            conn = sqlite3.connect(self.path)
            try:
                return [tuple(row) for row in conn.execute(sql, params).fetchall()]
            finally:
                conn.close()
        assert self.dsn is not None
        conn = await asyncpg.connect(self.dsn)
        try:
            return [tuple(row) for row in await conn.fetch(self._sql(sql), *params)]
        finally:
            await conn.close()

    async def count(self, sql: str, *params: Any) -> int:
        return int((await self.fetch(sql, *params))[0][0])

    async def execute(self, sql: str, rows: Sequence[Sequence[Any]] = ((),)) -> None:
        """Run ``sql`` once per parameter row, in one transaction, on the test's connection."""
        if self.path is not None:
            conn = sqlite3.connect(self.path)
            try:
                with conn:
                    conn.executemany(sql, rows)
            finally:
                conn.close()
            return
        assert self.dsn is not None
        conn = await asyncpg.connect(self.dsn)
        try:
            async with conn.transaction():
                await conn.executemany(self._sql(sql), rows)
        finally:
            await conn.close()

    async def head_record(self, table_id: str) -> Any:
        """The record kept in the table's head document (None when it keeps none)."""
        sql = ("SELECT json_extract(doc, '$.record') FROM tables WHERE id = ?"
               if self.name == "sqlite" else "SELECT doc->'record' FROM tables WHERE id = ?")
        [(value,)] = await self.fetch(sql, table_id)
        return None if value in (None, "null") else json.loads(value)

    async def count_action_writes(self) -> None:
        """From now on, count every row inserted into or deleted from ``table_actions``
        (read with :meth:`action_writes`): what a save costs, whatever the backend."""
        if self.name == "sqlite":
            await self.execute("CREATE TABLE action_writes (n INTEGER)")
            await self.execute("INSERT INTO action_writes VALUES (0)")
            for event in ("INSERT", "DELETE"):
                await self.execute(f"CREATE TRIGGER count_{event.lower()} AFTER {event} ON "
                                   "table_actions BEGIN UPDATE action_writes SET n = n + 1; END")
            return
        await self.execute("CREATE TABLE action_writes (n INTEGER)")
        await self.execute("INSERT INTO action_writes VALUES (0)")
        await self.execute("CREATE FUNCTION count_action() RETURNS trigger LANGUAGE plpgsql AS "
                           "$$ BEGIN UPDATE action_writes SET n = n + 1; RETURN NULL; END $$")
        await self.execute("CREATE TRIGGER count_action AFTER INSERT OR DELETE ON table_actions "
                           "FOR EACH ROW EXECUTE FUNCTION count_action()")

    async def action_writes(self) -> int:
        return await self.count("SELECT n FROM action_writes")


async def make_backend(name: str, tmp_path: Path) -> AsyncIterator[Backend]:
    """A fresh, empty database of backend ``name`` (dropped after the test)."""
    if name == "sqlite":
        path = tmp_path / "fivefold.db"
        yield Backend("sqlite", f"sqlite:///{path}", path=path)
        return
    url = need_postgres()
    schema = f"test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield Backend("postgresql", with_schema(url, schema), dsn=with_schema(url, schema))
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """An empty database, once on SQLite and once on PostgreSQL."""
    async for made in make_backend(request.param, tmp_path):
        yield made


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    """A store open on :func:`backend`'s database, closed after the test."""
    opened = await backend.open()
    yield opened
    await opened.close()


@pytest.fixture
async def postgres(tmp_path: Path) -> AsyncIterator[Backend]:
    """An empty PostgreSQL schema only (skipped, with the reason, without a server)."""
    async for made in make_backend("postgresql", tmp_path):
        yield made
