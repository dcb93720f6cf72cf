"""Tests for the SQLite store: schema migrations, tables, results, ratings, concurrency."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

import bot.store as store_module
import games
from bot.models import (
    GameResult,
    ResultPlayer,
    Seat,
    StoredTable,
    TableStatus,
)
from bot.sessions import SessionManager
from bot.store import (
    GroupCommitError,
    Migration,
    MigrationError,
    SchemaTooNewError,
    SqliteStore,
    StoreError,
    display_rating,
    load_migrations,
    split_statements,
)
from bot.store_api import Store
from tests.botdriver import settings_for

GUILD = 111
OTHER_GUILD = 222
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
REPO = Path(__file__).resolve().parents[1]
LATEST = len(load_migrations())


# --------------------------------------------------------------------------- helpers


def make_table(
    table_id: str,
    *,
    status: TableStatus = TableStatus.LOBBY,
    guild_id: int | None = GUILD,
    created_at: datetime = T0,
    game: str = "fiasco",
) -> StoredTable:
    return StoredTable(
        id=table_id,
        guild_id=guild_id,
        channel_id=5000,
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


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "fivefold.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(db_path)
    yield opened
    await opened.close()


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def table_names(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


async def query(
    store: SqliteStore, sql: str, params: tuple[object, ...] = ()
) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` run on the store's own connection (its thread, its settings)."""
    rows = await store._run(lambda conn: conn.execute(sql, params).fetchall())
    return [tuple(row) for row in rows]


async def count(store: SqliteStore, sql: str) -> int:
    return int((await query(store, sql))[0][0])


def test_sqlite_store_satisfies_the_protocol() -> None:
    """Same method names and signatures as :class:`bot.store_api.Store`."""
    names = {name for name in vars(Store) if not name.startswith("_")}
    assert names >= {"close", "save_table", "open_tables", "get_table", "record_result"}
    assert names >= {"leaderboard", "stats", "recent_games"}
    assert names >= {"get_timezone", "set_timezone"}
    for name in names:
        ours, theirs = getattr(SqliteStore, name), getattr(Store, name)
        assert inspect.iscoroutinefunction(ours), name
        assert inspect.signature(ours) == inspect.signature(theirs), name


# --------------------------------------------------------------------------- migrations


def test_migrations_are_numbered_and_split() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, LATEST + 1))
    assert LATEST >= 2
    assert all(split_statements(m.sql) for m in migrations)


def test_split_statements_respects_strings_and_comments() -> None:
    sql = textwrap.dedent(
        """
        -- a comment; with a semicolon
        CREATE TABLE a (x TEXT DEFAULT 'x;y'); INSERT INTO a VALUES ('1;2');
        CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END;
        -- trailing comment
        """
    )
    statements = split_statements(sql)
    assert len(statements) == 3
    assert statements[1] == "INSERT INTO a VALUES ('1;2');"
    assert statements[2].endswith("END;")
    with pytest.raises(MigrationError, match="unterminated"):
        split_statements("CREATE TABLE b (x)")


async def test_open_empty_database_applies_every_migration(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST
    assert {"tables", "results", "result_players", "ratings", "guild_settings"} <= table_names(
        db_path
    )
    # Reopening an up-to-date database changes nothing.
    store = await SqliteStore.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST


async def test_wal_foreign_keys_and_full_sync_are_on(store: SqliteStore, db_path: Path) -> None:
    assert (await query(store, "PRAGMA journal_mode"))[0][0] == "wal"
    assert (await query(store, "PRAGMA foreign_keys"))[0][0] == 1
    assert (await query(store, "PRAGMA synchronous"))[0][0] == 2  # FULL
    assert (await query(store, "PRAGMA busy_timeout"))[0][0] > 0
    # Foreign keys are enforced, not merely declared.
    with pytest.raises(sqlite3.IntegrityError):
        await store._write(lambda conn: conn.execute(
            "INSERT INTO result_players (result_id, seat, user_id, name, score, place, winner)"
            " VALUES (999, 0, 1, 'x', 0, 1, 1)",
        ))
    # WAL is persistent in the file: another connection sees it too.
    with sqlite3.connect(db_path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_upgrade_from_version_1_keeps_the_data(db_path: Path) -> None:
    first = load_migrations()[0]
    assert first.version == 1
    lobby = make_table("old-lobby")
    with sqlite3.connect(db_path) as conn:
        for statement in split_statements(first.sql):
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute(
            "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                lobby.id,
                lobby.guild_id,
                lobby.channel_id,
                lobby.message_id,
                lobby.host_id,
                lobby.game,
                "lobby",
                lobby.model_dump_json(),
                "2025-03-01T12:00:00.000000+00:00",
                "2025-03-01T12:01:00.000000+00:00",
            ),
        )
        # An old result: user 1 beat a computer and user 2.
        conn.execute(
            "INSERT INTO results (id, table_id, guild_id, game, finished_at, record) "
            "VALUES (1, 'old-game', ?, 'fiasco', '2025-02-01T10:00:00.000000+00:00', '{}')",
            (GUILD,),
        )
        conn.executemany(
            "INSERT INTO result_players VALUES (1, ?, ?, ?, ?, ?, ?)",
            [(0, 1, "Ana", 30, 1, 1), (1, None, "Robot", 20, 2, 0), (2, 2, "Ben", 10, 3, 0)],
        )
    assert user_version(db_path) == 1
    assert "ratings" not in table_names(db_path)

    store = await SqliteStore.open(db_path)
    try:
        assert user_version(db_path) == LATEST
        assert await store.get_table("old-lobby") == lobby
        assert [t.id for t in await store.open_tables()] == ["old-lobby"]
        recent = await store.recent_games(GUILD, 2)
        assert [(g.table_id, g.place, g.score, g.players) for g in recent] == [
            ("old-game", 3, 10, 3)
        ]
        # Counters are rebuilt from the old results; old games were never rated.
        ana = {s.game: s for s in await store.stats(GUILD, 1)}
        assert (ana["fiasco"].games, ana["fiasco"].wins, ana["fiasco"].rating) == (1, 1, None)
        ben = {s.game: s for s in await store.stats(GUILD, 2)}
        assert (ben["fiasco"].games, ben["fiasco"].wins) == (1, 0)
        # The old result still counts for idempotency, and new games rate on top.
        assert await store.record_result(make_result("old-game", [(1, 1), (2, 2)])) is False
        assert await store.record_result(make_result("new-game", [(1, 1), (2, 2)])) is True
        ana = {s.game: s for s in await store.stats(GUILD, 1)}
        assert (ana["fiasco"].games, ana["fiasco"].wins) == (2, 2)
        assert ana["fiasco"].rating is not None and ana["fiasco"].rating > 1000
    finally:
        await store.close()


def write_as_before_table_actions(conn: sqlite3.Connection, table: StoredTable) -> None:
    """A table row as the store wrote it before table_actions: the whole record in ``doc``."""
    conn.execute(
        "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (table.id, table.guild_id, table.channel_id, table.message_id, table.host_id,
         table.game, table.status.value, table.model_dump_json(),
         table.created_at.isoformat(timespec="microseconds"),
         table.updated_at.isoformat(timespec="microseconds")),
    )


def played_record(seed: int, actions: int) -> dict[str, Any]:
    """A real Fumblaroo record after ``actions`` deterministic actions."""
    game = games.new_game("fumblaroo", 3, {}, seed=seed)
    for n in range(actions):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, random.Random(n).choice(game.legal_actions(seat)))
    return game.record()


async def test_upgrade_to_table_actions_resumes_tables_in_play_and_keeps_the_data(
    db_path: Path, tmp_path: Path
) -> None:
    """A database of the migrations before table_actions, with a game in play, a lobby and a
    finished game, upgraded: the game resumes and plays on, nothing is lost."""
    [new] = [m for m in load_migrations() if m.name == "table_actions"]
    previous = [m for m in load_migrations() if m.version < new.version]
    playing = make_table("v3-playing", status=TableStatus.PLAYING, game="fumblaroo")
    playing.record = played_record(5, 40)
    playing.options = {}
    lobby = make_table("v3-lobby")
    finished = make_table("v3-done", status=TableStatus.FINISHED)
    with sqlite3.connect(db_path) as conn:
        for migration in previous:
            for statement in split_statements(migration.sql):
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {new.version - 1:d}")
        for table in (playing, lobby, finished):
            write_as_before_table_actions(conn, table)
        conn.execute(
            "INSERT INTO results (id, table_id, guild_id, game, finished_at, record) "
            "VALUES (1, 'v3-done', ?, 'fiasco', '2025-02-01T10:00:00.000000+00:00', ?)",
            (GUILD, json.dumps(finished.record)),
        )
        conn.executemany("INSERT INTO result_players VALUES (1, ?, ?, ?, ?, ?, ?)",
                         [(0, 1, "Ana", 30, 1, 1), (1, 2, "Ben", 10, 2, 0)])
        conn.executemany("INSERT INTO ratings VALUES (?, 'fiasco', ?, ?, ?, 1, ?)",
                         [(GUILD, 1, 27.6, 8.0, 1), (GUILD, 2, 22.4, 8.0, 0)])

    store = await SqliteStore.open(db_path)
    try:
        assert user_version(db_path) == LATEST
        assert await store.get_table("v3-playing") == playing
        assert await store.get_table("v3-lobby") == lobby
        assert await store.get_table("v3-done") == finished
        # The actions moved to their own rows; the finished record is kept once, in results.
        assert await count(store, "SELECT COUNT(*) FROM table_actions") == 40
        heads = dict(await query(store, "SELECT id, json_extract(doc, '$.record') FROM tables"))
        assert heads["v3-done"] is None
        assert json.loads(heads["v3-playing"])["actions"] == 40
        # The board and its size survive, and stats read the new index.
        board, total = await store.leaderboard(GUILD, "fiasco")
        assert ([r.user_id for r in board], total) == ([1, 2], 2)
        assert [(s.games, s.wins) for s in await store.stats(GUILD, 1)] == [(1, 1)]
        assert await store.record_result(make_result("v3-done", [(1, 1), (2, 2)])) is False

        # The game in play resumes from the migrated rows and plays on.
        # (At the time the tables were saved: later, the lobby would have expired.)
        manager = SessionManager(store, settings_for(tmp_path), clock=lambda: T0)
        resumed = await manager.resume_all()
        assert [s.id for s in resumed] == ["v3-lobby", "v3-playing"]
        game = manager.get("v3-playing").game
        assert game is not None and game.record() == playing.record
        seat = game.to_act
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
        playing.record = game.record()
        await store.save_table(playing)
        assert await count(store, "SELECT COUNT(*) FROM table_actions") == 41
        assert await store.get_table("v3-playing") == playing
    finally:
        await store.close()


async def test_database_from_a_newer_version_is_refused(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNewError, match="newer"):
        await SqliteStore.open(db_path)
    assert user_version(db_path) == LATEST + 1  # left untouched


async def test_a_failing_migration_changes_nothing(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All pending migrations share one transaction: a failure in the last undoes the first."""
    real = load_migrations()
    broken = Migration(LATEST + 1, "broken", "CREATE TABLE extra (x);\nSELECT * FROM nowhere;")
    monkeypatch.setattr(store_module, "load_migrations", lambda: [*real, broken])
    with pytest.raises(MigrationError, match="broken"):
        await SqliteStore.open(db_path)
    assert user_version(db_path) == 0
    assert table_names(db_path) == set()


# --------------------------------------------------------------------------- tables


async def test_tables_round_trip_and_open_tables(store: SqliteStore) -> None:
    lobby = make_table("lobby1", status=TableStatus.LOBBY, created_at=T0)
    playing = make_table("play1", status=TableStatus.PLAYING, created_at=T0 + timedelta(1))
    finished = make_table("done1", status=TableStatus.FINISHED)
    cancelled = make_table("gone1", status=TableStatus.CANCELLED, guild_id=None)
    for table in (playing, lobby, finished, cancelled):
        await store.save_table(table)

    assert await store.get_table("lobby1") == lobby
    assert await store.get_table("play1") == playing
    assert await store.get_table("gone1") == cancelled
    assert await store.get_table("nope") is None
    assert [t.id for t in await store.open_tables()] == ["lobby1", "play1"]

    # Saving again updates in place (status, version, seats, record).
    started = playing.model_copy(
        update={"version": 9, "seats": [Seat(user_id=3, name="Cy", replaced_user_id=2)]}
    )
    await store.save_table(started)
    assert await store.get_table("play1") == started
    cancelled_now = lobby.model_copy(update={"status": TableStatus.CANCELLED})
    await store.save_table(cancelled_now)
    assert [t.id for t in await store.open_tables()] == ["play1"]
    assert await count(store, "SELECT COUNT(*) FROM tables") == 4


async def test_datetimes_are_stored_as_utc_iso(store: SqliteStore) -> None:
    paris = timezone(timedelta(hours=1))
    local = make_table("tz", created_at=datetime(2025, 3, 1, 13, 0, tzinfo=paris))
    naive = make_table("naive", created_at=datetime(2025, 3, 1, 12, 0))
    await store.save_table(local)
    await store.save_table(naive)
    rows = await query(store, "SELECT id, created_at FROM tables ORDER BY id")
    assert [tuple(r) for r in rows] == [
        ("naive", "2025-03-01T12:00:00.000000+00:00"),
        ("tz", "2025-03-01T12:00:00.000000+00:00"),
    ]
    loaded = await store.get_table("tz")
    assert loaded is not None
    assert loaded.created_at == T0 and loaded.created_at.utcoffset() == timedelta(0)
    loaded_naive = await store.get_table("naive")
    assert loaded_naive is not None and loaded_naive.created_at == T0


# --------------------------------------------------------------------------- results


async def test_record_result_writes_once_and_finishes_the_table(store: SqliteStore) -> None:
    await store.save_table(make_table("t1", status=TableStatus.PLAYING))
    result = make_result("t1", [(1, 1), (None, 2), (2, 3)], finished_at=T0 + timedelta(hours=1))

    assert await store.record_result(result) is True
    assert await store.record_result(result) is False
    assert await count(store, "SELECT COUNT(*) FROM results") == 1
    assert await count(store, "SELECT COUNT(*) FROM result_players") == 3
    stats = await store.stats(GUILD, 1)
    assert [(s.game, s.games, s.wins) for s in stats] == [("fiasco", 1, 1)]

    # The table is finished (column and document) and no longer resumed.
    assert await store.open_tables() == []
    table = await store.get_table("t1")
    assert table is not None
    assert table.status is TableStatus.FINISHED
    assert table.updated_at == T0 + timedelta(hours=1)
    rows = await query(store, "SELECT record FROM results")
    assert json.loads(rows[0][0]) == result.record


async def test_concurrent_record_result_for_one_table_writes_once(store: SqliteStore) -> None:
    result = make_result("t1", [(1, 1), (2, 2)])
    outcomes = await asyncio.gather(*(store.record_result(result) for _ in range(10)))
    assert sorted(outcomes) == [False] * 9 + [True]
    assert await count(store, "SELECT COUNT(*) FROM results") == 1
    assert [(s.games, s.wins) for s in await store.stats(GUILD, 1)] == [(1, 1)]
    assert [(s.games, s.wins) for s in await store.stats(GUILD, 2)] == [(1, 0)]


async def test_record_result_saves_the_final_table_in_the_same_transaction(
    store: SqliteStore,
) -> None:
    await store.save_table(make_table("t1", status=TableStatus.PLAYING))
    final = make_table("t1", status=TableStatus.PLAYING)
    final.version = 9
    final.record = {"seed": 42, "actions": ["0 play S4", "1 play K"]}
    result = make_result("t1", [(1, 1), (2, 2)])
    result.record = final.record
    assert await store.record_result(result, table=final) is True
    saved = await store.get_table("t1")
    assert saved is not None
    assert saved.status is TableStatus.FINISHED
    assert (saved.version, saved.record) == (9, final.record)
    assert await store.open_tables() == []


async def test_a_finished_game_is_stored_once(store: SqliteStore) -> None:
    """The record lives in results only: the table keeps no copy and no action rows."""
    table = make_table("t1", status=TableStatus.PLAYING)
    await store.save_table(table)
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 1
    result = make_result("t1", [(1, 1), (2, 2)])
    result.record = table.record or {}
    assert await store.record_result(result, table=table) is True
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 0
    [(head,)] = await query(store, "SELECT json_extract(doc, '$.record') FROM tables")
    assert head is None
    saved = await store.get_table("t1")
    assert saved is not None and saved.record == table.record
    # Without the table, the stored one is finished the same way.
    await store.save_table(make_table("t2", status=TableStatus.PLAYING))
    assert await store.record_result(make_result("t2", [(1, 1), (2, 2)])) is True
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 0
    later = await store.get_table("t2")
    assert later is not None and later.record == make_result("t2", []).record


async def test_a_final_table_whose_record_is_not_the_results_is_refused(
    store: SqliteStore,
) -> None:
    table = make_table("t1", status=TableStatus.PLAYING)
    with pytest.raises(ValueError, match="not the result's record"):
        await store.record_result(make_result("t1", [(1, 1), (2, 2)]), table=table)
    assert await count(store, "SELECT COUNT(*) FROM results") == 0


async def test_a_second_record_result_leaves_the_saved_table_alone(store: SqliteStore) -> None:
    first = make_table("t1", status=TableStatus.PLAYING)
    result = make_result("t1", [(1, 1), (2, 2)])
    result.record = first.record or {}
    await store.record_result(result, table=first)
    later = make_table("t1", status=TableStatus.PLAYING)
    later.version = 99
    assert await store.record_result(result, table=later) is False
    saved = await store.get_table("t1")
    assert saved is not None and saved.version == first.version


async def test_record_result_without_a_stored_table(store: SqliteStore) -> None:
    assert await store.record_result(make_result("never-saved", [(1, 1), (2, 2)])) is True
    assert await store.get_table("never-saved") is None


# --------------------------------------------------------------------------- ratings


async def ratings_by_user(store: SqliteStore, guild: int | None, game: str) -> dict[int, float]:
    rows, _ = await store.leaderboard(guild, game, limit=100)
    return {row.user_id: row.rating for row in rows}


async def test_winner_goes_up_and_loser_goes_down(store: SqliteStore) -> None:
    await store.record_result(make_result("g1", [(1, 1), (2, 2)]))
    ratings = await ratings_by_user(store, GUILD, "fiasco")
    assert ratings[1] > display_rating(25.0, 25.0 / 3.0) == 1000.0 > ratings[2]

    before = ratings
    await store.record_result(make_result("g2", [(2, 1), (1, 2)]))
    after = await ratings_by_user(store, GUILD, "fiasco")
    assert after[2] > before[2]
    assert after[1] < before[1]


async def test_computer_seats_are_left_out_of_ratings(store: SqliteStore) -> None:
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
    rows = await query(store, "SELECT user_id, games, wins FROM ratings")
    assert sorted(tuple(r) for r in rows) == [(1, 1, 0), (2, 1, 0)]  # no computer row


async def test_one_human_against_computers_counts_but_is_not_rated(store: SqliteStore) -> None:
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


async def test_tied_places_share_a_rank(store: SqliteStore) -> None:
    await store.record_result(make_result("g1", [(1, 1), (2, 1), (3, 3)]))
    ratings = await ratings_by_user(store, GUILD, "fiasco")
    assert ratings[1] == ratings[2] > ratings[3]


# --------------------------------------------------------------------------- leaderboard


async def test_leaderboard_order_tie_breaks_and_paging(store: SqliteStore) -> None:
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


async def test_no_guild_is_its_own_scope(store: SqliteStore) -> None:
    result = make_result("dm", [(1, 1), (2, 2)], guild_id=None)
    assert await store.record_result(result) is True
    assert await store.record_result(result) is False
    rows, total = await store.leaderboard(None, "fiasco")
    assert total == 2 and [r.user_id for r in rows] == [1, 2]
    assert [g.table_id for g in await store.recent_games(None, 1)] == ["dm"]
    assert await store.stats(GUILD, 1) == []


# --------------------------------------------------------------------------- stats, recent


async def test_stats_and_recent_games(store: SqliteStore) -> None:
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


async def test_fifty_tables_finishing_at_the_same_moment(store: SqliteStore) -> None:
    for i in range(50):
        await store.save_table(make_table(f"old{i}", status=TableStatus.PLAYING))
    results = [
        make_result(f"old{i}", [(1000 + i, 1), (None, 2), (2000 + i, 3)], finished_at=T0)
        for i in range(50)
    ]
    new_tables = [make_table(f"new{i}", status=TableStatus.LOBBY) for i in range(50)]
    calls = [store.record_result(r) for r in results] + [store.save_table(t) for t in new_tables]
    outcomes = await asyncio.gather(*calls)

    assert outcomes[:50] == [True] * 50
    assert await count(store, "SELECT COUNT(*) FROM results") == 50
    assert await count(store, "SELECT COUNT(*) FROM result_players") == 150
    assert {t.id for t in await store.open_tables()} == {f"new{i}" for i in range(50)}
    _, total = await store.leaderboard(GUILD, "fiasco")
    assert total == 100


async def test_two_stores_on_one_file_do_not_lock_each_other(db_path: Path) -> None:
    """Another process (here a second connection) writing at once waits, never fails."""
    first = await SqliteStore.open(db_path)
    second = await SqliteStore.open(db_path)
    try:
        calls = [
            (first if i % 2 else second).record_result(make_result(f"t{i}", [(i, 1), (i + 1, 2)]))
            for i in range(40)
        ]
        calls += [(second if i % 2 else first).save_table(make_table(f"s{i}")) for i in range(40)]
        assert (await asyncio.gather(*calls))[:40] == [True] * 40
        # Both see the other's writes, and duplicates across them are still refused.
        assert await count(first, "SELECT COUNT(*) FROM results") == 40
        assert len(await second.open_tables()) == 40
        assert await second.record_result(make_result("t1", [(1, 1), (2, 2)])) is False
    finally:
        await first.close()
        await second.close()


# --------------------------------------------------------------------------- durability


async def test_reopened_store_sees_everything(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    playing = make_table("p", status=TableStatus.PLAYING)
    await store.save_table(playing)
    await store.save_table(make_table("f", status=TableStatus.PLAYING))
    await store.record_result(make_result("f", [(1, 1), (2, 2)]))
    board = await store.leaderboard(GUILD, "fiasco")
    stats = await store.stats(GUILD, 1)
    recent = await store.recent_games(GUILD, 2)
    await store.close()
    await store.close()  # closing twice is harmless
    with pytest.raises(StoreError):
        await store.get_table("p")

    reopened = await SqliteStore.open(db_path)
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


def test_acknowledged_writes_survive_sigkill(db_path: Path) -> None:
    """A process killed without closing the store loses nothing it had acknowledged."""
    script = textwrap.dedent(
        f"""
        import asyncio, sys, time
        from datetime import UTC, datetime
        from bot.models import StoredTable
        from bot.store import SqliteStore

        async def main():
            store = await SqliteStore.open({str(db_path)!r})
            now = datetime.now(UTC)
            for i in range(20):
                table = StoredTable(id=f"k{{i}}", guild_id=1, channel_id=2, host_id=3,
                                    game="fiasco", created_at=now, updated_at=now)
                await store.save_table(table)
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
        acknowledged = [child.stdout.readline().strip() for _ in range(20)]
        assert acknowledged[-1] == "k19"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)

    async def check() -> set[str]:
        reopened = await SqliteStore.open(db_path)
        try:
            return {t.id for t in await reopened.open_tables()}
        finally:
            await reopened.close()

    assert asyncio.run(check()) == set(acknowledged)


async def test_a_failed_write_rolls_back_and_the_store_keeps_working(store: SqliteStore) -> None:
    bad = make_result("bad", [(1, 1), (2, 2)])
    bad.players[1].seat = 0  # two players in seat 0: the second insert violates the key
    with pytest.raises(sqlite3.IntegrityError):
        await store.record_result(bad)
    assert await count(store, "SELECT COUNT(*) FROM results") == 0
    assert await store.stats(GUILD, 1) == []
    # The same table can still be recorded properly, and other writes go through.
    assert await store.record_result(make_result("bad", [(1, 1), (2, 2)])) is True
    await store.save_table(make_table("after"))
    assert await store.get_table("after") is not None


async def test_cancelled_writes_leave_no_open_transaction(store: SqliteStore) -> None:
    """A write cancelled at any point is all or nothing, and the next write still works."""
    for steps in range(12):
        task = asyncio.create_task(store.record_result(make_result(f"c{steps}", [(1, 1), (2, 2)])))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.save_table(make_table(f"after{steps}"))
        results = await count(store, "SELECT COUNT(*) FROM results")
        players = await count(store, "SELECT COUNT(*) FROM result_players")
        games = await count(store, "SELECT COALESCE(SUM(games), 0) FROM ratings")
        assert players == games == 2 * results
    assert not await store._thread.run(lambda conn: conn.in_transaction)
    assert len(await store.open_tables()) == 12


# --------------------------------------------------------------------------- server settings


async def test_timezone_per_server(store: SqliteStore, db_path: Path) -> None:
    assert await store.get_timezone(GUILD) is None
    await store.set_timezone(GUILD, "Pacific/Auckland")
    assert await store.get_timezone(GUILD) == "Pacific/Auckland"
    assert await store.get_timezone(OTHER_GUILD) is None  # another server is unaffected
    await store.set_timezone(OTHER_GUILD, "Europe/Paris")
    await store.set_timezone(GUILD, "America/New_York")  # replaced, not added
    assert await store.get_timezone(GUILD) == "America/New_York"
    assert await store.get_timezone(OTHER_GUILD) == "Europe/Paris"
    assert await count(store, "SELECT COUNT(*) FROM guild_settings") == 2
    await store.set_timezone(GUILD, None)  # back to the bot's default
    assert await store.get_timezone(GUILD) is None
    assert await store.get_timezone(OTHER_GUILD) == "Europe/Paris"

    # Durable: another store on the file sees it.
    await store.set_timezone(GUILD, "Asia/Tokyo")
    again = await SqliteStore.open(db_path)
    try:
        assert await again.get_timezone(GUILD) == "Asia/Tokyo"
    finally:
        await again.close()


async def test_guild_settings_constraints(store: SqliteStore) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await store.set_timezone(0, "UTC")  # 0 is "no guild": never a server of its own
    with pytest.raises(sqlite3.IntegrityError):
        await store.set_timezone(GUILD, "")
    assert await store.get_timezone(GUILD) is None
    await store.set_timezone(GUILD, "UTC")  # the store still works after a refused write
    assert await store.get_timezone(GUILD) == "UTC"



async def test_recent_games_follow_the_finish_time_not_the_recording_order(
    store: SqliteStore,
) -> None:
    """A game recorded late (a resumed table, an import) still sorts by when it finished."""
    for table_id, minutes in (("late", 1), ("early", 0), ("latest", 5)):
        finished = T0 + timedelta(minutes=minutes)
        await store.record_result(make_result(table_id, [(1, 1), (2, 2)], finished_at=finished))
    assert [g.table_id for g in await store.recent_games(GUILD, 1)] == ["latest", "late", "early"]
    assert [g.table_id for g in await store.recent_games(GUILD, 2, limit=2)] == ["latest", "late"]


async def test_leaderboard_pages_at_every_offset_agree_with_one_sorted_list(
    store: SqliteStore,
) -> None:
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
    await store._write(lambda conn: conn.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)", rows))
    expected = [u for *_, u in sorted((-(mu - 3.0 * sigma), -wins, -games, u)
                                      for _, _, u, mu, sigma, games, wins in rows)]
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 149
    for offset in [*range(0, 150, 7), 148, 149, 150]:
        page, total = await store.leaderboard(GUILD, "fiasco", offset=offset, limit=10)
        assert total == 149
        assert [r.user_id for r in page] == expected[offset:offset + 10], offset
    # The buckets follow rating changes.
    await store._write(lambda conn: conn.execute(
        "UPDATE ratings SET mu = mu + 30 WHERE user_id % 3 = 0"))
    rows = await query(store, "SELECT user_id, mu, sigma, games, wins FROM ratings")
    expected = [u for *_, u in sorted((-(mu - 3.0 * sigma), -wins, -games, u)
                                      for u, mu, sigma, games, wins in rows)]
    for offset in range(0, 150, 10):
        page, _ = await store.leaderboard(GUILD, "fiasco", offset=offset, limit=10)
        assert [r.user_id for r in page] == expected[offset:offset + 10], offset


async def test_the_board_size_follows_players_gaining_and_losing_a_rating(
    store: SqliteStore,
) -> None:
    await store.record_result(make_result("solo", [(1, 1), (None, 2)]))
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 0
    await store.record_result(make_result("duo", [(1, 1), (2, 2)]))
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 2
    await store._write(lambda conn: conn.execute(
        "UPDATE ratings SET mu = NULL, sigma = NULL WHERE user_id = 2"))
    assert (await store.leaderboard(GUILD, "fiasco"))[1] == 1
    await store._write(lambda conn: conn.execute("DELETE FROM ratings WHERE user_id = 1"))
    assert (await store.leaderboard(GUILD, "fiasco")) == ([], 0)


async def test_saving_a_longer_record_writes_only_the_new_action(store: SqliteStore) -> None:
    """The cost of a save does not grow with the game: one head row and one action row."""
    table = make_table("long", status=TableStatus.PLAYING)
    table.record = {"seed": 1, "deals": [], "actions": [f"0 play {n}" for n in range(500)]}
    await store.save_table(table)

    async def changes_of(saved: StoredTable) -> int:
        before = await store._thread.run(lambda conn: conn.total_changes)
        await store.save_table(saved)
        return await store._thread.run(lambda conn: conn.total_changes) - before

    table.record = {**table.record, "actions": [*table.record["actions"], "1 play X"]}
    assert await changes_of(table) == 2
    assert await store.get_table("long") == table
    [(head,)] = await query(store, "SELECT length(doc) FROM tables")
    assert head < 1000  # the 501 actions are not in the head
    # A record that is not an extension of the stored one is rewritten whole.
    table.record = {**table.record, "actions": ["0 play Y", "1 play Z"]}
    await store.save_table(table)
    assert await store.get_table("long") == table
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 2
    table.record = {**table.record, "actions": ["0 play Q", "1 play R", "2 play S"]}
    await store.save_table(table)
    assert await store.get_table("long") == table
    # A record without actions keeps none.
    table.record = {"seed": 1}
    await store.save_table(table)
    assert await store.get_table("long") == table
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 0


# --------------------------------------------------------------------------- group commit


async def test_writes_queued_together_share_one_transaction(store: SqliteStore) -> None:
    before = store.groups_committed
    await asyncio.gather(*(store.save_table(make_table(f"g{i}")) for i in range(32)))
    assert store.groups_committed == before + 1
    assert len(await store.open_tables()) == 32


async def test_a_failing_write_fails_alone_and_its_group_commits(store: SqliteStore) -> None:
    bad = make_result("bad", [(1, 1), (2, 2)])
    bad.players[1].seat = 0  # two players in seat 0: violates the key
    before = store.groups_committed
    outcomes = await asyncio.gather(
        store.save_table(make_table("first")),
        store.record_result(bad),
        store.record_result(make_result("good", [(1, 1), (2, 2)])),
        return_exceptions=True,
    )
    assert store.groups_committed == before + 1
    assert outcomes[0] is None and outcomes[2] is True
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert await store.get_table("first") is not None
    assert [r[0] for r in await query(store, "SELECT table_id FROM results")] == ["good"]


async def test_a_group_whose_commit_fails_fails_every_caller(store: SqliteStore) -> None:
    """No caller hears "saved" unless the COMMIT its write was part of succeeded."""

    def dangling(conn: sqlite3.Connection) -> None:
        # Deferred: the broken foreign key is only caught by COMMIT, for the whole group.
        conn.execute("PRAGMA defer_foreign_keys = ON")
        conn.execute("INSERT INTO result_players (result_id, seat, user_id, name, score, "
                     "place, winner) VALUES (999, 0, 1, 'x', 0, 1, 1)")

    outcomes = await asyncio.gather(
        store.save_table(make_table("a")),
        store._write(dangling),
        store.save_table(make_table("b")),
        return_exceptions=True,
    )
    assert all(isinstance(o, GroupCommitError) for o in outcomes), outcomes
    assert await store.open_tables() == []
    assert await count(store, "SELECT COUNT(*) FROM result_players") == 0
    # The store goes on working.
    await store.save_table(make_table("c"))
    assert [t.id for t in await store.open_tables()] == ["c"]


# --------------------------------------------------------------------------- the benchmark


def test_the_store_benchmark_runs_and_writes_its_figures(tmp_path: Path) -> None:
    """``python -m bench.store --quick``: the table and the JSON have every figure (shape only)."""
    from bench import store as bench_store

    out = tmp_path / "store.json"
    bench_store.main(["--quick", "--json", str(out), "--cache", str(tmp_path / "cache")])
    data = json.loads(out.read_text())
    assert {"cpus", "python", "sqlite", "platform"} <= set(data["machine"])
    names = [f["name"] for f in data["figures"]]
    assert any(n.startswith("actions/s, 1 table, short") for n in names)
    assert any(n.startswith("actions/s, 8 tables") for n in names)
    for query in ("/leaderboard page 1", "/leaderboard last page", "/stats"):
        assert sum(n.startswith(query) for n in names) == 2, query  # new and before migration 5
    for figure in data["figures"]:
        assert figure["runs"] >= 2 and figure["low"] <= figure["median"] <= figure["high"]
        assert figure["median"] > 0


async def test_pictures_per_server(store: SqliteStore) -> None:
    assert await store.get_pictures(GUILD) is True  # on unless turned off
    await store.set_timezone(GUILD, "Europe/Paris")
    await store.set_pictures(GUILD, False)
    assert await store.get_pictures(GUILD) is False
    assert await store.get_pictures(OTHER_GUILD) is True
    assert await store.get_timezone(GUILD) == "Europe/Paris"  # one setting leaves the other
    await store.set_pictures(GUILD, True)
    assert await store.get_pictures(GUILD) is True


# --------------------------------------------------------------------------- retention


async def test_pruning_drops_old_closed_tables_and_keeps_results_and_open_tables(
    store: SqliteStore,
) -> None:
    old, new = T0, T0 + timedelta(days=40)
    for table_id, status, at in [("open-old", TableStatus.PLAYING, old),
                                 ("lobby-old", TableStatus.LOBBY, old),
                                 ("gone-old", TableStatus.CANCELLED, old),
                                 ("gone-new", TableStatus.CANCELLED, new)]:
        await store.save_table(make_table(table_id, status=status, created_at=at))
    result = make_result("done-old", [(1, 1), (2, 2)])
    finished = make_table("done-old", status=TableStatus.FINISHED, created_at=old)
    finished.record = result.record
    assert await store.record_result(result, table=finished)
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 3  # open, gone-old, -new

    cutoff = T0 + timedelta(days=30)
    assert await store.prune_tables(cutoff) == 2  # gone-old, done-old
    assert await store.get_table("gone-old") is None and await store.get_table("done-old") is None
    for kept in ("open-old", "lobby-old", "gone-new"):
        assert await store.get_table(kept) is not None, kept
    assert await count(store, "SELECT COUNT(*) FROM table_actions") == 2
    assert await count(store, "SELECT COUNT(*) FROM results WHERE table_id = 'done-old'") == 1
    assert [s.games for s in await store.stats(GUILD, 1)] == [1]
    assert await store.prune_tables(cutoff) == 0  # nothing twice
