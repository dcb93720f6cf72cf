"""Rebuilding a table from its record at start-up (the session layer, without Discord)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.store.sqlite.store import SqliteStore
from bot.tables.context import utc_now as now
from bot.tables.errors import TableClosed
from bot.tables.service import TableService
from tests.botdriver import settings_for


def played(seed: int, actions: int | None = None) -> dict:
    """A Fumblaroo record after ``actions`` (deterministic) actions, or to its end."""
    game = games.new_game("fumblaroo", 3, {}, seed=seed)
    n = 0
    while not game.over and n != actions:
        seat = game.to_act
        n += 1
        game.apply(seat, random.Random(n - 1).choice(game.legal_actions(seat)))
    return game.record().model_dump()


async def resume(tmp_path: Path, record: dict) -> TableService:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    stamp = now()
    await store.create_table(StoredTable(
        id="t1", guild_id=1, channel_id=2, host_id=3, game="fumblaroo",
        options={}, status=TableStatus.PLAYING, record=record,
        seats=[Seat(user_id=3, name="a"), Seat(user_id=4, name="b"), Seat(name="c")],
        created_at=stamp, updated_at=stamp))
    manager = TableService(store, settings_for(tmp_path))
    [session] = await manager.restart.resume_all()
    assert session.id == "t1" and session.game is not None
    await store.close()
    return manager


async def test_a_resumed_game_deals_on_from_its_seed_like_an_uninterrupted_one(tmp_path):
    half, whole = played(11, 60), played(11)
    assert len(half["deals"]) < len(whole["deals"])
    manager = await resume(tmp_path, half)
    game = manager.registry.get("t1").game
    for line in whole["actions"][60:]:
        seat, _, text = line.partition(" ")
        game.apply(int(seat), text)
    assert game.record().model_dump() == whole


@pytest.mark.parametrize("actions", [0, 60])  # the seed's deals differ / cannot replay
async def test_a_record_the_seed_no_longer_explains_is_replayed_from_its_deals(
    tmp_path, actions
):
    # As if the rules now shuffled otherwise: the record's deals are not the seed's.
    record = {**played(11, actions), "seed": 12}
    manager = await resume(tmp_path, record)
    game = manager.registry.get("t1").game
    assert game.record().model_dump() == record


async def store_tables(tmp_path: Path, records: dict[str, dict | None]) -> SqliteStore:
    """A store holding one Fumblaroo table in play per id, each in its own channel."""
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    stamp = now()
    for n, (table_id, record) in enumerate(records.items()):
        await store.create_table(StoredTable(
            id=table_id, guild_id=1, channel_id=100 + n, host_id=3, game="fumblaroo",
            options={}, status=TableStatus.PLAYING, record=record,
            seats=[Seat(user_id=3, name="a"), Seat(user_id=4, name="b"), Seat(name="c")],
            created_at=stamp, updated_at=stamp))
    return store


async def test_a_table_that_cannot_be_rebuilt_is_closed_alone_and_its_buttons_say_so(
    tmp_path, monkeypatch, caplog
):
    import bot.tables.restart

    real_load = bot.tables.restart.load

    def load(record, **context):  # a bug in some game's replay, of no expected kind
        if record.seed == 666:
            raise ZeroDivisionError("a bug")
        return real_load(record, **context)

    monkeypatch.setattr(bot.tables.restart, "load", load)
    broken_record = {**played(11, 5), "seed": 666}
    store = await store_tables(tmp_path, {
        "before": played(11, 5), "broken": broken_record, "nothing": None,
        "unknown": {**played(11, 5), "game": "snap"}, "after": played(12, 7)})
    try:
        manager = TableService(store, settings_for(tmp_path))
        resumed = await manager.restart.resume_all()

        assert sorted(s.id for s in resumed) == ["after", "before"]
        assert all(s.game is not None for s in resumed)
        for table_id in ("broken", "nothing", "unknown"):
            assert f"table {table_id} cannot be resumed" in caplog.text
            with pytest.raises(TableClosed, match="could not be resumed after a restart"):
                await manager.registry.find(table_id)
            stored = await store.get_table(table_id)
            assert stored is not None and stored.status is TableStatus.CANCELLED
            assert stored.unresumable
            # the channel is free again
            assert manager.registry.in_channel(stored.channel_id) is None
        assert "ZeroDivisionError" in caplog.text
        stored = await store.get_table("broken")
        assert stored is not None and stored.record == broken_record  # nothing lost

        # After another restart the buttons still say why, from the store alone.
        again = TableService(store, settings_for(tmp_path))
        assert sorted(s.id for s in await again.restart.resume_all()) == ["after", "before"]
        with pytest.raises(TableClosed, match="could not be resumed"):
            await again.registry.find("broken")
    finally:
        await store.close()


async def test_a_store_that_fails_to_close_a_broken_table_still_resumes_the_others(
    tmp_path, monkeypatch
):
    store = await store_tables(tmp_path, {"broken": None, "good": played(11, 5)})
    real_save = store.save_head

    async def save_head(table):
        if table.id == "broken":
            raise OSError("disk full")
        await real_save(table)

    monkeypatch.setattr(store, "save_head", save_head)
    try:
        manager = TableService(store, settings_for(tmp_path))
        assert [s.id for s in await manager.restart.resume_all()] == ["good"]
        with pytest.raises(TableClosed, match="could not be resumed"):
            await manager.registry.find("broken")
    finally:
        await store.close()
