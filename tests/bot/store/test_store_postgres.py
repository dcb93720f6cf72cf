"""What only the PostgreSQL store has: its schema's migrations and version, the server's
errors (unreachable, a wrong password) said clearly, and processes opening one empty
database at once. Everything both stores owe is in ``test_store.py``; these tests run on the
test server (``tests/stores.py``) and are skipped, with the reason, without one."""

from __future__ import annotations

import asyncio
import socket

import asyncpg
import pytest

import bot.store.postgres.store as pgstore_module
from bot.store.api import StoreError
from bot.store.connect import open_store
from bot.store.postgres.store import PostgresStore
from bot.store.schema import (
    POSTGRES_MIGRATIONS,
    Migration,
    MigrationError,
    SchemaTooNewError,
    load_migrations,
)
from tests.bot.store.test_store import make_table
from tests.stores import Backend, need_postgres

LATEST = len(load_migrations(POSTGRES_MIGRATIONS))


async def schema_version(backend: Backend) -> int:
    return await backend.count("SELECT version FROM fivefold_schema")


async def relations(backend: Backend) -> set[str]:
    rows = await backend.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return {row[0] for row in rows}


async def test_an_empty_database_gets_every_migration_once(postgres: Backend) -> None:
    async with await PostgresStore.open(postgres.url):
        pass
    assert await schema_version(postgres) == LATEST
    assert {"tables", "table_actions", "results", "result_players", "ratings",
            "board_buckets", "guild_settings", "fivefold_schema"} <= await relations(postgres)
    async with await PostgresStore.open(postgres.url) as again:
        await again.create_table(make_table("t"))
    assert await schema_version(postgres) == LATEST


async def test_processes_opening_one_empty_database_at_once_migrate_it_once(
    postgres: Backend,
) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(postgres.url) for _ in range(4)))
    try:
        assert await schema_version(postgres) == LATEST
        await stores[0].create_table(make_table("t"))
        assert [t.id for t in await stores[3].open_tables()] == ["t"]
    finally:
        for store in stores:
            await store.close()


async def test_a_database_from_a_newer_bot_is_refused(postgres: Backend) -> None:
    async with await PostgresStore.open(postgres.url):
        pass
    await postgres.execute("UPDATE fivefold_schema SET version = version + 1")
    with pytest.raises(SchemaTooNewError, match="newer"):
        await PostgresStore.open(postgres.url)
    assert await schema_version(postgres) == LATEST + 1  # left untouched


async def test_a_failing_migration_changes_nothing(postgres: Backend,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    real = load_migrations(POSTGRES_MIGRATIONS)
    broken = Migration(LATEST + 1, "broken", "CREATE TABLE extra (x int); SELECT * FROM nowhere;")
    monkeypatch.setattr(pgstore_module, "load_migrations", lambda _: [*real, broken])
    with pytest.raises(MigrationError, match=f"{LATEST + 1:04d}_broken"):
        await PostgresStore.open(postgres.url)
    assert await relations(postgres) == set()  # not even the steps before it


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    url = f"postgresql://fivefold:s3cret@127.0.0.1:{free_port()}/fivefold"
    with pytest.raises(StoreError, match="cannot connect to postgresql://fivefold:\\*\\*\\*@") as e:
        await open_store(url)
    assert "s3cret" not in str(e.value)


async def test_a_wrong_password_is_a_clear_error() -> None:
    url = need_postgres()
    user = url.split("//", 1)[1].split(":", 1)[0]
    wrong = url.replace(f"{user}:", f"{user}:not-", 1)
    with pytest.raises(StoreError, match="password authentication failed") as caught:
        await open_store(wrong)
    assert isinstance(caught.value.__cause__, asyncpg.InvalidPasswordError)
    assert "not-" not in str(caught.value)
