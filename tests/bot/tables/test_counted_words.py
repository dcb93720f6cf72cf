"""The table service counts in words that agree with the count: one of anything is said
in the singular (the limits and timers an operator may set to 1 included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.sqlite.store import SqliteStore
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.timers import duration_words
from tests.botdriver import settings_for

GUILD, ALICE, BOB = 5, 1, 2


async def test_a_limit_of_one_open_table_is_said_in_the_singular(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        tables = TableService(store, settings_for(tmp_path, max_tables_per_host=1,
                                                  max_tables_per_server=1))
        await tables.lobby.open(guild_id=GUILD, channel_id=10, host_id=ALICE, host_name="alice",
                                game="fiasco", options={})
        with pytest.raises(TableError, match=r"^you already host 1 open table, the most"):
            await tables.lobby.open(guild_id=GUILD, channel_id=11, host_id=ALICE,
                                    host_name="alice", game="fiasco", options={})
        with pytest.raises(TableError, match=r"^this server already has 1 open table, the"):
            await tables.lobby.open(guild_id=GUILD, channel_id=12, host_id=BOB, host_name="bob",
                                    game="fiasco", options={})
        await tables.shutdown()
    finally:
        await store.close()


def test_a_timer_of_one_minute_or_one_second_is_said_in_the_singular() -> None:
    assert [duration_words(s) for s in (1, 30, 60, 90, 120)] == [
        "1 second", "30 seconds", "1 minute", "90 seconds", "2 minutes"]
