"""Sharding without Discord: the settings, the shard plan, and which tables a process plays.

A process with ``SHARD_COUNT=2, SHARD_IDS=0`` resumes, expires, opens and plays only
tables of servers on shard 0 (``(guild_id >> 22) % 2 == 0``); another shard's table,
even one long expired, is left as the database has it, and a click for it is
refused with a reason.
"""

from __future__ import annotations

import datetime as dt
import doctest
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import bot.shards
from bot.app import create_bot, shard_options
from bot.models import Seat, StoredTable, TableStatus
from bot.settings import Settings
from bot.shards import NotOurShard, ShardPlan, shard_of
from bot.store.sqlite.store import SqliteStore
from bot.tables.context import utc_now as now
from bot.tables.service import TableService
from tests.botdriver import settings_for

ON_ZERO = 4 << 22  # (id >> 22) % 2 == 0
ON_ONE = 5 << 22


def test_the_shard_formula_is_discord_pys() -> None:
    import discord

    for guild_id in (ON_ZERO, ON_ONE, 1577279413257503901, 81384788765712384):
        for count in (1, 2, 3, 16):
            guild = discord.Object(guild_id)
            assert shard_of(guild.id, count) == (guild_id >> 22) % count
    assert shard_of(None, 4) == 0  # direct messages are shard 0's


def test_the_shard_module_doctests_hold() -> None:
    failures, tried = doctest.testmod(bot.shards)
    assert tried and not failures


def set_env(monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)


def env_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    set_env(monkeypatch, **env)
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_unset_shards_mean_one_process_with_discords_recommended_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = env_settings(monkeypatch)
    assert settings.shards == ShardPlan.everything() and settings.shards.owns(ON_ONE)
    assert shard_options(settings) == {}
    assert env_settings(monkeypatch, SHARD_COUNT="", SHARD_IDS="").shards.everywhere


def test_shard_ids_come_comma_separated_and_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = env_settings(monkeypatch, SHARD_COUNT="4", SHARD_IDS="3, 1,3")
    assert settings.shard_ids == (1, 3)
    assert shard_options(settings) == {"shard_count": 4, "shard_ids": [1, 3]}
    assert settings.shards.owns(ON_ONE) and not settings.shards.owns(ON_ZERO)
    assert settings.shards.describe() == "shards 1, 3 of 4"
    assert env_settings(monkeypatch, SHARD_COUNT="2").shards.owns(ON_ONE)  # all of 2 here


@pytest.mark.parametrize(("env", "problem"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, r"SHARD_IDS \[2\] are not shards of SHARD_COUNT=2"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "zero"}, "'zero' is not a list of shard numbers"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "is not a list of shard numbers"),
    ({"SHARD_COUNT": "0"}, "greater than or equal to 1"),
])
def test_bad_shard_settings_are_refused_with_the_reason(
        monkeypatch: pytest.MonkeyPatch, env: dict[str, str], problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        env_settings(monkeypatch, **env)


def test_the_bot_is_sharded_as_the_settings_say(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, shard_count=2, shard_ids=(1,))
    sharded = create_bot(settings)
    assert sharded.shard_count == 2 and sharded.shard_ids == [1]
    plain = create_bot(settings_for(tmp_path))
    assert plain.shard_count is None and plain.shard_ids is None  # asks /gateway/bot


def table(table_id: str, guild_id: int, channel_id: int, *, old: bool = False,
          **extra: Any) -> StoredTable:
    stamp = now() - (dt.timedelta(days=30) if old else dt.timedelta())
    return StoredTable(id=table_id, guild_id=guild_id, channel_id=channel_id, host_id=3,
                       game="fiasco", options={}, seats=[Seat(user_id=3, name="a")],
                       created_at=stamp, updated_at=stamp, **extra)


async def shard_zero_manager(tmp_path: Path, *tables: StoredTable) -> TableService:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    for stored in tables:
        await store.create_table(stored)
    return TableService(store, settings_for(tmp_path, shard_count=2, shard_ids=(0,)))


async def test_a_process_resumes_and_expires_only_its_own_shards_tables(tmp_path: Path) -> None:
    manager = await shard_zero_manager(
        tmp_path, table("mine", ON_ZERO, 1), table("theirs", ON_ONE, 2),
        table("their-old", ON_ONE, 3, old=True), table("my-old", ON_ZERO, 4, old=True))
    try:
        resumed = await manager.restart.resume_all()
        assert [s.id for s in resumed] == ["mine"]
        left = {t.id: t.status for t in await manager.store.open_tables()}
        # Mine that expired is closed; the other shard's, even expired, is its own to close.
        assert left == {"mine": TableStatus.LOBBY, "theirs": TableStatus.LOBBY,
                        "their-old": TableStatus.LOBBY}
        assert await manager.sweeper.expire_idle(now() + dt.timedelta(days=90)) == 1  # only "mine"
        assert {t.id for t in await manager.store.open_tables()} == {"theirs", "their-old"}
    finally:
        await manager.store.close()


async def test_a_click_or_a_new_table_on_another_shard_is_refused_clearly(
        tmp_path: Path) -> None:
    manager = await shard_zero_manager(tmp_path, table("theirs", ON_ONE, 2))
    try:
        await manager.restart.resume_all()
        with pytest.raises(NotOurShard, match=r"another of the bot's processes \(shard 1 of 2\)"):
            await manager.registry.find("theirs")
        with pytest.raises(NotOurShard, match="shard 1 of 2"):
            await manager.lobby.open(guild_id=ON_ONE, channel_id=9, host_id=3, host_name="a",
                                     game="fiasco", options={}, pictures=False)
        [stored] = await manager.store.open_tables()
        assert stored.id == "theirs" and stored.version == 0  # nothing changed
        mine = await manager.lobby.open(guild_id=ON_ZERO, channel_id=9, host_id=3, host_name="a",
                                        game="fiasco", options={}, pictures=False)
        assert await manager.registry.find(mine.id) is mine
    finally:
        await manager.store.close()


def test_the_entry_point_names_a_bad_shard_setting(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import EXIT_CONFIG, main

    monkeypatch.chdir(Path(__file__).parent)  # no .env here
    set_env(monkeypatch, SHARD_IDS="1")
    assert main() == EXIT_CONFIG
    assert capsys.readouterr().err == (
        "fivefold: bad settings: SHARD_IDS needs SHARD_COUNT (the bot's shards in all)\n")


async def test_a_click_naming_another_shards_table_is_answered_with_the_reason(
        tmp_path: Path) -> None:
    """Through Discord: a button whose custom id names a table of a server on another
    shard (a forged or misrouted click) gets an ephemeral reason; the table is untouched."""
    from cogs import ids
    from tests.botdriver import running_bot
    from tests.fakediscord import FakeDiscord

    store = await SqliteStore.open(tmp_path / "fivefold.db")
    await store.create_table(table("theirs", ON_ONE, 2))
    await store.close()
    async with FakeDiscord() as fake:
        guild = fake.add_guild("shard 0", shard=(0, 2))
        channel = fake.add_channel(guild, "table")
        alice = fake.add_user("alice")
        async with running_bot(fake, tmp_path, shard_count=2, shard_ids=(0,)) as bot:
            assert bot.tables.registry.open_tables() == []  # shard 1's lobby was not resumed
            opened = await fake.slash(alice, channel, "play fiasco")
            assert opened.message is not None
            result = await fake.click(alice, opened.message, ids.lobby_id("theirs", "join"),
                                      force=True)
            assert result.ephemeral and "another of the bot's processes" in result.text, result
        fake.assert_no_violations()
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        theirs = await store.get_table("theirs")
        assert theirs is not None and [s.user_id for s in theirs.seats] == [3]
    finally:
        await store.close()
