"""Fifty tables whose last actions land at the same moment, through the session layer.

Real :class:`TableService`, :class:`Turns` and SQLite store: every game is
played to one action before its end, then all fifty last actions (each clicked
twice, as an impatient player does) are applied concurrently. Every game must
end once, with one result, and no "database is locked".
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.models import TableStatus
from bot.store.sqlite.store import SqliteStore
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.session import Session
from bot.tables.snapshots import Reply
from games.core.actions import Action
from tests.botdriver import settings_for

TABLES = 50
GUILD, ALICE, BOB = 77, 1001, 1002


def last_move(session: Session) -> tuple[int, Action] | None:
    """The person to act and an action that ends the game now, if the next one does."""
    game = session.game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    action = random.Random(len(game.record().actions)).choice(game.legal_actions(seat))
    trial = copy.deepcopy(game)
    trial.apply(seat, action)
    user = session.seats[seat].user_id
    assert user is not None
    return (user, action) if trial.over else None


async def test_fifty_tables_finish_at_the_same_moment(tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING)
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        # One host opens every table here: above the limits a person has on a server.
        settings = settings_for(tmp_path, max_tables_per_host=TABLES,
                                max_tables_per_server=TABLES)
        manager = TableService(store, settings, seed_source=itertools.count(500).__next__)
        finals: list[tuple[Session, int, Action]] = []
        for number in range(TABLES):
            session = await manager.lobby.open(guild_id=GUILD, channel_id=2000 + number,
                                               host_id=ALICE, host_name="alice", game="fiasco",
                                               options={})
            await manager.lobby.join(session, BOB, "bob")
            await manager.lobby.start(session, ALICE)
            while (final := last_move(session)) is None:
                game = session.game
                assert game is not None and game.to_act is not None
                seat = game.to_act
                action = random.Random(len(game.record().actions)).choice(
                    game.legal_actions(seat))
                user = session.seats[seat].user_id
                assert user is not None
                await manager.actions.act(session, user, action, version=session.version)
            finals.append((session, *final))

        # Every table's last action, twice, all at once.
        clicks = [manager.actions.act(session, user, action, version=session.version)
                  for session, user, action in finals for _ in range(2)]
        outcomes = await asyncio.gather(*clicks, return_exceptions=True)

        applied = [o for o in outcomes if isinstance(o, Reply)]
        refused = [o for o in outcomes if isinstance(o, TableError)]
        assert len(applied) == TABLES and len(refused) == TABLES, [
            o for o in outcomes if not isinstance(o, (Reply, TableError))]
        for session, _, _ in finals:
            assert session.table.status is TableStatus.FINISHED
            assert session.game is not None and session.game.over
            stored = await store.get_table(session.id)
            assert stored is not None and stored.status is TableStatus.FINISHED
            assert stored.record == session.table.record
            assert stored.record["actions"] == session.game.record().actions
        assert await store.open_tables() == []
        with contextlib.closing(sqlite3.connect(tmp_path / "fivefold.db")) as conn:
            [[results, tables]] = conn.execute(
                "SELECT COUNT(*), COUNT(DISTINCT table_id) FROM results").fetchall()
        assert results == tables == TABLES
        wins = 0
        for user in (ALICE, BOB):
            [fiasco] = await store.stats(GUILD, user)
            assert fiasco.games == TABLES
            wins += fiasco.wins
        assert wins == sum(len(s.game.winners) for s, _, _ in finals if s.game)
    finally:
        await store.close()
    assert not [r for r in caplog.records if "locked" in r.getMessage()]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
