"""Two bot processes splitting two shards on one database, through the fake Discord.

Each process (``SHARD_COUNT=2``, ``SHARD_IDS=0`` or ``1``) connects one shard; the
fake sends each server's events only to the shard that holds it. A table in a
server of each shard is played at once; the process of shard 0 is SIGKILLed
right after an acknowledged move, the other keeps playing meanwhile, and a new
process for shard 0 resumes its table (and only it) from the database: both
games are finished from their old table messages, and every acknowledged action
is in the records, in order, exactly once. It runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest_asyncio

from bot.models import StoredTable, TableStatus
from bot.store.api import Store
from bot.store.connect import open_store
from tests.botprocess import bot_process, kill_leaving_nothing, try_move, until_enabled
from tests.custom_ids import move_words
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, StoredMessage
from tests.stores import Backend

SHARDS = 2
MOVES_BEFORE_KILL = 4


@dataclass
class ShardedWorld:
    fake: FakeDiscord
    guilds: list[FakeGuild]
    """``guilds[i]`` lives on shard i."""
    tables: list[FakeChannel]
    people: list[FakeUser]


@dataclass
class Table:
    """One table being played: its message and every action the fake saw acknowledged."""

    message: StoredMessage
    acknowledged: list[tuple[int, str]] = field(default_factory=list)
    """(user id, action words) of each acknowledged click, in order."""


@pytest_asyncio.fixture
async def sharded() -> AsyncIterator[ShardedWorld]:
    async with FakeDiscord() as fake:
        fake.shard_count = SHARDS
        guilds = [fake.add_guild(f"shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
        tables = [fake.add_channel(guild, "card-table") for guild in guilds]
        people = [fake.add_user("alice"), fake.add_user("bob")]
        yield ShardedWorld(fake, guilds, tables, people)
    fake.assert_no_violations()


async def open_and_start(world: ShardedWorld, shard: int) -> Table:
    """Alice opens Fiasco in shard ``shard``'s server, Bob joins, Alice starts."""
    fake, (alice, bob) = world.fake, world.people
    opened = await fake.slash(alice, world.tables[shard], "play fiasco")
    assert opened.message is not None and not opened.ephemeral, opened
    await fake.click(bob, opened.message, "Join")
    await until_enabled(fake, opened.message, "Start")
    await fake.click(alice, opened.message, "Start")
    await until_enabled(fake, opened.message, "Show my hand")
    return Table(opened.message)


async def play(world: ShardedWorld, table: Table, moves: int | None = None) -> None:
    """``moves`` acknowledged moves at ``table`` (None: until nobody has a move)."""
    while moves is None or moves > 0:
        moved = await try_move(world.fake, table.message, world.people)
        if moved is None:
            assert moves is None, "nobody has a move in the middle of the game"
            return
        who, custom_id = moved
        table.acknowledged.append((who.id, move_words(custom_id)))
        if moves is not None:
            moves -= 1


def assert_record_holds(stored: StoredTable, table: Table) -> None:
    """The record's actions are exactly the acknowledged clicks, in order (no computers)."""
    actions = stored.record["actions"] if stored.record else []
    seats = {s.user_id: i for i, s in enumerate(stored.seats)}
    assert len(actions) == len(table.acknowledged), (actions, table.acknowledged)
    for line, (user_id, words) in zip(actions, table.acknowledged, strict=True):
        assert line.startswith(f"{seats[user_id]} ") and words in line, (line, words)


async def stored(store: Store, table: Table) -> StoredTable:
    found = [t for t in await store.open_tables() if t.message_id == table.message.id]
    if found:
        return found[0]
    raise AssertionError(f"table of message {table.message.id} is not open in the store")


def resumed_count(log: Path) -> int:
    match = re.search(r"is ready: \d+ server\(s\), (\d+) table\(s\) resumed", log.read_text())
    assert match is not None, log.read_text()
    return int(match.group(1))


async def test_two_shard_processes_share_one_database_and_a_killed_ones_tables_finish(
    sharded: ShardedWorld, tmp_path: Path, backend: Backend
) -> None:
    """Once on one SQLite file (WAL), once on PostgreSQL (``tests.stores.backend``)."""
    world, fake, url = sharded, sharded.fake, backend.url

    def shard_env(shard: int) -> dict[str, str]:
        return {"SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard), "DATABASE_URL": url}

    async with (bot_process(fake, tmp_path, "shard0", env=shard_env(0), shard=(0, 2)) as first,
                bot_process(fake, tmp_path, "shard1", env=shard_env(1), shard=(1, 2))):
        assert {s.shard for s in fake.sessions.values()} == {(0, 2), (1, 2)}
        zero, one = await asyncio.gather(open_and_start(world, 0), open_and_start(world, 1))

        async def kill_shard_zero_mid_game() -> None:
            await play(world, zero, MOVES_BEFORE_KILL)
            # At once: the acknowledged moves must be saved, and its workers end with it.
            await kill_leaving_nothing(fake, first)

        # Shard 1's table plays on throughout: while shard 0 is played, killed and gone.
        await asyncio.gather(kill_shard_zero_mid_game(), play(world, one, 2 * MOVES_BEFORE_KILL))
        assert first.returncode == -signal.SIGKILL
        store = await open_store(url)
        try:
            assert_record_holds(await stored(store, zero), zero)
            await play(world, one, 2)  # shard 0 is down; shard 1 does not notice
            assert_record_holds(await stored(store, one), one)
        finally:
            await store.close()

        requests = len(fake.requests)
        async with bot_process(fake, tmp_path, "shard0-again", env=shard_env(0), shard=(0, 2)):
            # It resumes its table from the database and re-renders the old table message.
            await fake.wait_for(lambda: any(
                r.method == "PATCH" and r.path.endswith(f"/messages/{zero.message.id}")
                for r in fake.requests[requests:]), 5)
            assert resumed_count(tmp_path / "shard0-again.log") == 1  # shard 1's table is not its
            await asyncio.gather(play(world, zero), play(world, one))

    store = await open_store(url)
    try:
        assert await store.open_tables() == []
        for table, guild in ((zero, world.guilds[0]), (one, world.guilds[1])):
            [game] = await store.recent_games(guild.id, world.people[0].id)
            finished = await store.get_table(game.table_id)
            assert finished is not None and finished.status is TableStatus.FINISHED
            assert finished.message_id == table.message.id
            assert_record_holds(finished, table)
    finally:
        await store.close()
    assert resumed_count(tmp_path / "shard1.log") == 0
    for log in ("shard1", "shard0-again"):
        assert "Traceback" not in (tmp_path / f"{log}.log").read_text()

