"""``python -m bot migrate-db SQLITE_URL POSTGRES_URL``: a SQLite database with tables in play,
a lobby, finished games, ratings and server settings, moved into PostgreSQL whole; and a
clear error, changing nothing, for a bad URL, an unreachable server, a target in use."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from bot.models import TableStatus
from bot.store.api import Store
from bot.store.migrate import MigrateError, migrate
from bot.store.postgres.store import PostgresStore
from bot.store.sqlite.store import SqliteStore
from bot.tables.context import utc_now
from bot.tables.daily import day_of
from bot.tables.service import TableService
from tests.bot.store.test_store import GUILD, OTHER_GUILD, T0, make_result
from tests.bot.tables.test_stale import PEOPLE, Process, move
from tests.botdriver import settings_for
from tests.stores import Backend

REPO = Path(__file__).resolve().parents[3]
DAY = day_of(utc_now())  # the daily deal the source's person played


def command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate-db", *args], cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=120, check=False)


async def snapshot(store: Store, table_ids: list[str]) -> dict[str, object]:
    """Everything the bot reads, through the store's own methods."""
    return {
        "open": await store.open_tables(),
        "tables": [await store.get_table(t) for t in table_ids],
        "boards": [await store.leaderboard(g, game, limit=50)
                   for g in (GUILD, OTHER_GUILD, None) for game in ("fiasco", "fizzbin")],
        "stats": [await store.stats(GUILD, u) for u in (1, 2, 3, 4)],
        "recent": [await store.recent_games(GUILD, u, limit=20) for u in (1, 2, 3)],
        "settings": [(await store.get_timezone(g), await store.get_pictures(g),
                      await store.get_timer(g)) for g in (GUILD, OTHER_GUILD, 333)],
        "daily": [await store.daily_board(GUILD, "fumblaroo", DAY),
                  await store.daily_try(DAY, "fumblaroo", 6),
                  await store.daily_days("fumblaroo", [6], until=DAY)],
    }


@pytest.fixture
async def source(tmp_path: Path) -> tuple[Path, list[str]]:
    """A SQLite database as a running bot leaves it: a game in play (several moves in), a
    lobby, a closed table, finished and rated games, server settings."""
    path = tmp_path / "source.db"
    store = await SqliteStore.open(path)
    manager = TableService(store, settings_for(tmp_path))
    try:
        playing = await manager.lobby.open(guild_id=GUILD, channel_id=1, host_id=3, host_name="Ana",
                                           game="fumblaroo", options={})
        for user, name in PEOPLE[1:]:
            await manager.lobby.join(playing, user, name)
        await manager.lobby.start(playing, 3)
        for _ in range(7):
            await move(Process(store, manager), playing)
        lobby = await manager.lobby.open(guild_id=GUILD, channel_id=2, host_id=4, host_name="Ben",
                                         game="fiasco", options={})
        closed = await manager.lobby.open(guild_id=None, channel_id=3, host_id=5, host_name="Cy",
                                          game="fiasco", options={})
        await manager.lobby.cancel(closed, 5, name="Cy")
        daily = await manager.lobby.open_daily(guild_id=GUILD, channel_id=4, user_id=6, name="Di",
                                               game="fumblaroo")
        await manager.lobby.end(daily, 6, moderator=False, name="Di")
        for n in range(12):
            players = [(1 + n % 3, 1), (1 + (n + 1) % 3, 2), (None, 3)]
            await store.record_result(make_result(f"done{n}", players,
                                                  finished_at=T0 + timedelta(minutes=n),
                                                  game="fizzbin" if n % 4 == 0 else "fiasco"))
        await store.record_result(make_result("far", [(1, 1), (2, 2)], guild_id=OTHER_GUILD))
        await store.record_result(make_result("dm", [(1, 1), (2, 2)], guild_id=None))
        await store.set_timezone(GUILD, "Pacific/Auckland")
        await store.set_pictures(OTHER_GUILD, False)
        await store.set_timer(OTHER_GUILD, "30s")
        ids = [playing.id, lobby.id, closed.id, "done0", "done5", daily.id]
    finally:
        await manager.shutdown()
        await store.close()
    return path, ids


async def test_everything_is_copied_and_a_game_in_play_plays_on(
    source: tuple[Path, list[str]], postgres: Backend, tmp_path: Path,
) -> None:
    path, ids = source
    counts = await migrate(f"sqlite:///{path}", postgres.url)
    assert counts["tables"] == 4 and counts["results"] == 14 and counts["guild_settings"] == 2
    assert counts["daily_tries"] == 1
    assert counts["table_actions"] == 7
    async with await SqliteStore.open(path) as before, \
            await PostgresStore.open(postgres.url) as after:
        assert await snapshot(after, ids) == await snapshot(before, ids)
        # The game resumes from PostgreSQL where SQLite had it, and its next move is saved
        # over the copied version; new results do not collide with the copied ids.
        manager = TableService(after, settings_for(tmp_path))
        try:
            resumed = await manager.restart.resume_all()
            assert sorted(s.id for s in resumed) == sorted(ids[:2])
            playing = manager.registry.get(ids[0])
            await move(Process(after, manager), playing)
            stored = await after.get_table(ids[0])
            assert stored is not None and stored.status is TableStatus.PLAYING
            assert stored.record is not None and len(stored.record["actions"]) == 8
        finally:
            await manager.shutdown()
        assert await after.record_result(make_result("new", [(1, 1), (2, 2)])) is True
        assert await after.record_result(make_result("done3", [(1, 1), (2, 2)])) is False


async def test_a_target_in_use_is_refused_and_left_alone(
    source: tuple[Path, list[str]], postgres: Backend,
) -> None:
    path, _ = source
    async with await PostgresStore.open(postgres.url) as target:
        await target.set_timezone(GUILD, "Europe/Paris")
    with pytest.raises(MigrateError, match=r"is not empty \(guild_settings has 1 rows\)"):
        await migrate(f"sqlite:///{path}", postgres.url)
    assert await postgres.count("SELECT COUNT(*) FROM results") == 0
    assert await postgres.count("SELECT COUNT(*) FROM guild_settings") == 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_command_says_why_it_cannot_copy(tmp_path: Path) -> None:
    """Each refusal is one line and a non-zero exit; no file is created on the way."""
    missing = tmp_path / "missing.db"
    pg = f"postgresql://fivefold:hunter2@127.0.0.1:{free_port()}/fivefold"
    cases = [
        ((), 2, "usage: python -m bot migrate-db SQLITE_URL POSTGRES_URL"),
        (("fivefold.db", pg), 2, "is not a database URL"),
        ((pg, pg), 2, "the first URL is the SQLite database"),
        ((f"sqlite:///{missing}", f"sqlite:///{missing}"), 2, "the second URL is the PostgreSQL"),
        ((f"sqlite:///{missing}", pg), 1, f"there is no SQLite database at {missing}"),
    ]
    for args, status, says in cases:
        done = command(*args)
        assert (done.returncode, done.stdout) == (status, ""), (args, done.stderr)
        assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "hunter2" not in done.stderr and "Traceback" not in done.stderr
    assert not missing.exists()


async def test_the_command_copies_or_says_the_server_is_unreachable(
    source: tuple[Path, list[str]], postgres: Backend,
) -> None:
    path, _ = source
    unreachable = f"postgresql://fivefold:hunter2@127.0.0.1:{free_port()}/fivefold"
    done = command(f"sqlite:///{path}", unreachable)
    assert done.returncode == 1 and "cannot connect to postgresql://fivefold:***@" in done.stderr
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr
    done = command(f"sqlite:///{path}", postgres.url)
    assert done.returncode == 0, done.stderr
    assert "copied 4 tables, 7 table_actions, 14 results" in done.stdout
    assert "1 daily_tries" in done.stdout
    assert "the counts match" in done.stdout
    again = command(f"sqlite:///{path}", postgres.url)
    assert again.returncode == 1 and "is not empty" in again.stderr
