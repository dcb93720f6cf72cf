"""The store's speed: durable actions per second, and the leaderboard and stats queries.

    .venv/bin/python -m bench.store [--runs 5] [--json PATH] [--quick] [--cache DIR]
                                    [--rev REV] [--url postgresql://...]

Durable actions
    Each action is one ``append_action`` of a table whose record gained one action,
    awaited until SQLite has fsynced it (WAL, ``synchronous=FULL``), exactly as
    :meth:`bot.tables.actions.Actions.commit` saves. The records are a real Fizzbin game's
    (1,154 actions), prepared before timing. *short* saves actions 1 to 50 of
    it, *long* actions 1,001 to 1,050: the goal is the same cost for both
    (ratio long/short near 1). *tables N* runs N tables at once, each saving
    its own actions one after the other (the way N busy channels do); group
    commit should make N tables much faster in total than one.

    The reference, in the same run: the SQLite store as it was at ``--rev`` before it
    moved onto aiosqlite (its own ``sqlite3`` thread; ``save_table`` finding the new
    action by comparing records), read with ``git show`` and loaded beside today's as
    ``bench.fast_versus`` loads an old fast path. By default the revision is the last
    one that had ``bot/store/sqlite/thread.py``. The two run round-robin, case by case,
    and each case gives the ratio new/old of every round: its median and spread.

Queries
    A database of N finished two-player games in one server with N/10 rated
    players (10k, 100k, 1M results; 1M means 100k players) is built once with
    ``executemany`` and kept in ``--cache`` (a temp dir by default). Timed
    through the store's own methods: ``/leaderboard`` page 1, the middle page
    and the last page; ``/stats`` (``stats`` + ``recent_games``, as the command
    does) for the busiest player. The same queries as the schema before
    migration 5 ran them (the board sorted on each page and paged with OFFSET,
    counted by a scan; stats without the index on server and player; recent
    games through the old (user, result) index, then sorted) are timed on the
    same database as the reference.

PostgreSQL (``--url``)
    The same figures for the PostgreSQL store on the server the URL names (each
    run in a schema of its own, dropped after; ``scripts/postgres start DIR``
    starts a throwaway server), each beside the SQLite store's as its
    reference, measured in the same process, round-robin. The query databases
    are the SQLite ones, copied in with ``python -m bot migrate-db``'s copy.
    Bytes per action are not measured there (the server writes, not us).

Every figure is the median over ``--runs`` runs, with the spread (min to max).
``--quick`` runs tiny sizes in a few seconds (for the test of this script's
output, not for its numbers).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import secrets
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.store.api import Store
from bot.store.connect import open_store
from bot.store.migrate import migrate
from bot.store.sqlite.store import SqliteStore
from bot.store.url import parse_database_url

THREAD_STORE = "bot/store/sqlite/thread.py"
"""The file of the store's own ``sqlite3`` thread, gone since the store runs on aiosqlite."""
BEFORE_MODULES = ("bot.store.rows", "bot.store.schema", "bot.store.sqlite.thread",
                  "bot.store.sqlite.store")
"""The modules of the SQLite store that changed with the move to aiosqlite, loaded as they
were at the reference revision (in this order: each imports the ones before it)."""

GUILD = 424242
GAME = "fiasco"
BUILD_VERSION = 3  # bump when the shape of the cached query databases changes (3: migration 7)


# --------------------------------------------------------------------------- figures


@dataclass
class Figure:
    """One measured quantity: the median of its runs and their spread."""

    name: str
    unit: str
    median: float
    low: float
    high: float
    runs: int
    reference: str | None = None
    ratio: float | None = None  # this median over the reference's (for times: < 1 is faster)

    @classmethod
    def of(cls, name: str, unit: str, samples: list[float]) -> Figure:
        return cls(name, unit, statistics.median(samples), min(samples), max(samples),
                   len(samples))


@dataclass
class Report:
    machine: dict[str, Any]
    figures: list[Figure] = field(default_factory=list)

    def add(self, figure: Figure, *, reference: Figure | None = None) -> Figure:
        if reference is not None and reference.median:
            figure.reference = reference.name
            figure.ratio = figure.median / reference.median
        self.figures.append(figure)
        return figure


def machine(where: Path) -> dict[str, Any]:
    """What the figures depend on: CPU, Python, SQLite and the disk the database is on."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "database_dir": str(where),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
    }


# --------------------------------------------------------------------------- durable actions


def game_records() -> list[dict[str, Any]]:
    """The record of one long Fizzbin game after each of its actions (index k: k+1 actions)."""
    game = games.new_game("fizzbin", 4, {}, seed=1)
    rng = random.Random(2)
    records = []
    while not game.over:
        seat = game.to_act
        assert seat is not None
        actions = game.legal_actions(seat)
        game.apply(seat, actions[rng.randrange(len(actions))])
        records.append({**game.record().model_dump(), "meta": {"table": "bench"}})
    return records


def table(table_id: str, record: dict[str, Any], version: int) -> StoredTable:
    stamp = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=version)
    return StoredTable(
        id=table_id, guild_id=GUILD, channel_id=hash(table_id) % 10**9, host_id=1, game="fizzbin",
        status=TableStatus.PLAYING, record=record, version=version,
        seats=[Seat(user_id=u, name=f"player {u}") for u in range(1, 5)],
        created_at=stamp, updated_at=stamp)


def before_revision() -> str:
    """The last revision whose SQLite store ran on its own thread (the reference): the
    parent of the commit that deleted it. ``--full-history``: the thread lived and died on
    a branch, and a merge into a first parent that never had it hides that branch from
    git's default history simplification."""
    deleted = subprocess.run(["git", "log", "--full-history", "--diff-filter=D", "-1",
                              "--format=%H", "HEAD", "--", THREAD_STORE],
                             capture_output=True, text=True, check=False).stdout.strip()
    if deleted:
        return f"{deleted}^"
    last = subprocess.run(["git", "rev-list", "-1", "HEAD", "--", THREAD_STORE],
                          capture_output=True, text=True, check=False).stdout.strip()
    if not last:
        raise SystemExit(f"bench.store: no revision in git has {THREAD_STORE}; name one "
                         "with --rev")
    return last


def store_before(rev: str) -> types.ModuleType:
    """The SQLite store module as it was at ``rev``, loaded beside today's (its own copies
    of :data:`BEFORE_MODULES`; the rest, such as the models and the errors, today's)."""
    label = subprocess.run(["git", "rev-parse", "--short", rev], capture_output=True,
                           text=True, check=False).stdout.strip() or rev
    names = {name: f"_store_at_{label}_{name.rsplit('.', 1)[-1]}" for name in BEFORE_MODULES}
    pattern = re.compile("|".join(re.escape(name) for name in BEFORE_MODULES) + r"\b")
    module = None
    for name in BEFORE_MODULES:
        path = name.replace(".", "/") + ".py"
        shown = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True,
                               text=True, check=False)
        if shown.returncode != 0:
            raise SystemExit(f"bench.store: {rev} has no {path}: {shown.stderr.strip()}")
        module = types.ModuleType(names[name])
        module.__file__ = f"{path}@{label}"
        sys.modules[module.__name__] = module  # the next module imports it by this name
        source = pattern.sub(lambda m: names[m.group(0)], shown.stdout).replace(
            "from bot.tables.timers import SERVER_CHOICES",  # where it lives since
            "from bot.models import SERVER_CHOICES")
        exec(compile(source, module.__file__, "exec"), module.__dict__)  # our own code, from git
    assert module is not None
    module.REVISION = label  # type: ignore[attr-defined]
    return module


Save = Callable[[StoredTable], Awaitable[None]]
"""One durable action: the table at its new version, its record one action longer."""


def saver(store: Any) -> Save:
    """How ``store`` saves an action: today's appends it, the store before compared records."""
    if hasattr(store, "append_action"):
        return lambda saved: store.append_action(saved, (saved.record or {})["actions"][-1])
    return lambda saved: store.save_table(saved)


async def seed_tables(store: Any, names: list[str], record: dict[str, Any],
                      version: int) -> None:
    """Store each table with ``record`` already (the state before the timed actions)."""
    create = store.create_table if hasattr(store, "create_table") else store.save_table
    await asyncio.gather(*(create(table(n, record, version)) for n in names))


async def play(save: Save, name: str, records: list[dict[str, Any]], first: int,
               count: int) -> None:
    """Save ``count`` actions of table ``name``, one after the other (each awaited, durable)."""
    for k in range(first, first + count):
        await save(table(name, records[k], k + 1))


def bytes_written() -> int | None:
    """Bytes this process has passed to write() so far (Linux), for bytes per action."""
    try:
        text = Path("/proc/self/io").read_text()
    except OSError:
        return None
    return next(int(line.split()[1]) for line in text.splitlines() if line.startswith("wchar"))


@dataclass
class Run:
    actions_per_s: float
    bytes_per_action: float | None


@contextlib.asynccontextmanager
async def fresh_schema(url: str) -> AsyncIterator[str]:
    """``url`` in a new, empty schema of the PostgreSQL database, dropped afterwards."""
    schema = f"bench_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield f"{url}{'&' if '?' in url else '?'}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def actions_per_second(path: Path, records: list[dict[str, Any]], *, tables: int,
                             first: int, count: int, before: types.ModuleType | None = None,
                             postgres: str | None = None) -> Run:
    """Durable actions per second of ``tables`` tables each saving ``count`` actions at once.

    On the SQLite file ``path`` with today's store (``before``: that module's store), or with
    ``postgres`` on that server, in a fresh schema.
    """
    if postgres is not None:
        async with fresh_schema(postgres) as url:
            store = await open_store(url)
            try:
                return await _timed_actions(store, records, tables=tables, first=first,
                                            count=count, measure_bytes=False)
            finally:
                await store.close()
    path.unlink(missing_ok=True)
    opened = await (SqliteStore if before is None else before.SqliteStore).open(path)
    try:
        run = await _timed_actions(opened, records, tables=tables, first=first, count=count)
    finally:
        await opened.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return run


async def _timed_actions(store: Any, records: list[dict[str, Any]], *, tables: int,
                         first: int, count: int, measure_bytes: bool = True) -> Run:
    """The timed part of :func:`actions_per_second` on an open, empty ``store``."""
    names = [f"t{i}" for i in range(tables)]
    start = records[first - 1] if first else {**records[0], "actions": []}
    await seed_tables(store, names, start, first)
    save = saver(store)
    written = bytes_written() if measure_bytes else None
    began = time.perf_counter()
    await asyncio.gather(*(play(save, n, records, first, count) for n in names))
    elapsed = time.perf_counter() - began
    after = bytes_written() if measure_bytes else None
    per_action = None if written is None or after is None else (after - written) / (tables * count)
    return Run(tables * count / elapsed, per_action)


async def bench_actions(report: Report, workdir: Path, runs: int, quick: bool,
                        before: types.ModuleType) -> None:
    """Durable actions, today's store and the store before aiosqlite, round-robin."""
    records = game_records()
    count = 10 if quick else 50
    path = workdir / "actions.db"
    label = f"thread store ({before.REVISION})"
    cases = action_cases(quick)
    done: dict[tuple[str, bool], list[Run]] = {}
    # Round-robin, so that a burst of load on the machine (fsync times vary with
    # other processes' writes) falls on every case alike rather than on one.
    for _ in range(runs):
        for name, (tables, first) in cases.items():
            for old in (False, True):
                done.setdefault((name, old), []).append(await actions_per_second(
                    path, records, tables=tables, first=first, count=count,
                    before=before if old else None))
    short = next(iter(cases))
    for name in cases:
        for old in (False, True):
            runs_of = done[(name, old)]
            suffix = f", {label}" if old else ""
            reference = None if name == short else next(
                f for f in report.figures if f.name == f"actions/s, {short}{suffix}")
            report.add(Figure.of(f"actions/s, {name}{suffix}", "actions/s",
                                 [r.actions_per_s for r in runs_of]), reference=reference)
            sizes = [r.bytes_per_action for r in runs_of if r.bytes_per_action is not None]
            if sizes:
                report.add(Figure.of(f"bytes written per action, {name}{suffix}", "bytes",
                                     sizes))
        report.add(Figure.of(f"new/old, actions/s, {name}", "x", [
            new.actions_per_s / old.actions_per_s
            for new, old in zip(done[(name, False)], done[(name, True)], strict=True)]))


# --------------------------------------------------------------------------- queries


def build(path: Path, results: int, players: int, seed: int = 7) -> None:
    """A database of ``results`` two-player games among ``players`` rated people, one server."""
    if path.exists():
        return
    partial = path.with_suffix(".building")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{partial}{suffix}").unlink(missing_ok=True)
    asyncio.run(_migrated(partial))
    rng = random.Random(seed)
    conn = sqlite3.connect(partial)
    conn.execute("PRAGMA synchronous = OFF")
    games_of = [0] * players
    wins_of = [0] * players
    start = datetime(2025, 1, 1, tzinfo=UTC)
    stamps = [(start + timedelta(seconds=37 * i)).isoformat(timespec="microseconds")
              for i in range(results)]
    regulars = max(players // 1000, 1)
    with conn:
        conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)",
                         ((i + 1, f"r{i}", GUILD, GAME, stamps[i], "{}")
                          for i in range(results)))

        def player_rows() -> Any:
            for i in range(results):
                # One game in ten has one of the regulars (~1,000 games each at 1M results).
                a = rng.randrange(regulars) if rng.random() < 0.1 else rng.randrange(players)
                b = rng.randrange(players)
                b = (b + 1) % players if b == a else b
                winner = rng.random() < 0.5
                for seat, (user, won) in enumerate(((a, winner), (b, not winner))):
                    games_of[user] += 1
                    wins_of[user] += won
                    yield (i + 1, seat, 10_000 + user, f"p{user}", 10 * won, 2 - won, int(won),
                           GUILD, stamps[i])

        conn.executemany("INSERT INTO result_players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         player_rows())
        conn.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            ((GUILD, GAME, 10_000 + u, rng.gauss(25, 4), rng.uniform(1, 8.3),
              max(games_of[u], 1), min(wins_of[u], max(games_of[u], 1)))
             for u in range(players)))
    conn.execute("ANALYZE")
    conn.close()
    os.replace(partial, path)


async def _migrated(path: Path) -> None:
    store = await SqliteStore.open(path)
    await store.close()


async def timed(work: Callable[[], Awaitable[object]], repeat: int) -> float:
    """The median time of one call of ``work`` over ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        await work()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


OLD_BOARD = """
SELECT user_id, mu, sigma, games, wins FROM ratings NOT INDEXED
WHERE guild_id = ? AND game = ? AND mu IS NOT NULL
ORDER BY mu - 3.0 * sigma DESC, wins DESC, games DESC, user_id LIMIT 10 OFFSET ?
"""
OLD_COUNT = "SELECT COUNT(*) FROM ratings NOT INDEXED WHERE guild_id = ? AND game = ? " \
            "AND mu IS NOT NULL"
OLD_STATS = """
SELECT game, games, wins, mu, sigma FROM ratings NOT INDEXED
WHERE guild_id = ? AND user_id = ? AND games > 0 ORDER BY games DESC, game
"""
OLD_RECENT = """
SELECT r.table_id, r.game, r.finished_at, MIN(p.place) AS place, p.score,
       (SELECT COUNT(*) FROM result_players AS q WHERE q.result_id = r.id) AS players
FROM result_players AS p INDEXED BY bench_result_players_user
JOIN results AS r ON r.id = p.result_id
WHERE p.user_id = ? AND r.guild_id = ?
GROUP BY r.id ORDER BY r.finished_at DESC, r.id DESC LIMIT 5
"""


async def bench_queries(report: Report, cache: Path, runs: int, sizes: list[int]) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for results in sizes:
        players = max(results // 10, 10)
        path = cache / f"queries-v{BUILD_VERSION}-{results}.db"
        began = time.perf_counter()
        await asyncio.to_thread(build, path, results, players)
        built = time.perf_counter() - began
        if built > 1:
            print(f"  built {path.name} ({results:,} results) in {built:.0f} s")
        with sqlite3.connect(path) as conn:
            # The index the pre-migration recent-games query used (migration 5 drops it).
            conn.execute("CREATE INDEX IF NOT EXISTS bench_result_players_user "
                         "ON result_players (user_id, result_id)")
        store = await SqliteStore.open(path)
        try:
            await _time_queries(report, store, results, players, runs)
        finally:
            await store.close()


async def _time_queries(report: Report, store: SqliteStore, results: int, players: int,
                        runs: int) -> None:
    label = f"{results // 1000:,}k results, {players // 1000:,}k players" if results >= 10_000 \
        else f"{results:,} results, {players:,} players"
    _, total = await store.leaderboard(GUILD, GAME)
    last = (total - 1) // 10 * 10
    # The queries before migration 5 on a connection of their own, on a thread as the
    # store's run.
    conn = sqlite3.connect(store.path, check_same_thread=False)
    busiest = conn.execute("SELECT user_id FROM ratings WHERE guild_id = ? "
                           "ORDER BY games DESC LIMIT 1", (GUILD,)).fetchone()[0]
    repeat = 20

    async def board(offset: int) -> None:
        await store.leaderboard(GUILD, GAME, offset=offset)

    async def stats() -> None:
        await store.stats(GUILD, busiest)
        await store.recent_games(GUILD, busiest, limit=5)

    def read_before(*queries: tuple[str, tuple[object, ...]]) -> Awaitable[list[Any]]:
        return asyncio.to_thread(lambda: [conn.execute(sql, params).fetchall()
                                          for sql, params in queries])

    async def old_board(offset: int) -> None:
        await read_before((OLD_BOARD, (GUILD, GAME, offset)), (OLD_COUNT, (GUILD, GAME)))

    async def old_stats() -> None:
        await read_before((OLD_STATS, (GUILD, busiest)))
        await read_before((OLD_RECENT, (busiest, GUILD)))

    cases: list[tuple[str, Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]] = [
        ("/leaderboard page 1", lambda: board(0), lambda: old_board(0)),
        ("/leaderboard middle page", lambda: board(last // 20 * 10),
         lambda: old_board(last // 20 * 10)),
        ("/leaderboard last page", lambda: board(last), lambda: old_board(last)),
        ("/stats (busiest player)", stats, old_stats),
    ]
    try:
        for name, new, old in cases:
            reference = Figure.of(f"{name}, {label}, before migration 5", "ms",
                                  [await timed(old, max(2, repeat // 4)) for _ in range(runs)])
            report.add(reference)
            report.add(Figure.of(f"{name}, {label}", "ms",
                                 [await timed(new, repeat) for _ in range(runs)]),
                       reference=reference)
    finally:
        conn.close()


# --------------------------------------------------------------------------- PostgreSQL


def action_cases(quick: bool) -> dict[str, tuple[int, int]]:
    """The durable-action cases: name -> (tables at once, first action)."""
    count = 10 if quick else 50
    long_first = 100 if quick else 1000
    cases = {f"1 table, short game (actions 1-{count})": (1, 0),
             f"1 table, long game (actions {long_first + 1}-{long_first + count})":
                 (1, long_first)}
    for tables in (8,) if quick else (8, 32):
        cases[f"{tables} tables at once, long games"] = (tables, long_first)
    return cases


async def bench_actions_pg(report: Report, workdir: Path, runs: int, quick: bool,
                           url: str) -> None:
    """Durable actions on PostgreSQL, each case beside SQLite's in the same process."""
    records = game_records()
    count = 10 if quick else 50
    path = workdir / "actions.db"
    done: dict[tuple[str, str], list[Run]] = {}
    for _ in range(runs):
        for name, (tables, first) in action_cases(quick).items():
            for backend in ("sqlite", "postgresql"):
                run = await actions_per_second(path, records, tables=tables, first=first,
                                               count=count,
                                               postgres=url if backend == "postgresql" else None)
                done.setdefault((name, backend), []).append(run)
    for name in action_cases(quick):
        reference = report.add(Figure.of(f"actions/s, {name}, SQLite", "actions/s",
                                          [r.actions_per_s for r in done[(name, "sqlite")]]))
        report.add(Figure.of(f"actions/s, {name}, PostgreSQL", "actions/s",
                             [r.actions_per_s for r in done[(name, "postgresql")]]),
                   reference=reference)


async def bench_queries_pg(report: Report, cache: Path, runs: int, sizes: list[int],
                           url: str) -> None:
    """The queries on PostgreSQL, on copies of the SQLite databases, beside SQLite's."""
    cache.mkdir(parents=True, exist_ok=True)
    for results in sizes:
        players = max(results // 10, 10)
        path = cache / f"queries-v{BUILD_VERSION}-{results}.db"
        await asyncio.to_thread(build, path, results, players)
        async with fresh_schema(url) as schema_url:
            began = time.perf_counter()
            await migrate(f"sqlite:///{path}", schema_url)
            copied = time.perf_counter() - began
            if copied > 1:
                print(f"  copied {path.name} into PostgreSQL in {copied:.0f} s")
            admin = await asyncpg.connect(schema_url)
            try:
                await admin.execute("ANALYZE")
            finally:
                await admin.close()
            sqlite = await SqliteStore.open(path)
            postgres = await open_store(schema_url)
            try:
                await _time_pg_queries(report, sqlite, postgres, path, results, players, runs)
            finally:
                await postgres.close()
                await sqlite.close()


async def _time_pg_queries(report: Report, sqlite: Store, postgres: Store, path: Path,
                           results: int, players: int, runs: int) -> None:
    label = f"{results // 1000:,}k results, {players // 1000:,}k players" if results >= 10_000 \
        else f"{results:,} results, {players:,} players"
    _, total = await sqlite.leaderboard(GUILD, GAME)
    last = (total - 1) // 10 * 10
    with sqlite3.connect(path) as conn:
        busiest = conn.execute("SELECT user_id FROM ratings WHERE guild_id = ? "
                               "ORDER BY games DESC LIMIT 1", (GUILD,)).fetchone()[0]
    conn.close()
    repeat = 20

    def board(store: Store, offset: int) -> Callable[[], Awaitable[object]]:
        return lambda: store.leaderboard(GUILD, GAME, offset=offset)

    def stats(store: Store) -> Callable[[], Awaitable[object]]:
        async def both() -> None:
            await store.stats(GUILD, busiest)
            await store.recent_games(GUILD, busiest, limit=5)
        return both

    cases = [("/leaderboard page 1", lambda s: board(s, 0)),
             ("/leaderboard middle page", lambda s: board(s, last // 20 * 10)),
             ("/leaderboard last page", lambda s: board(s, last)),
             ("/stats (busiest player)", stats)]
    for name, work in cases:
        assert await work(postgres)() == await work(sqlite)(), name  # the same answers
        samples: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
        for _ in range(runs):
            samples["sqlite"].append(await timed(work(sqlite), repeat))
            samples["postgresql"].append(await timed(work(postgres), repeat))
        reference = report.add(Figure.of(f"{name}, {label}, SQLite", "ms", samples["sqlite"]))
        report.add(Figure.of(f"{name}, {label}, PostgreSQL", "ms", samples["postgresql"]),
                   reference=reference)


# --------------------------------------------------------------------------- output


async def server_version(url: str) -> str:
    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SHOW server_version"))
    finally:
        await conn.close()


def print_table(report: Report) -> None:
    print("machine: " + ", ".join(f"{k} {v}" for k, v in report.machine.items()))
    width = max(len(f.name) for f in report.figures)
    print(f"{'figure':<{width}}  {'median':>10}  {'spread (min-max)':>21}  {'vs ref':>7}")
    for f in report.figures:
        ratio = f"{f.ratio:.2f}x" if f.ratio is not None else ""
        fine = f.unit in ("ms", "x")  # small numbers: two decimals
        value = (f"{f.median:.2f} {f.unit}" if fine else f"{f.median:,.0f} {f.unit}").replace(
            " x", "x")
        spread = f"{f.low:.2f}-{f.high:.2f}" if fine else f"{f.low:,.0f}-{f.high:,.0f}"
        print(f"{f.name:<{width}}  {value:>10}  {spread:>21}  {ratio:>7}")


def main(argv: list[str] | None = None) -> Report:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median taken)")
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, a few seconds")
    parser.add_argument("--url", help="measure the PostgreSQL store on this server instead "
                        "(postgresql://...), beside SQLite's in the same process")
    parser.add_argument("--rev", help="the revision whose SQLite store is the reference of the "
                        "durable actions (default: the last one with its own sqlite3 thread)")
    parser.add_argument("--actions-only", action="store_true",
                        help="the durable actions alone, not the queries")
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "fivefold-bench-store",
                        help="where the query databases are built once and kept")
    args = parser.parse_args(argv)
    runs = 2 if args.quick else args.runs
    sizes = [1_000] if args.quick else [10_000, 100_000, 1_000_000]
    if args.url is not None and parse_database_url(args.url).backend != "postgresql":
        parser.error("--url names the PostgreSQL server to measure (postgresql://...)")
    with tempfile.TemporaryDirectory(prefix="fivefold-bench-") as work:
        report = Report(machine(Path(work)))
        if args.url is None:
            before = store_before(args.rev or before_revision())
            report.machine["reference"] = f"the SQLite store at {before.REVISION}"
            asyncio.run(bench_actions(report, Path(work), runs, args.quick, before))
            if not args.actions_only:
                asyncio.run(bench_queries(report, args.cache, runs, sizes))
        else:
            report.machine["postgresql"] = asyncio.run(server_version(args.url))
            asyncio.run(bench_actions_pg(report, Path(work), runs, args.quick, args.url))
            if not args.actions_only:
                asyncio.run(bench_queries_pg(report, args.cache, runs, sizes, args.url))
    print_table(report)
    if args.json:
        args.json.write_text(json.dumps(
            {"machine": report.machine, "figures": [asdict(f) for f in report.figures]},
            indent=2))
    return report


if __name__ == "__main__":
    main()
