"""Rebuilding a table from its record at start-up (the session layer, without Discord)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.sessions import SessionManager
from bot.store import SqliteStore
from bot.turns import now
from tests.botdriver import settings_for


def played(seed: int, actions: int | None = None) -> dict:
    """A Fumblaroo record after ``actions`` (deterministic) actions, or to its end."""
    game = games.new_game("fumblaroo", 3, {}, seed=seed)
    n = 0
    while not game.over and n != actions:
        seat = game.to_act
        n += 1
        game.apply(seat, random.Random(n - 1).choice(game.legal_actions(seat)))
    return game.record()


async def resume(tmp_path: Path, record: dict) -> SessionManager:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    stamp = now()
    await store.save_table(StoredTable(
        id="t1", guild_id=1, channel_id=2, host_id=3, game="fumblaroo",
        options={}, status=TableStatus.PLAYING, record=record,
        seats=[Seat(user_id=3, name="a"), Seat(user_id=4, name="b"), Seat(name="c")],
        created_at=stamp, updated_at=stamp))
    manager = SessionManager(store, settings_for(tmp_path))
    [session] = await manager.resume_all()
    assert session.id == "t1" and session.game is not None
    await store.close()
    return manager


async def test_a_resumed_game_deals_on_from_its_seed_like_an_uninterrupted_one(tmp_path):
    half, whole = played(11, 60), played(11)
    assert len(half["deals"]) < len(whole["deals"])
    manager = await resume(tmp_path, half)
    game = manager.get("t1").game
    for line in whole["actions"][60:]:
        seat, _, text = line.partition(" ")
        game.apply(int(seat), text)
    assert game.record() == whole


@pytest.mark.parametrize("actions", [0, 60])  # the seed's deals differ / cannot replay
async def test_a_record_the_seed_no_longer_explains_is_replayed_from_its_deals(
    tmp_path, actions
):
    # As if the rules now shuffled otherwise: the record's deals are not the seed's.
    record = {**played(11, actions), "seed": 12}
    manager = await resume(tmp_path, record)
    game = manager.get("t1").game
    assert game.record() == record
