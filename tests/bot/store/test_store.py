"""The store contract: every test here runs on SQLite and on PostgreSQL (``tests/stores.py``).

Tables, results, ratings, the leaderboard, stats, server settings, durability, and what
several processes sharing one database need: compare-and-set saves (a stale copy never
overwrites a newer move), one open table per channel, a result written exactly once.
What only one backend has (SQLite's migrations and group commit, PostgreSQL's) is in
``test_store_sqlite.py`` and ``test_store_postgres.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import zlib
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.models import (
    GameResult,
    ResultPlayer,
    Seat,
    StoredTable,
    TableStatus,
)
from bot.store.api import ChannelTaken, StaleTable, Store, StoreError
from bot.store.postgres.store import PostgresStore
from bot.store.ratings import StoredRating, display_rating, humans, rate_game
from bot.store.sqlite.store import SqliteStore
from tests.stores import Backend

GUILD = 111
OTHER_GUILD = 222
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
REPO = Path(__file__).resolve().parents[3]


# --------------------------------------------------------------------------- helpers


def make_table(
    table_id: str,
    *,
    status: TableStatus = TableStatus.LOBBY,
    guild_id: int | None = GUILD,
    created_at: datetime = T0,
    game: str = "fiasco",
    channel_id: int | None = None,
) -> StoredTable:
    """A table with three seats; each table id has a channel of its own unless one is given
    (the schema allows one open table per channel)."""
    return StoredTable(
        id=table_id,
        guild_id=guild_id,
        channel_id=channel_id if channel_id is not None else 5000 + zlib.crc32(table_id.encode()),
        message_id=6000,
        host_id=1,
        game=game,
        options={"target": 21, "jokers": True},
        status=status,
        seats=[Seat(user_id=1, name="Ana"), Seat(name="Robot"), Seat(user_id=2, name="Ben")],
        record=(
            None
            if status is TableStatus.LOBBY
            else {"seed": 42, "deals": [["S4", "HK"]], "actions": [{"seat": 0, "play": "S4"}]}
        ),
        version=3,
        created_at=created_at,
        updated_at=created_at + timedelta(minutes=1),
    )


def make_result(
    table_id: str,
    players: list[tuple[int | None, int]],
    *,
    guild_id: int | None = GUILD,
    game: str = "fiasco",
    finished_at: datetime = T0,
) -> GameResult:
    """A result from (user_id or None for a computer, place) per seat; place 1 wins."""
    return GameResult(
        table_id=table_id,
        guild_id=guild_id,
        game=game,
        finished_at=finished_at,
        players=[
            ResultPlayer(
                seat=seat,
                user_id=user_id,
                name=f"p{seat}",
                score=100 - 10 * place,
                place=place,
                winner=place == 1,
            )
            for seat, (user_id, place) in enumerate(players)
        ],
        record={"seed": 7, "actions": [{"seat": 0, "play": "S4"}]},
    )


def moved(table: StoredTable, action: str) -> StoredTable:
    """``table`` one action on: the next version, its record one action longer."""
    record = dict(table.record or {"seed": 1, "actions": []})
    record["actions"] = [*record.get("actions", []), action]
    return table.model_copy(update={"version": table.version + 1, "record": record})


@pytest.mark.parametrize("implementation", [SqliteStore, PostgresStore])
def test_both_stores_satisfy_the_protocol(implementation: type) -> None:
    """Same method names and signatures as :class:`bot.store.api.Store` (its three
    protocols and ``close``)."""
    names = {name for name in dir(Store) if not name.startswith("_")}
    assert names >= {"close", "create_table", "save_head", "append_action", "open_tables",
                     "get_table", "record_result"}
    assert names >= {"leaderboard", "stats", "recent_games"}
    assert names >= {"get_timezone", "set_timezone", "get_pictures", "set_pictures"}
    for name in names:
        ours, theirs = getattr(implementation, name), getattr(Store, name)
        assert inspect.iscoroutinefunction(ours), name
        assert inspect.signature(ours) == inspect.signature(theirs), name


# --------------------------------------------------------------------------- tables


async def test_tables_round_trip_and_open_tables(store: Store, backend: Backend) -> None:
    lobby = make_table("lobby1", status=TableStatus.LOBBY, created_at=T0)
    playing = make_table("play1", status=TableStatus.PLAYING, created_at=T0 + timedelta(1))
    finished = make_table("done1", status=TableStatus.FINISHED)
    cancelled = make_table("gone1", status=TableStatus.CANCELLED, guild_id=None)
    for table in (playing, lobby, finished, cancelled):
        await store.create_table(table)

    assert await store.get_table("lobby1") == lobby
    assert await store.get_table("play1") == playing
    assert await store.get_table("gone1") == cancelled
    assert await store.get_table("nope") is None
    assert [t.id for t in await store.open_tables()] == ["lobby1", "play1"]

    # Saving again updates in place (status, version, seats, record).
    started = playing.model_copy(
        update={"version": 4, "seats": [Seat(user_id=3, name="Cy", replaced_user_id=2)]}
    )
    await store.save_head(started)
    assert await store.get_table("play1") == started
    cancelled_now = lobby.model_copy(update={"status": TableStatus.CANCELLED, "version": 4})
    await store.save_head(cancelled_now)
    assert [t.id for t in await store.open_tables()] == ["play1"]
    assert await backend.count("SELECT COUNT(*) FROM tables") == 4


async def test_datetimes_are_stored_as_utc_iso(store: Store, backend: Backend) -> None:
    paris = timezone(timedelta(hours=1))
    local = make_table("tz", created_at=datetime(2025, 3, 1, 13, 0, tzinfo=paris))
    naive = make_table("naive", created_at=datetime(2025, 3, 1, 12, 0))
    await store.create_table(local)
    await store.create_table(naive)
    rows = await backend.fetch("SELECT id, created_at FROM tables ORDER BY id")
    # SQLite keeps ISO text that sorts as time does; PostgreSQL a timestamptz.
    stored = "2025-03-01T12:00:00.000000+00:00" if backend.name == "sqlite" else T0
    assert [tuple(r) for r in rows] == [("naive", stored), ("tz", stored)]
    loaded = await store.get_table("tz")
    assert loaded is not None
    assert loaded.created_at == T0 and loaded.created_at.utcoffset() == timedelta(0)
    loaded_naive = await store.get_table("naive")
    assert loaded_naive is not None and loaded_naive.created_at == T0


# --------------------------------------------------------------------------- results


async def test_record_result_writes_once_and_finishes_the_table(
    store: Store, backend: Backend,
) -> None:
    await store.create_table(make_table("t1", status=TableStatus.PLAYING))
    result = make_result("t1", [(1, 1), (None, 2), (2, 3)], finished_at=T0 + timedelta(hours=1))

    assert await store.record_result(result) is True
    assert await store.record_result(result) is False
    assert await backend.count("SELECT COUNT(*) FROM results") == 1
    assert await backend.count("SELECT COUNT(*) FROM result_players") == 3
    stats = await store.stats(GUILD, 1)
    assert [(s.game, s.games, s.wins) for s in stats] == [("fiasco", 1, 1)]

    # The table is finished (column and document) and no longer resumed.
    assert await store.open_tables() == []
    table = await store.get_table("t1")
    assert table is not None
    assert table.status is TableStatus.FINISHED
    assert table.updated_at == T0 + timedelta(hours=1)
    rows = await backend.fetch("SELECT record FROM results")
    assert json.loads(rows[0][0]) == result.record


async def test_concurrent_record_result_for_one_table_writes_once(
    store: Store, backend: Backend,
) -> None:
    result = make_result("t1", [(1, 1), (2, 2)])
    outcomes = await asyncio.gather(*(store.record_result(result) for _ in range(10)))
    assert sorted(outcomes) == [False] * 9 + [True]
    assert await backend.count("SELECT COUNT(*) FROM results") == 1
    assert [(s.games, s.wins) for s in await store.stats(GUILD, 1)] == [(1, 1)]
    assert [(s.games, s.wins) for s in await store.stats(GUILD, 2)] == [(1, 0)]


async def test_record_result_saves_the_final_table_in_the_same_transaction(
    store: Store,
) -> None:
    await store.create_table(make_table("t1", status=TableStatus.PLAYING))
    final = make_table("t1", status=TableStatus.PLAYING)
    final.version = 4
    final.record = {"seed": 42, "actions": ["0 play S4", "1 play K"]}
    result = make_result("t1", [(1, 1), (2, 2)])
    result.record = final.record
    assert await store.record_result(result, table=final) is True
    saved = await store.get_table("t1")
    assert saved is not None
    assert saved.status is TableStatus.FINISHED
    assert (saved.version, saved.record) == (4, final.record)
    assert await store.open_tables() == []


async def test_a_finished_game_is_stored_once(store: Store, backend: Backend) -> None:
    """The record lives in results only: the table keeps no copy and no action rows."""
    table = make_table("t1", status=TableStatus.PLAYING)
    await store.create_table(table)
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 1
    result = make_result("t1", [(1, 1), (2, 2)])
    result.record = table.record or {}
    table = table.model_copy(update={"version": table.version + 1})
    assert await store.record_result(result, table=table) is True
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 0
    assert await backend.head_record("t1") is None
    saved = await store.get_table("t1")
    assert saved is not None and saved.record == table.record
    # Without the table, the stored one is finished the same way.
    await store.create_table(make_table("t2", status=TableStatus.PLAYING))
    assert await store.record_result(make_result("t2", [(1, 1), (2, 2)])) is True
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 0
    later = await store.get_table("t2")
    assert later is not None and later.record == make_result("t2", []).record


async def test_a_final_table_whose_record_is_not_the_results_is_refused(
    store: Store, backend: Backend) -> None:
    table = make_table("t1", status=TableStatus.PLAYING)
    with pytest.raises(ValueError, match="not the result's record"):
        await store.record_result(make_result("t1", [(1, 1), (2, 2)]), table=table)
    assert await backend.count("SELECT COUNT(*) FROM results") == 0


async def test_a_second_record_result_leaves_the_saved_table_alone(store: Store) -> None:
    first = make_table("t1", status=TableStatus.PLAYING)
    result = make_result("t1", [(1, 1), (2, 2)])
    result.record = first.record or {}
    await store.record_result(result, table=first)
    later = make_table("t1", status=TableStatus.PLAYING)
    later.version = 99
    assert await store.record_result(result, table=later) is False
    saved = await store.get_table("t1")
    assert saved is not None and saved.version == first.version


async def test_record_result_without_a_stored_table(store: Store) -> None:
    assert await store.record_result(make_result("never-saved", [(1, 1), (2, 2)])) is True
    assert await store.get_table("never-saved") is None


# --------------------------------------------------------------------------- ratings


async def ratings_by_user(store: Store, guild: int | None, game: str) -> dict[int, float]:
    rows, _ = await store.leaderboard(guild, game, limit=100)
    return {row.user_id: row.rating for row in rows}


async def test_winner_goes_up_and_loser_goes_down(store: Store) -> None:
    await store.record_result(make_result("g1", [(1, 1), (2, 2)]))
    ratings = await ratings_by_user(store, GUILD, "fiasco")
    assert ratings[1] > display_rating(25.0, 25.0 / 3.0) == 1000.0 > ratings[2]

    before = ratings
    await store.record_result(make_result("g2", [(2, 1), (1, 2)]))
    after = await ratings_by_user(store, GUILD, "fiasco")
    assert after[2] > before[2]
    assert after[1] < before[1]


async def test_computer_seats_are_left_out_of_ratings(store: Store, backend: Backend) -> None:
    # A computer wins, user 1 is second, another computer third, user 2 last.
    await store.record_result(make_result("g1", [(None, 1), (1, 2), (None, 3), (2, 4)]))
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[2.0, 4.0])
    ratings = await ratings_by_user(store, GUILD, "fiasco")
    assert ratings == {
        1: display_rating(expected[0][0].mu, expected[0][0].sigma),
        2: display_rating(expected[1][0].mu, expected[1][0].sigma),
    }
    assert ratings[1] > 1000 > ratings[2]
    rows = await backend.fetch("SELECT user_id, games, wins FROM ratings")
    assert sorted(tuple(r) for r in rows) == [(1, 1, 0), (2, 1, 0)]  # no computer row


async def test_one_human_against_computers_counts_but_is_not_rated(store: Store) -> None:
    await store.record_result(make_result("solo1", [(1, 1), (None, 2)]))
    await store.record_result(make_result("solo2", [(None, 1), (1, 2), (None, 3)]))
    stats = await store.stats(GUILD, 1)
    assert [(s.game, s.games, s.wins, s.rating) for s in stats] == [("fiasco", 2, 1, None)]
    assert await store.leaderboard(GUILD, "fiasco") == ([], 0)

    # A later rated game gives a rating; a solo game after that leaves it as it was.
    await store.record_result(make_result("duo", [(1, 1), (2, 2)]))
    rated = await ratings_by_user(store, GUILD, "fiasco")
    await store.record_result(make_result("solo3", [(None, 1), (1, 2)]))
    assert await ratings_by_user(store, GUILD, "fiasco") == rated
    stats = await store.stats(GUILD, 1)
    assert [(s.games, s.wins, s.rating) for s in stats] == [(4, 2, rated[1])]


async def test_tied_places_share_a_rank(store: Store) -> None:
    await store.record_result(make_result("g1", [(1, 1), (2, 1), (3, 3)]))
    ratings = await ratings_by_user(store, GUILD, "fiasco")
    assert ratings[1] == ratings[2] > ratings[3]


# --------------------------------------------------------------------------- leaderboard


async def test_leaderboard_order_tie_breaks_and_paging(store: Store) -> None:
    at = iter(T0 + timedelta(minutes=i) for i in range(100))
    # Users 10..14 in one game, in that finishing order: ratings strictly decreasing.
    await store.record_result(make_result("five", [(u, u - 9) for u in range(10, 15)]))
    # 20 and 21 tie with each other (identical ratings). Solo games leave ratings alone:
    # 21 wins one (2 wins in 2 games), 20 loses two (1 win in 3 games). Wins rank first.
    await store.record_result(make_result("tie-a", [(20, 1), (21, 1)], finished_at=next(at)))
    await store.record_result(make_result("solo-a", [(21, 1), (None, 2)], finished_at=next(at)))
    for name in ("solo-a2", "solo-a3"):
        await store.record_result(make_result(name, [(None, 1), (20, 2)], finished_at=next(at)))
    # 30 and 31 tie likewise (above 32, so not level with 20 and 21); 31 then loses a
    # solo game (more games, same wins).
    tie_b = [(30, 1), (31, 1), (32, 3)]
    await store.record_result(make_result("tie-b", tie_b, finished_at=next(at)))
    await store.record_result(make_result("solo-b", [(None, 1), (31, 2)], finished_at=next(at)))
    # Elsewhere: another game and another guild do not appear.
    await store.record_result(make_result("other", [(40, 1), (41, 2)], game="fizzbin"))
    await store.record_result(make_result("far", [(50, 1), (51, 2)], guild_id=OTHER_GUILD))

    full, total = await store.leaderboard(GUILD, "fiasco", limit=100)
    assert total == 10
    ids = [row.user_id for row in full]
    assert set(ids) == {10, 11, 12, 13, 14, 20, 21, 30, 31, 32}
    ratings = [row.rating for row in full]
    assert ratings == sorted(ratings, reverse=True)
    assert ids.index(10) < ids.index(11) < ids.index(12) < ids.index(13) < ids.index(14)
    assert ids.index(21) == ids.index(20) - 1  # same rating, more wins, fewer games
    assert ids.index(31) == ids.index(30) - 1  # same rating and wins, more games
    by_id = {row.user_id: row for row in full}
    assert (by_id[21].games, by_id[21].wins) == (2, 2)
    assert (by_id[20].games, by_id[20].wins) == (3, 1)
    assert (by_id[31].games, by_id[31].wins) == (2, 1)

    pages = [await store.leaderboard(GUILD, "fiasco", offset=o, limit=4) for o in (0, 4, 8)]
    assert [len(rows) for rows, _ in pages] == [4, 4, 2]
    assert all(total == 10 for _, total in pages)
    assert [row for rows, _ in pages for row in rows] == full
    assert await store.leaderboard(GUILD, "fiasco", offset=10) == ([], 10)
    with pytest.raises(ValueError):
        await store.leaderboard(GUILD, "fiasco", offset=-1)

    assert [r.user_id for r in (await store.leaderboard(GUILD, "fizzbin"))[0]] == [40, 41]
    assert [r.user_id for r in (await store.leaderboard(OTHER_GUILD, "fiasco"))[0]] == [50, 51]
    assert await store.leaderboard(None, "fiasco") == ([], 0)


async def test_no_guild_is_its_own_scope(store: Store) -> None:
    result = make_result("dm", [(1, 1), (2, 2)], guild_id=None)
    assert await store.record_result(result) is True
    assert await store.record_result(result) is False
    rows, total = await store.leaderboard(None, "fiasco")
    assert total == 2 and [r.user_id for r in rows] == [1, 2]
    assert [g.table_id for g in await store.recent_games(None, 1)] == ["dm"]
    assert await store.stats(GUILD, 1) == []


# --------------------------------------------------------------------------- stats, recent


async def test_stats_and_recent_games(store: Store) -> None:
    games = [
        ("a", "fiasco", [(1, 1), (2, 2)]),
        ("b", "fizzbin", [(2, 1), (None, 2), (1, 3)]),
        ("c", "fiasco", [(1, 2), (2, 1), (3, 3)]),
        ("d", "fiasco", [(1, 1), (None, 2)]),
        ("e", "fazes", [(None, 1), (1, 2)]),
        ("f", "fiasco", [(2, 1), (3, 2)]),  # user 1 absent
    ]
    for minutes, (table_id, game, players) in enumerate(games):
        finished = T0 + timedelta(minutes=minutes)
        await store.record_result(make_result(table_id, players, game=game, finished_at=finished))
    await store.record_result(make_result("x", [(1, 1), (2, 2)], guild_id=OTHER_GUILD))

    listed = await store.stats(GUILD, 1)
    # Most played first, then by name.
    assert [s.game for s in listed] == ["fiasco", "fazes", "fizzbin"]
    stats = {s.game: s for s in listed}
    assert (stats["fiasco"].games, stats["fiasco"].wins) == (3, 2)
    assert (stats["fizzbin"].games, stats["fizzbin"].wins) == (1, 0)
    assert (stats["fazes"].games, stats["fazes"].wins, stats["fazes"].rating) == (1, 0, None)
    assert stats["fiasco"].rating is not None and stats["fizzbin"].rating is not None
    assert stats["fizzbin"].rating < 1000
    assert await store.stats(GUILD, 99) == []

    recent = await store.recent_games(GUILD, 1, limit=10)
    assert [g.table_id for g in recent] == ["e", "d", "c", "b", "a"]
    assert [(g.game, g.place, g.score, g.players) for g in recent[1:3]] == [
        ("fiasco", 1, 90, 2),
        ("fiasco", 2, 80, 3),
    ]
    assert recent[0].finished_at == T0 + timedelta(minutes=4)
    assert [g.table_id for g in await store.recent_games(GUILD, 1)] == ["e", "d", "c", "b", "a"]
    assert [g.table_id for g in await store.recent_games(GUILD, 1, limit=2)] == ["e", "d"]
    assert [g.table_id for g in await store.recent_games(OTHER_GUILD, 1)] == ["x"]


# --------------------------------------------------------------------------- concurrency


async def test_fifty_tables_finishing_at_the_same_moment(store: Store, backend: Backend) -> None:
    for i in range(50):
        await store.create_table(make_table(f"old{i}", status=TableStatus.PLAYING))
    results = [
        make_result(f"old{i}", [(1000 + i, 1), (None, 2), (2000 + i, 3)], finished_at=T0)
        for i in range(50)
    ]
    new_tables = [make_table(f"new{i}", status=TableStatus.LOBBY) for i in range(50)]
    calls = [store.record_result(r) for r in results] + [store.create_table(t) for t in new_tables]
    outcomes = await asyncio.gather(*calls)

    assert outcomes[:50] == [True] * 50
    assert await backend.count("SELECT COUNT(*) FROM results") == 50
    assert await backend.count("SELECT COUNT(*) FROM result_players") == 150
    assert {t.id for t in await store.open_tables()} == {f"new{i}" for i in range(50)}
    _, total = await store.leaderboard(GUILD, "fiasco")
    assert total == 100


async def test_two_stores_on_one_database_do_not_lock_each_other(backend: Backend) -> None:
    """Another process (here a second connection) writing at once waits, never fails."""
    first = await backend.open()
    second = await backend.open()
    try:
        calls = [
            (first if i % 2 else second).record_result(make_result(f"t{i}", [(i, 1), (i + 1, 2)]))
            for i in range(40)
        ]
        calls += [(second if i % 2 else first).create_table(make_table(f"s{i}")) for i in range(40)]
        assert (await asyncio.gather(*calls))[:40] == [True] * 40
        # Both see the other's writes, and duplicates across them are still refused.
        assert await backend.count("SELECT COUNT(*) FROM results") == 40
        assert len(await second.open_tables()) == 40
        assert await second.record_result(make_result("t1", [(1, 1), (2, 2)])) is False
    finally:
        await first.close()
        await second.close()


async def test_reopened_store_sees_everything(backend: Backend) -> None:
    store = await backend.open()
    playing = make_table("p", status=TableStatus.PLAYING)
    await store.create_table(playing)
    await store.create_table(make_table("f", status=TableStatus.PLAYING))
    await store.record_result(make_result("f", [(1, 1), (2, 2)]))
    board = await store.leaderboard(GUILD, "fiasco")
    stats = await store.stats(GUILD, 1)
    recent = await store.recent_games(GUILD, 2)
    await store.close()
    await store.close()  # closing twice is harmless
    with pytest.raises(StoreError):
        await store.get_table("p")

    reopened = await backend.open()
    try:
        assert await reopened.open_tables() == [playing]
        finished = await reopened.get_table("f")
        assert finished is not None and finished.status is TableStatus.FINISHED
        assert await reopened.leaderboard(GUILD, "fiasco") == board
        assert await reopened.stats(GUILD, 1) == stats
        assert await reopened.recent_games(GUILD, 2) == recent
        assert await reopened.record_result(make_result("f", [(1, 1), (2, 2)])) is False
    finally:
        await reopened.close()


async def test_a_failed_write_rolls_back_and_the_store_keeps_working(
    store: Store, backend: Backend,
) -> None:
    bad = make_result("bad", [(1, 1), (2, 2)])
    bad.players[1].seat = 0  # two players in seat 0: the second insert violates the key
    with pytest.raises(backend.integrity_error):
        await store.record_result(bad)
    assert await backend.count("SELECT COUNT(*) FROM results") == 0
    assert await store.stats(GUILD, 1) == []
    # The same table can still be recorded properly, and other writes go through.
    assert await store.record_result(make_result("bad", [(1, 1), (2, 2)])) is True
    await store.create_table(make_table("after"))
    assert await store.get_table("after") is not None


async def test_cancelled_writes_leave_no_open_transaction(store: Store, backend: Backend) -> None:
    """A write cancelled at any point is all or nothing, and the next write still works."""
    for steps in range(12):
        task = asyncio.create_task(store.record_result(make_result(f"c{steps}", [(1, 1), (2, 2)])))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.create_table(make_table(f"after{steps}"))
        results = await backend.count("SELECT COUNT(*) FROM results")
        players = await backend.count("SELECT COUNT(*) FROM result_players")
        games = await backend.count("SELECT COALESCE(SUM(games), 0) FROM ratings")
        assert players == games == 2 * results
    assert len(await store.open_tables()) == 12


# --------------------------------------------------------------------------- server settings


async def test_timezone_per_server(store: Store, backend: Backend) -> None:
    assert await store.get_timezone(GUILD) is None
    await store.set_timezone(GUILD, "Pacific/Auckland")
    assert await store.get_timezone(GUILD) == "Pacific/Auckland"
    assert await store.get_timezone(OTHER_GUILD) is None  # another server is unaffected
    await store.set_timezone(OTHER_GUILD, "Europe/Paris")
    await store.set_timezone(GUILD, "America/New_York")  # replaced, not added
    assert await store.get_timezone(GUILD) == "America/New_York"
    assert await store.get_timezone(OTHER_GUILD) == "Europe/Paris"
    assert await backend.count("SELECT COUNT(*) FROM guild_settings") == 2
    await store.set_timezone(GUILD, None)  # back to the bot's default
    assert await store.get_timezone(GUILD) is None
    assert await store.get_timezone(OTHER_GUILD) == "Europe/Paris"

    # Durable: another store on the file sees it.
    await store.set_timezone(GUILD, "Asia/Tokyo")
    again = await backend.open()
    try:
        assert await again.get_timezone(GUILD) == "Asia/Tokyo"
    finally:
        await again.close()


async def test_guild_settings_constraints(store: Store, backend: Backend) -> None:
    with pytest.raises(backend.integrity_error):
        await store.set_timezone(0, "UTC")  # 0 is "no guild": never a server of its own
    with pytest.raises(backend.integrity_error):
        await store.set_timezone(GUILD, "")
    assert await store.get_timezone(GUILD) is None
    await store.set_timezone(GUILD, "UTC")  # the store still works after a refused write
    assert await store.get_timezone(GUILD) == "UTC"



async def test_recent_games_follow_the_finish_time_not_the_recording_order(
    store: Store,
) -> None:
    """A game recorded late (a resumed table, an import) still sorts by when it finished."""
    for table_id, minutes in (("late", 1), ("early", 0), ("latest", 5)):
        finished = T0 + timedelta(minutes=minutes)
        await store.record_result(make_result(table_id, [(1, 1), (2, 2)], finished_at=finished))
    assert [g.table_id for g in await store.recent_games(GUILD, 1)] == ["latest", "late", "early"]
    assert [g.table_id for g in await store.recent_games(GUILD, 2, limit=2)] == ["latest", "late"]


async def test_leaderboard_pages_at_every_offset_agree_with_one_sorted_list(
    store: Store, backend: Backend) -> None:
    """Pages found through the rating buckets are the slices of one full sort.

    Ordinals spread over many buckets, negative ones and the double-width
    bucket around zero included, with ties on the ordinal broken by wins,
    games and user id.
    """
    rng = random.Random(3)
    rows = []
    for user in range(1, 150):
        mu, sigma = rng.choice([(rng.uniform(0, 40), rng.uniform(0.5, 9)), (25.0, 25 / 3)])
        rows.append((GUILD, "fiasco", user, mu, sigma, rng.randrange(1, 4), rng.randrange(0, 2)))
    await backend.execute("INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    expected = [u for *_, u in sorted((-(mu - 3.0 * sigma), -wins, -games, u)
                                      for _, _, u, mu, sigma, games, wins in rows)]
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 149
    for offset in [*range(0, 150, 7), 148, 149, 150]:
        page, total = await store.leaderboard(GUILD, "fiasco", offset=offset, limit=10)
        assert total == 149
        assert [r.user_id for r in page] == expected[offset:offset + 10], offset
    # The buckets follow rating changes.
    await backend.execute("UPDATE ratings SET mu = mu + 30 WHERE user_id % 3 = 0")
    rows = await backend.fetch("SELECT user_id, mu, sigma, games, wins FROM ratings")
    expected = [u for *_, u in sorted((-(mu - 3.0 * sigma), -wins, -games, u)
                                      for u, mu, sigma, games, wins in rows)]
    for offset in range(0, 150, 10):
        page, _ = await store.leaderboard(GUILD, "fiasco", offset=offset, limit=10)
        assert [r.user_id for r in page] == expected[offset:offset + 10], offset


async def test_the_board_size_follows_players_gaining_and_losing_a_rating(
    store: Store, backend: Backend) -> None:
    await store.record_result(make_result("solo", [(1, 1), (None, 2)]))
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 0
    await store.record_result(make_result("duo", [(1, 1), (2, 2)]))
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 2
    await backend.execute("UPDATE ratings SET mu = NULL, sigma = NULL WHERE user_id = 2")
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 1
    await backend.execute("DELETE FROM ratings WHERE user_id = 1")
    assert (await store.leaderboard(GUILD, "fiasco")) == ([], 0)


async def test_appending_an_action_writes_only_the_new_action(
    store: Store, backend: Backend,
) -> None:
    """The cost of an action does not grow with the game: one head row and one action row."""
    table = make_table("long", status=TableStatus.PLAYING)
    table.record = {"seed": 1, "deals": [], "actions": [f"0 play {n}" for n in range(500)]}
    await store.create_table(table)
    await backend.count_action_writes()

    def next_version(saved: StoredTable) -> None:
        saved.version += 1

    next_version(table)
    table.record = {**table.record, "actions": [*table.record["actions"], "1 play X"]}
    await store.append_action(table, "1 play X")
    assert await backend.action_writes() == 1
    assert await store.get_table("long") == table
    head = await backend.head_record("long")
    assert head["actions"] == 501  # the actions are not in the head, only their count
    # A change without an action writes no action row.
    next_version(table)
    table.seats = table.seats[:2]
    await store.save_head(table)
    assert await backend.action_writes() == 1
    assert await store.get_table("long") == table
    # A record that does not follow the stored actions is refused, and nothing is written.
    for record in ({**table.record, "actions": ["0 play Y", "1 play Z"]}, {"seed": 1}):
        wrong = table.model_copy(update={"version": table.version + 1, "record": record})
        with pytest.raises(ValueError, match="501 actions stored"):
            await store.save_head(wrong)
    skipped = moved(moved(table, "0 play A"), "1 play B")
    skipped.version = table.version + 1
    with pytest.raises(ValueError, match="501 actions stored"):
        await store.append_action(skipped, "1 play B")
    with pytest.raises(ValueError, match="does not end with"):
        await store.append_action(moved(table, "0 play A"), "1 play B")
    assert await backend.action_writes() == 1
    assert await store.get_table("long") == table


async def test_the_server_timer_is_stored_and_a_bad_one_refused(
    store: Store, backend: Backend,
) -> None:
    assert await store.get_timer(7) is None
    await store.set_pictures(7, False)
    await store.set_timer(7, "5m")
    assert await store.get_timer(7) == "5m" and not await store.get_pictures(7)
    with pytest.raises(ValueError, match="no server timer 'tournament'"):
        await store.set_timer(7, "tournament")
    assert await store.get_timer(7) == "5m"
    await store.set_timer(7, None)
    assert await store.get_timer(7) is None
    with pytest.raises(backend.integrity_error):  # the schema refuses it too
        await backend.execute("UPDATE guild_settings SET timer = '3m' WHERE guild_id = 7")


async def test_pruning_drops_old_closed_tables_and_keeps_results_and_open_tables(
    store: Store, backend: Backend,
) -> None:
    old, new = T0, T0 + timedelta(days=40)
    for table_id, status, at in [("open-old", TableStatus.PLAYING, old),
                                 ("lobby-old", TableStatus.LOBBY, old),
                                 ("gone-old", TableStatus.CANCELLED, old),
                                 ("gone-new", TableStatus.CANCELLED, new)]:
        await store.create_table(make_table(table_id, status=status, created_at=at))
    result = make_result("done-old", [(1, 1), (2, 2)])
    finished = make_table("done-old", status=TableStatus.FINISHED, created_at=old)
    finished.record = result.record
    assert await store.record_result(result, table=finished)
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 3  # open, gone-*

    cutoff = T0 + timedelta(days=30)
    assert await store.prune_tables(cutoff) == 2  # gone-old, done-old
    assert await store.get_table("gone-old") is None and await store.get_table("done-old") is None
    for kept in ("open-old", "lobby-old", "gone-new"):
        assert await store.get_table(kept) is not None, kept
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 2
    assert await backend.count("SELECT COUNT(*) FROM results WHERE table_id = 'done-old'") == 1
    assert [s.games for s in await store.stats(GUILD, 1)] == [1]
    assert await store.prune_tables(cutoff) == 0  # nothing twice


async def test_pictures_per_server(store: Store) -> None:
    assert await store.get_pictures(GUILD) is True  # on unless turned off
    await store.set_timezone(GUILD, "Europe/Paris")
    await store.set_pictures(GUILD, False)
    assert await store.get_pictures(GUILD) is False
    assert await store.get_pictures(OTHER_GUILD) is True
    assert await store.get_timezone(GUILD) == "Europe/Paris"  # one setting leaves the other
    await store.set_pictures(GUILD, True)
    assert await store.get_pictures(GUILD) is True
async def test_acknowledged_writes_survive_sigkill(backend: Backend) -> None:
    """A process killed without closing the store loses nothing it had acknowledged."""
    script = textwrap.dedent(
        f"""
        import asyncio, sys, time
        from datetime import UTC, datetime
        from bot.models import StoredTable
        from bot.store.connect import open_store

        async def main():
            store = await open_store({backend.url!r})
            now = datetime.now(UTC)
            for i in range(20):
                table = StoredTable(id=f"k{{i}}", guild_id=1, channel_id=i, host_id=3,
                                    game="fiasco", created_at=now, updated_at=now)
                await store.create_table(table)
                print(table.id, flush=True)
            time.sleep(60)  # never closes: the parent kills us here

        asyncio.run(main())
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert child.stdout is not None
        out = child.stdout
        acknowledged = [(await asyncio.to_thread(out.readline)).strip() for _ in range(20)]
        assert acknowledged[-1] == "k19"
    finally:
        child.send_signal(signal.SIGKILL)
        await asyncio.to_thread(child.wait, 10)

    reopened = await backend.open()
    try:
        assert {t.id for t in await reopened.open_tables()} == set(acknowledged)
    finally:
        await reopened.close()




# --------------------------------------------------------------------------- no lost updates


async def test_a_save_from_a_stale_copy_is_refused_and_writes_nothing(store: Store) -> None:
    table = make_table("cas", status=TableStatus.PLAYING)
    await store.create_table(table)
    newer = moved(table, "1 play K")
    await store.append_action(newer, "1 play K")
    stale = moved(table, "1 play Q")  # the same version from the older copy: another move
    with pytest.raises(StaleTable) as caught:
        await store.append_action(stale, "1 play Q")
    assert (caught.value.table_id, caught.value.version, caught.value.stored) == ("cas", 4, 4)
    assert await store.get_table("cas") == newer
    # Going back, skipping a version, or a second copy of a new table are refused alike.
    for version in (3, 6):
        with pytest.raises(StaleTable):
            await store.save_head(newer.model_copy(update={"version": version}))
    with pytest.raises(StaleTable):
        await store.create_table(make_table("cas"))
    assert await store.get_table("cas") == newer
    # And the next move from the up-to-date copy goes through.
    await store.append_action(moved(newer, "2 play A"), "2 play A")
    saved = await store.get_table("cas")
    assert saved is not None and saved.version == 5


async def test_two_stores_racing_on_one_table_lose_nothing(backend: Backend) -> None:
    """Two processes each load the table and save their own move at once, round after round:
    exactly one wins each round, the other is told its copy is stale, and every winning
    move is in the record in order."""
    first, second = await backend.open(), await backend.open()
    try:
        await first.create_table(make_table("race", status=TableStatus.PLAYING))
        winners = []
        for round_ in range(12):
            copies = [await s.get_table("race") for s in (first, second)]
            assert copies[0] == copies[1] and copies[0] is not None
            moves = [moved(copy, f"{who} play R{round_}")
                     for who, copy in enumerate(copies) if copy is not None]
            outcomes = await asyncio.gather(first.append_action(moves[0], f"0 play R{round_}"),
                                            second.append_action(moves[1], f"1 play R{round_}"),
                                            return_exceptions=True)
            assert sorted(o is None for o in outcomes) == [False, True], outcomes
            [lost] = [o for o in outcomes if o is not None]
            assert isinstance(lost, StaleTable), lost
            winners.append(moves[outcomes.index(None)])
        stored = await second.get_table("race")
        assert stored == winners[-1]
        assert stored is not None and stored.version == 3 + 12
        assert stored.record is not None
        assert stored.record["actions"][1:] == [w.record["actions"][-1] for w in winners
                                                if w.record is not None]
    finally:
        await first.close()
        await second.close()


async def test_one_open_table_per_channel_whichever_store_opens_it(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        a, b = make_table("a", channel_id=77), make_table("b", channel_id=77)
        outcomes = await asyncio.gather(first.create_table(a), second.create_table(b),
                                        return_exceptions=True)
        assert sorted(o is None for o in outcomes) == [False, True], outcomes
        [refused] = [o for o in outcomes if o is not None]
        assert isinstance(refused, ChannelTaken) and refused.channel_id == 77
        opened = a if outcomes[0] is None else b
        other = b if opened is a else a
        assert [t.id for t in await first.open_tables()] == [opened.id]
        assert await second.get_table(other.id) is None  # nothing of it was written
        # Playing still holds the channel; once closed, the channel takes a new table.
        playing = opened.model_copy(update={"status": TableStatus.PLAYING, "version": 4})
        await first.save_head(playing)
        with pytest.raises(ChannelTaken):
            await second.create_table(other)
        await first.save_head(playing.model_copy(update={"status": TableStatus.CANCELLED,
                                                          "version": 5}))
        await second.create_table(other)
        assert [t.id for t in await first.open_tables()] == [other.id]
    finally:
        await first.close()
        await second.close()


async def test_two_stores_finishing_one_table_write_the_result_once(backend: Backend) -> None:
    """Both processes hold the table at its last move and finish it, with different final
    moves: one result is written, ratings count it once, the table is the winner's."""
    first, second = await backend.open(), await backend.open()
    try:
        await first.create_table(make_table("end", status=TableStatus.PLAYING))
        finals, results = [], []
        for who, store in enumerate((first, second)):
            copy = await store.get_table("end")
            assert copy is not None
            final = moved(copy, f"{who} play last").model_copy(
                update={"status": TableStatus.FINISHED})
            result = make_result("end", [(1, 1 + who), (2, 2 - who)])
            result.record = final.record or {}
            finals.append(final)
            results.append(result)
        outcomes = await asyncio.gather(first.record_result(results[0], table=finals[0]),
                                        second.record_result(results[1], table=finals[1]))
        assert sorted(outcomes) == [False, True]
        winner = outcomes.index(True)
        assert await backend.count("SELECT COUNT(*) FROM results") == 1
        assert await backend.count("SELECT COUNT(*) FROM result_players") == 2
        assert [(s.games, s.wins) for s in await first.stats(GUILD, 1)] == [(1, 1 - winner)]
        assert [(s.games, s.wins) for s in await second.stats(GUILD, 2)] == [(1, winner)]
        assert await first.get_table("end") == finals[winner]
        assert await first.open_tables() == []
    finally:
        await first.close()
        await second.close()


async def test_a_stale_final_table_writes_no_result(store: Store) -> None:
    """A game finished from a stale copy is refused whole: no result, no rating."""
    table = make_table("late", status=TableStatus.PLAYING)
    await store.create_table(table)
    await store.append_action(moved(table, "1 play K"), "1 play K")
    final = moved(table, "1 play Q").model_copy(update={"status": TableStatus.FINISHED})
    result = make_result("late", [(1, 1), (2, 2)])
    result.record = final.record or {}
    with pytest.raises(StaleTable):
        await store.record_result(result, table=final)
    assert await store.stats(GUILD, 1) == []
    assert await store.recent_games(GUILD, 1) == []
    again = await store.get_table("late")
    assert again is not None and again.status is TableStatus.PLAYING and again.version == 4


async def test_a_closed_store_refuses_every_call(backend: Backend) -> None:
    opened = await backend.open()
    await opened.close()
    with pytest.raises(StoreError, match="closed"):
        await opened.create_table(make_table("x"))


def sequential_ratings(rounds: list[list[GameResult]]) -> set[tuple[float, float]]:
    """Ana's ``(mu, sigma)`` after ``rounds`` (to 9 places), for every order of the games
    within each round, the games of a round written one after the other (no update lost)."""
    finals = set()
    for orders in itertools.product(((0, 1), (1, 0)), repeat=len(rounds)):
        stored: dict[int, StoredRating] = {}
        for games_, order in zip(rounds, orders, strict=True):
            for index in order:
                stored.update(rate_game(humans(games_[index].players), stored))
        mu, sigma = stored[1]
        assert mu is not None and sigma is not None
        finals.add((round(mu, 9), round(sigma, 9)))
    return finals


async def test_one_players_games_finishing_at_once_in_two_stores_both_rate(
    backend: Backend,
) -> None:
    """Ana finishes two games at the same moment, written by two processes, six times: both
    count, and her rating is one that writing the games one after the other gives (a lost
    update, one game rated from the rating before the other, gives none of them)."""
    first, second = await backend.open(), await backend.open()
    rounds = [[make_result(f"a{n}", [(1, 1), (2, 2)]), make_result(f"b{n}", [(3, 1), (1, 2)])]
              for n in range(6)]
    try:
        for games_ in rounds:
            await asyncio.gather(first.record_result(games_[0]),
                                 second.record_result(games_[1]))
        [ana] = await first.stats(GUILD, 1)
        assert (ana.games, ana.wins) == (12, 6)
        [(mu, sigma)] = await backend.fetch("SELECT mu, sigma FROM ratings WHERE user_id = 1")
        assert (round(mu, 9), round(sigma, 9)) in sequential_ratings(rounds)
    finally:
        await first.close()
        await second.close()


# ------------------------------------------------------------- writes that say what changed


async def test_an_appended_action_is_stored_once_and_durable_when_the_await_returns(
    store: Store, backend: Backend,
) -> None:
    """The action's row and the new head are on disk when ``append_action`` returns (a
    connection of the test's own sees them), and the same action again is a stale copy."""
    table = make_table("once", status=TableStatus.PLAYING)
    await store.create_table(table)
    later = moved(table, "1 play K")
    await store.append_action(later, "1 play K")
    rows = await backend.fetch("SELECT n, action FROM table_actions WHERE table_id = ? "
                               "ORDER BY n", "once")
    assert [(n, json.loads(text)) for n, text in rows] == [(0, {"seat": 0, "play": "S4"}),
                                                           (1, "1 play K")]
    assert await backend.count("SELECT version FROM tables WHERE id = ?", "once") == 4
    with pytest.raises(StaleTable) as caught:
        await store.append_action(later, "1 play K")
    assert (caught.value.version, caught.value.stored) == (4, 4)
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 2
    assert await store.get_table("once") == later


async def test_an_action_over_a_stale_version_is_refused_and_writes_nothing(
    store: Store, backend: Backend,
) -> None:
    table = make_table("cas", status=TableStatus.PLAYING)
    await store.create_table(table)
    for version in (table.version, table.version + 2):  # the same version again, or a skip
        stale = moved(table, "1 play K").model_copy(update={"version": version})
        with pytest.raises(StaleTable):
            await store.append_action(stale, "1 play K")
    with pytest.raises(StaleTable) as caught:  # a table never stored
        await store.append_action(moved(make_table("never", status=TableStatus.PLAYING),
                                        "1 play K"), "1 play K")
    assert caught.value.stored is None
    lobby = make_table("lobby")
    await store.create_table(lobby)
    with pytest.raises(ValueError, match="lobby"):  # only a game in play takes actions
        await store.append_action(moved(lobby, "0 play A"), "0 play A")
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 1
    assert await store.get_table("cas") == table


async def test_a_head_save_adds_no_action_row(store: Store, backend: Backend) -> None:
    """Seats, message id, timers, starting and closing: the head alone, compared like an
    action; the action rows stay as they are."""
    table = make_table("head", status=TableStatus.PLAYING)
    await store.create_table(table)
    await backend.count_action_writes()
    for change in ({"message_id": 7001}, {"seats": table.seats[:2]},
                   {"deadline": T0 + timedelta(minutes=2), "overtime": True},
                   {"status": TableStatus.CANCELLED}):
        table = table.model_copy(update={**change, "version": table.version + 1})
        await store.save_head(table)
        assert await store.get_table("head") == table
    assert await backend.action_writes() == 0
    with pytest.raises(StaleTable):
        await store.save_head(table)
    # A lobby starting: its record arrives with the head, with no action yet.
    lobby = make_table("start")
    await store.create_table(lobby)
    started = lobby.model_copy(update={"status": TableStatus.PLAYING, "version": 4,
                                       "record": {"seed": 5, "actions": []}})
    await store.save_head(started)
    assert await store.get_table("start") == started
    assert await backend.action_writes() == 0


async def test_a_failed_write_among_concurrent_actions_is_undone_alone(
    store: Store, backend: Backend,
) -> None:
    """Eight tables act at once (on SQLite, one group), one of them from a stale copy: that
    one is refused, the seven others are stored."""
    tables = [make_table(f"c{i}", status=TableStatus.PLAYING) for i in range(8)]
    for table in tables:
        await store.create_table(table)
    moves = [moved(table, f"1 play {i}") for i, table in enumerate(tables)]
    moves[3] = moves[3].model_copy(update={"version": 9})
    outcomes = await asyncio.gather(*(store.append_action(m, f"1 play {i}")
                                      for i, m in enumerate(moves)), return_exceptions=True)
    assert [type(o).__name__ for o in outcomes] == ["NoneType"] * 3 + ["StaleTable"] + \
        ["NoneType"] * 4
    for i, move in enumerate(moves):
        assert await store.get_table(f"c{i}") == (tables[i] if i == 3 else move)
    assert await backend.count("SELECT COUNT(*) FROM table_actions") == 8 + 7
