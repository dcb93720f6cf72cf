"""``DATABASE_URL``: which store it names, how a bad one is refused, ``DATABASE_PATH`` as a
shorthand, and ``open_store`` opening what the settings name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.store.connect import open_store
from bot.store.sqlite.store import SqliteStore
from bot.store.url import DatabaseUrl, parse_database_url, redact
from tests.botdriver import settings_for

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("url", "expected"), [
    ("sqlite:///fivefold.db", DatabaseUrl("sqlite", "fivefold.db")),
    ("sqlite:////var/lib/fivefold/x.db", DatabaseUrl("sqlite", "/var/lib/fivefold/x.db")),
    ("SQLITE:///:memory:", DatabaseUrl("sqlite", ":memory:")),
    ("postgresql://ana:pw@db:5432/fivefold",
     DatabaseUrl("postgresql", "postgresql://ana:pw@db:5432/fivefold")),
    ("postgres://db/fivefold", DatabaseUrl("postgresql", "postgres://db/fivefold")),
])
def test_a_url_names_its_backend_and_where(url: str, expected: DatabaseUrl) -> None:
    assert parse_database_url(url) == expected


@pytest.mark.parametrize(("url", "says"), [
    ("fivefold.db", "is not a database URL"),
    ("sqlite://fivefold.db", "three slashes"),
    ("sqlite:///", "three slashes"),
    ("mysql://root:hunter2@db/fivefold", "unknown database 'mysql'"),
    ("postgresql:///fivefold", "names its server"),
])
def test_a_bad_url_says_what_is_wrong(url: str, says: str) -> None:
    with pytest.raises(ValueError, match=says) as caught:
        parse_database_url(url)
    assert "hunter2" not in str(caught.value)


def test_a_password_never_reaches_a_message() -> None:
    assert redact("postgresql://ana:s3cret@db:5432/x") == "postgresql://ana:***@db:5432/x"
    assert str(parse_database_url("postgresql://ana:s3cret@db/x")) == "postgresql://ana:***@db/x"
    assert redact("postgresql://db/x") == "postgresql://db/x"


def test_database_url_wins_and_database_path_is_the_sqlite_shorthand(tmp_path: Path) -> None:
    assert settings_for(tmp_path, database_path="a.db").store_url == "sqlite:///a.db"
    both = settings_for(tmp_path, database_path="a.db", database_url="postgresql://db/x")
    assert both.store_url == "postgresql://db/x"  # the Docker image always sets the path
    assert settings_for(tmp_path, database_url="").store_url.startswith("sqlite:///")
    plain = Settings(_env_file=None)  # type: ignore[call-arg]
    assert plain.store_url == "sqlite:///fivefold.db" or "DATABASE_URL" in os.environ


def test_a_bad_database_url_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "x", "DATABASE_URL": "mysql://root:hunter2@db/x",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "DATABASE_URL" in done.stderr, done.stderr
    assert "unknown database 'mysql'" in done.stderr and "hunter2" not in done.stderr


async def test_open_store_opens_the_sqlite_file_the_settings_name(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "f.db"
    store = await open_store(settings_for(tmp_path, database_url=f"sqlite:///{path}").store_url)
    try:
        assert isinstance(store, SqliteStore) and path.exists()
    finally:
        await store.close()


def test_a_sqlite_bot_never_loads_the_postgresql_driver(tmp_path: Path) -> None:
    """The SQLite deployment needs nothing else: opening its store loads no asyncpg."""
    script = ("import asyncio, sys\n"
              "import bot.app, cogs.commands.tables, cogs.commands.stats, "
              "cogs.commands.settings\n"
              "from bot.store.connect import open_store\n"
              f"store = asyncio.run(open_store('sqlite:///{tmp_path / 'f.db'}'))\n"
              "print('asyncpg' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr
