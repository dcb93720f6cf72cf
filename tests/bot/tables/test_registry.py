"""The registry on its own (:mod:`bot.tables.registry`): tables by id and by channel, the
limits on open tables (the exact refusals), letting a closed table go, and the filters of
``open_tables``.

Built directly on a SQLite store, without the table service or Discord; the sessions are
made here from stored tables, and the store holds what a test says it holds.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.settings import Settings
from bot.store.sqlite.store import SqliteStore
from bot.tables.errors import NO_TABLE_HERE, UNKNOWN_TABLE, NoSuchTable, TableClosed, TableError
from bot.tables.registry import PRUNED, UNRESUMABLE_NOTE, Registry
from bot.tables.restart import replayed
from bot.tables.session import Session
from bot.tables.snapshots import table_of
from tests.botdriver import settings_for

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
GUILD, OTHER_GUILD = 1, 2
HOST, OTHER_HOST = 10, 20


def stored(table_id: str, *, channel: int, guild: int | None = GUILD, host: int = HOST,
           status: TableStatus = TableStatus.LOBBY, updated: dt.datetime = T0,
           record: dict[str, Any] | None = None, **more: Any) -> StoredTable:
    return StoredTable(id=table_id, guild_id=guild, channel_id=channel, host_id=host,
                       game="fiasco", status=status, created_at=T0, updated_at=updated,
                       seats=[Seat(user_id=host, name="host"), Seat(user_id=host + 1, name="b"),
                              Seat(user_id=host + 2, name="c")],
                       record=record, **more)


def fields(snapshot: Any) -> dict[str, Any]:
    """A snapshot's fields (snapshots compare by identity)."""
    return {f.name: getattr(snapshot, f.name) for f in dataclasses.fields(snapshot)}


def played(moves: int) -> games.Game[Any]:
    game = games.new_game("fiasco", 3, seed=7)
    for _ in range(moves):
        assert game.to_act is not None
        game.apply(game.to_act, game.legal_actions(game.to_act)[0])
    return game


class Parts:
    """A registry on a store, and how often it rebuilt a closed table from its record."""

    def __init__(self, store: SqliteStore, settings: Settings) -> None:
        self.store = store
        self.replays = 0

        def count_replays(table: StoredTable) -> Session:
            self.replays += 1
            return replayed(table, settings, lambda: T0)

        self.registry = Registry(store, settings, replayed=count_replays)

    def open(self, table_id: str, **fields: Any) -> Session:
        session = Session(stored(table_id, **fields))
        self.registry.register(session)
        return session


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[Parts]:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        yield Parts(store, settings_for(tmp_path, max_tables_per_host=2,
                                        max_tables_per_server=3))
    finally:
        await store.close()


# --- lookups -------------------------------------------------------------------------------


async def test_a_table_is_found_by_its_id_and_by_its_channel(parts):
    one = parts.open("one", channel=100)
    two = parts.open("two", channel=200)
    assert parts.registry.get("one") is one and parts.registry.get("two") is two
    assert await parts.registry.find("two") is two
    assert parts.registry.in_channel(100) is one and parts.registry.here(200) is two
    assert parts.registry.in_channel(300) is None
    with pytest.raises(TableError, match=f"^{NO_TABLE_HERE}$"):
        parts.registry.here(300)
    with pytest.raises(NoSuchTable, match=f"^{UNKNOWN_TABLE}$"):
        parts.registry.get("three")
    assert set(parts.registry.sessions()) == {one, two}


async def test_a_channel_whose_table_closed_has_no_table_though_its_id_is_still_known(parts):
    session = parts.open("one", channel=100)
    session.table = session.table.model_copy(update={"status": TableStatus.CANCELLED})
    assert parts.registry.in_channel(100) is None
    with pytest.raises(TableError, match=f"^{NO_TABLE_HERE}$"):
        parts.registry.here(100)
    assert parts.registry.get("one") is session  # its old buttons are answered


async def test_a_new_table_in_a_channel_takes_it_and_forgetting_the_old_one_leaves_it(parts):
    old = parts.open("old", channel=100, status=TableStatus.CANCELLED)
    new = parts.open("new", channel=100)
    assert parts.registry.in_channel(100) is new
    parts.registry.forget(old)  # the old table's channel is no longer its own
    assert parts.registry.in_channel(100) is new
    parts.registry.forget(new)
    assert parts.registry.in_channel(100) is None
    assert parts.registry.get("new") is new  # forgotten by channel, still known by id


async def test_find_says_why_a_table_not_in_memory_is_gone(parts):
    await parts.store.create_table(stored("over", channel=1, status=TableStatus.FINISHED))
    await parts.store.create_table(stored("ended", channel=2, status=TableStatus.CANCELLED))
    await parts.store.create_table(stored("broken", channel=3, status=TableStatus.CANCELLED,
                                          unresumable="a bug"))
    with pytest.raises(TableClosed, match=r"^this game is over$"):
        await parts.registry.find("over")
    with pytest.raises(TableClosed, match=r"^this table was closed$"):
        await parts.registry.find("ended")
    with pytest.raises(TableClosed, match=f"^{UNRESUMABLE_NOTE}.*table broken"):
        await parts.registry.find("broken")
    with pytest.raises(NoSuchTable, match=f"^{PRUNED}$"):
        await parts.registry.find("never")
    # stored() answers a closed table from the store as it stands, without rebuilding it.
    assert (await parts.registry.stored("over")).status is TableStatus.FINISHED
    with pytest.raises(NoSuchTable, match=f"^{PRUNED}$"):
        await parts.registry.stored("never")
    assert parts.replays == 0


async def test_a_table_in_memory_that_could_not_be_resumed_says_so(parts):
    parts.open("broken", channel=100, status=TableStatus.CANCELLED, unresumable="a bug")
    with pytest.raises(TableClosed, match=f"^{UNRESUMABLE_NOTE}"):
        await parts.registry.find("broken")


# --- open_tables and the limits ------------------------------------------------------------


async def test_open_tables_filters_by_server_and_by_host_and_leaves_closed_ones_out(parts):
    a = parts.open("a", channel=1)
    b = parts.open("b", channel=2, status=TableStatus.PLAYING, host=OTHER_HOST)
    c = parts.open("c", channel=3, guild=OTHER_GUILD)
    parts.open("d", channel=4, status=TableStatus.FINISHED)
    parts.open("e", channel=5, status=TableStatus.CANCELLED, guild=OTHER_GUILD)

    def ids(sessions: list[Session]) -> list[str]:
        return sorted(s.id for s in sessions)

    assert ids(parts.registry.open_tables()) == ["a", "b", "c"]
    assert ids(parts.registry.open_tables(guild_id=GUILD)) == ["a", "b"]
    assert ids(parts.registry.open_tables(guild_id=OTHER_GUILD)) == ["c"]
    assert ids(parts.registry.open_tables(host_id=HOST)) == ["a", "c"]
    assert ids(parts.registry.open_tables(guild_id=GUILD, host_id=HOST)) == ["a"]
    assert parts.registry.open_tables(guild_id=3) == []
    assert {a, b, c} <= set(parts.registry.sessions())


async def test_a_host_at_the_limit_is_refused_in_words(parts):
    parts.open("a", channel=1)
    parts.registry.check_limits(GUILD, HOST)  # one of two
    assert parts.registry.may_host(HOST)
    parts.open("b", channel=2, guild=OTHER_GUILD)  # the limit counts every server
    assert not parts.registry.may_host(HOST) and parts.registry.may_host(OTHER_HOST)
    with pytest.raises(TableError) as refused:
        parts.registry.check_limits(OTHER_GUILD, HOST)
    assert str(refused.value) == ("you already host 2 open tables, the most one person may; "
                                  "finish or /end one first")
    parts.registry.check_limits(GUILD, OTHER_HOST)  # someone else may


async def test_a_server_at_the_limit_is_refused_in_words_and_a_dm_has_none(parts):
    for n in range(3):
        parts.open(f"t{n}", channel=n, host=100 + n)
    with pytest.raises(TableError) as refused:
        parts.registry.check_limits(GUILD, OTHER_HOST)
    assert str(refused.value) == ("this server already has 3 open tables, the most it may "
                                  "have at once; try again when one has finished")
    parts.registry.check_limits(OTHER_GUILD, OTHER_HOST)  # another server
    parts.registry.check_limits(None, OTHER_HOST)  # no server: no server limit


async def test_the_host_limit_is_said_before_the_servers_and_in_the_singular(tmp_path):
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        parts = Parts(store, settings_for(tmp_path, max_tables_per_host=1,
                                          max_tables_per_server=1))
        parts.open("a", channel=1)
        with pytest.raises(TableError) as refused:
            parts.registry.check_limits(GUILD, HOST)
        assert str(refused.value) == ("you already host 1 open table, the most one person "
                                      "may; finish or /end one first")
        with pytest.raises(TableError) as refused:
            parts.registry.check_limits(GUILD, OTHER_HOST)
        assert str(refused.value).startswith("this server already has 1 open table, ")
    finally:
        await store.close()


async def test_closed_tables_count_against_no_limit(parts):
    parts.open("a", channel=1, status=TableStatus.FINISHED)
    parts.open("b", channel=2, status=TableStatus.CANCELLED)
    parts.open("c", channel=3, status=TableStatus.FINISHED)
    parts.registry.check_limits(GUILD, HOST)
    assert parts.registry.may_host(HOST)


# --- letting go ----------------------------------------------------------------------------


async def test_a_released_table_is_answered_from_the_store_and_its_details_are_kept(parts):
    game = played(12)
    session = Session(stored("done", channel=100, status=TableStatus.PLAYING), game)
    parts.registry.register(session)
    session.table = session.table.model_copy(
        update={"status": TableStatus.FINISHED, "record": game.record().model_dump()})
    shown = table_of(session)
    await parts.store.create_table(session.table)

    parts.registry.release(session)
    with pytest.raises(NoSuchTable):
        parts.registry.get("done")
    assert parts.registry.in_channel(100) is None and parts.registry.sessions() == []
    with pytest.raises(TableClosed, match=r"^this game is over$"):
        await parts.registry.find("done")
    assert (await parts.registry.finished_table("done")).id == "done"
    details = await parts.registry.details("done")
    assert details.record is None  # the kept Details hold no record
    assert fields(details) == {**fields(shown), "record": None}
    assert parts.replays == 0  # taken at release, never replayed


async def test_releasing_an_old_table_leaves_the_channels_new_one(parts):
    old = parts.open("old", channel=100, status=TableStatus.CANCELLED)
    new = parts.open("new", channel=100)
    parts.registry.release(old)
    assert parts.registry.in_channel(100) is new and parts.registry.get("new") is new
    with pytest.raises(NoSuchTable):
        parts.registry.get("old")


async def test_a_closed_tables_details_are_replayed_once_however_many_ask(parts):
    """Closed before a restart: its Details are rebuilt from the record, once."""
    game = played(9)
    await parts.store.create_table(stored("closed", channel=1, status=TableStatus.FINISHED,
                                          record=game.record().model_dump()))
    asked = await asyncio.gather(*(parts.registry.details("closed") for _ in range(5)))
    assert parts.replays == 1
    assert all(d is asked[0] for d in asked) and asked[0].record is None  # one answer
    assert asked[0].status is TableStatus.FINISHED and asked[0].names == ("host", "b", "c")
    assert fields(await parts.registry.details("closed")) == fields(asked[0])
    assert parts.replays == 1  # kept


async def test_details_of_a_table_not_started_are_refused(parts):
    parts.open("lobby", channel=1)
    with pytest.raises(TableError, match="not started"):
        await parts.registry.details("lobby")


async def test_only_a_table_that_finished_with_a_result_is_a_finished_table(parts):
    parts.open("lobby", channel=1)
    await parts.store.create_table(stored("ended", channel=2, status=TableStatus.CANCELLED))
    for table_id in ("lobby", "ended"):
        with pytest.raises(TableError, match=r"^that game did not finish with a result"):
            await parts.registry.finished_table(table_id)
    with pytest.raises(NoSuchTable, match=f"^{UNKNOWN_TABLE}$"):
        await parts.registry.finished_table("never")


async def test_closed_tables_changed_before_a_moment_are_dropped_and_open_ones_kept(parts):
    later = T0 + dt.timedelta(days=30)
    parts.open("old closed", channel=1, status=TableStatus.FINISHED)
    parts.open("new closed", channel=2, status=TableStatus.CANCELLED, updated=later)
    parts.open("old open", channel=3, status=TableStatus.PLAYING)
    parts.registry.drop_closed_before(T0 + dt.timedelta(days=1))
    assert sorted(s.id for s in parts.registry.sessions()) == ["new closed", "old open"]
