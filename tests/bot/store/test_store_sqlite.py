"""What only the SQLite store has: its migrations (from every old schema), its connection's
settings, and group commit on its connection. Everything both stores owe is in
``test_store.py``.

A test looks at the file through a sqlite3 connection of its own, never the store's.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import textwrap
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import bot.store.sqlite.store as store_module
import games
from bot.models import StoredTable, TableStatus
from bot.store.api import ChannelTaken, StaleTable
from bot.store.rows import iso, split_record
from bot.store.schema import (
    Migration,
    MigrationError,
    SchemaTooNewError,
    load_migrations,
    split_statements,
)
from bot.store.sqlite.commit import GroupCommitError
from bot.store.sqlite.store import SqliteStore
from bot.tables.service import TableService
from tests.bot.store.test_store import GUILD, T0, make_result, make_table, moved
from tests.botdriver import settings_for

LATEST = len(load_migrations())


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "fivefold.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(db_path)
    yield opened
    await opened.close()


def query(path: Path | str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on a connection of the test's own to the file."""
    conn = sqlite3.connect(path)
    try:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def count(path: Path | str, sql: str) -> int:
    return int(query(path, sql)[0][0])


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def table_names(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


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


async def test_wal_foreign_keys_and_full_sync_are_on(db_path: Path) -> None:
    """The connection the store opens (:func:`bot.store.sqlite.store._connect`)."""
    conn = await store_module._connect(str(db_path))

    async def pragma(name: str) -> Any:
        return next(iter(await conn.execute_fetchall(f"PRAGMA {name}")))[0]

    try:
        assert await pragma("journal_mode") == "wal"
        assert await pragma("foreign_keys") == 1
        assert await pragma("synchronous") == 2  # FULL
        assert await pragma("busy_timeout") > 0
        # Foreign keys are enforced, not merely declared.
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute(
                "INSERT INTO result_players (result_id, seat, user_id, name, score, place,"
                " winner) VALUES (999, 0, 1, 'x', 0, 1, 1)")
    finally:
        await conn.close()
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
    return game.record().model_dump()


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
        assert count(db_path, "SELECT COUNT(*) FROM table_actions") == 40
        heads = dict(query(db_path, "SELECT id, json_extract(doc, '$.record') FROM tables"))
        assert heads["v3-done"] is None
        assert json.loads(heads["v3-playing"])["actions"] == 40
        # The board and its size survive, and stats read the new index.
        board, total = await store.leaderboard(GUILD, "fiasco")
        assert ([r.user_id for r in board], total) == ([1, 2], 2)
        assert [(s.games, s.wins) for s in await store.stats(GUILD, 1)] == [(1, 1)]
        assert await store.record_result(make_result("v3-done", [(1, 1), (2, 2)])) is False

        # The game in play resumes from the migrated rows and plays on.
        # (At the time the tables were saved: later, the lobby would have expired.)
        manager = TableService(store, settings_for(tmp_path), clock=lambda: T0)
        resumed = await manager.restart.resume_all()
        assert [s.id for s in resumed] == ["v3-lobby", "v3-playing"]
        game = manager.registry.get("v3-playing").game
        assert game is not None and game.record().model_dump() == playing.record
        seat = game.to_act
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
        playing.record = game.record().model_dump()
        playing.version += 1
        await store.append_action(playing, game.history[-1])
        assert count(db_path, "SELECT COUNT(*) FROM table_actions") == 41
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


# --------------------------------------------------------------------------- group commit


async def test_writes_queued_together_share_one_transaction(store: SqliteStore) -> None:
    before = store.groups_committed
    await asyncio.gather(*(store.create_table(make_table(f"g{i}")) for i in range(32)))
    assert store.groups_committed == before + 1
    assert len(await store.open_tables()) == 32


async def test_a_failing_write_fails_alone_and_its_group_commits(store: SqliteStore) -> None:
    bad = make_result("bad", [(1, 1), (2, 2)])
    bad.players[1].seat = 0  # two players in seat 0: violates the key
    before = store.groups_committed
    outcomes = await asyncio.gather(
        store.create_table(make_table("first")),
        store.record_result(bad),
        store.record_result(make_result("good", [(1, 1), (2, 2)])),
        return_exceptions=True,
    )
    assert store.groups_committed == before + 1
    assert outcomes[0] is None and outcomes[2] is True
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert await store.get_table("first") is not None
    assert [r[0] for r in query(store.path, "SELECT table_id FROM results")] == ["good"]


async def test_actions_queued_together_share_their_statements_and_fail_alone(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thirty-two tables' actions in one group are one ``executemany`` per statement (a few
    round trips to the connection's thread in all); one of them stale and one whose row is
    already there fail alone, with their own errors, and the thirty others commit with them
    in that one transaction."""
    tables = [make_table(f"b{i}", status=TableStatus.PLAYING) for i in range(32)]
    await asyncio.gather(*(store.create_table(t) for t in tables))
    calls = []
    real = store._db._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(store._db, "_execute", counted)
    tables = [moved(t, f"0 play {i}") for i, t in enumerate(tables)]
    await asyncio.gather(*(store.append_action(t, f"0 play {i}") for i, t in enumerate(tables)))
    assert len(calls) <= 4, calls  # BEGIN, two executemany, COMMIT
    monkeypatch.undo()
    moves = [moved(t, f"1 play {i}") for i, t in enumerate(tables)]
    moves[5] = moves[5].model_copy(update={"version": 3})  # stale
    conn = sqlite3.connect(store.path)
    with conn:  # the row of b9's next action is there already: the insert will fail
        conn.execute("INSERT INTO table_actions VALUES ('b9', 2, '\"1 play 9\"')")
    conn.close()
    before = store.groups_committed
    outcomes = await asyncio.gather(*(store.append_action(m, f"1 play {i}")
                                      for i, m in enumerate(moves)), return_exceptions=True)
    assert store.groups_committed == before + 1
    assert isinstance(outcomes[5], StaleTable)
    assert isinstance(outcomes[9], sqlite3.IntegrityError)
    assert [i for i, o in enumerate(outcomes) if o is not None] == [5, 9]
    stored = dict(query(store.path, "SELECT id, version FROM tables"))
    assert stored == {f"b{i}": 4 if i in (5, 9) else 5 for i in range(32)}
    assert count(store.path, "SELECT COUNT(*) FROM table_actions") == 32 * 2 + 30 + 1


async def test_a_group_whose_commit_fails_fails_every_caller(db_path: Path) -> None:
    """No caller hears "saved" unless the COMMIT its write was part of succeeded."""

    async def dangling(conn: aiosqlite.Connection) -> None:
        # Deferred: the broken foreign key is only caught by COMMIT, for the whole group.
        await conn.execute("PRAGMA defer_foreign_keys = ON")
        await conn.execute("INSERT INTO result_players (result_id, seat, user_id, name, score, "
                           "place, winner) VALUES (999, 0, 1, 'x', 0, 1, 1)")

    def insert(n: int) -> Callable[[aiosqlite.Connection], Awaitable[object]]:
        return lambda conn: conn.execute("INSERT INTO results (table_id, game, finished_at, "
                                         "record) VALUES (?, 'fiasco', 'now', '{}')", (f"t{n}",))

    store = await SqliteStore.open(db_path)
    try:
        outcomes = await asyncio.gather(
            store._write(insert(1)),
            store._write(dangling),
            store._write(insert(2)),
            return_exceptions=True,
        )
        assert all(isinstance(o, GroupCommitError) for o in outcomes), outcomes
        assert count(db_path, "SELECT COUNT(*) FROM results") == 0
        assert count(db_path, "SELECT COUNT(*) FROM result_players") == 0
        # The store goes on working.
        await store._write(insert(3))
        assert count(db_path, "SELECT COUNT(*) FROM results") == 1
    finally:
        await store.close()


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
    # Today's store against the store before aiosqlite (loaded from git), in the same run.
    assert any(n.startswith("actions/s, 8 tables") and "thread store" in n for n in names)
    assert any(n.startswith("new/old, actions/s, 8 tables") for n in names)
    for query in ("/leaderboard page 1", "/leaderboard last page", "/stats"):
        assert sum(n.startswith(query) for n in names) == 2, query  # new and before migration 5
    for figure in data["figures"]:
        assert figure["runs"] >= 2 and figure["low"] <= figure["median"] <= figure["high"]
        assert figure["median"] > 0




async def test_the_version_migration_keeps_one_open_table_per_channel(db_path: Path) -> None:
    """Before migration 7 two open tables could share a channel (after a crash at the wrong
    moment): the newest stays open, the older is closed with its record kept, and every
    table's version moves from its document to the column the saves compare."""
    [new] = [m for m in load_migrations() if m.name == "table_versions"]
    older = make_table("older", status=TableStatus.PLAYING, channel_id=9)
    newer = make_table("newer", channel_id=9, created_at=T0 + timedelta(minutes=5))
    alone = make_table("alone", channel_id=10)
    conn = sqlite3.connect(db_path)
    try:
        for migration in load_migrations()[: new.version - 1]:
            for statement in split_statements(migration.sql):
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {new.version - 1:d}")
        for table in (older, newer, alone):  # as the store wrote them before migration 7
            doc, actions = split_record(table)
            conn.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (table.id, table.guild_id, table.channel_id, table.message_id,
                          table.host_id, table.game, table.status.value, doc,
                          iso(table.created_at), iso(table.updated_at)))
            conn.executemany("INSERT INTO table_actions VALUES (?, ?, ?)",
                             [(table.id, n, a) for n, a in enumerate(actions or [])])
        conn.commit()
    finally:
        conn.close()
    async with await SqliteStore.open(db_path) as store:
        assert user_version(db_path) == LATEST
        assert [t.id for t in await store.open_tables()] == ["alone", "newer"]
        closed = await store.get_table("older")
        assert closed is not None and closed.status is TableStatus.CANCELLED
        assert closed.record == older.record
        assert dict(query(db_path, "SELECT id, version FROM tables")) == {
            "older": 3, "newer": 3, "alone": 3}
        with pytest.raises(ChannelTaken):
            await store.create_table(make_table("third", channel_id=10))
        await store.save_head(newer.model_copy(update={"version": 4}))
