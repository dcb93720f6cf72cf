"""One bot process or two splitting the shards: actions per second and answer times.

    .venv/bin/python -m bench.shards [--tables 64] [--moves 24] [--rounds 3] [--rate 0]
                                     [--pictures off] [--database-url URL]
                                     [--json PATH] [--quick]

Each round measures both set-ups on the same world, one after the other, each with
a fresh database and a fresh fake Discord (this process runs it, and the people):

*one*
    one bot process (no shard settings: it connects the one shard the fake
    recommends) plays every table;
*two*
    two bot processes, ``SHARD_COUNT=2`` and ``SHARD_IDS=0`` / ``1``, on one
    database; the fake sends each server's interactions to its shard's process.

The bots are the real ``python -m bot`` (``tests.run_bot_against_fake``). Half the
``--tables`` two-player Fiasco tables are in a server of shard 0, half in one of
shard 1, each with its own two people. Once all are started, every table plays
``--moves`` moves at once, each person clicking the moment it is their move
(saturation: "Show my hand", then the first card offered). ``--rate R`` asks for R
actions a second instead: each table pauses before each move, for ``tables / R``
seconds on average (half to one and a half of it), so that both set-ups carry the
same load below their capacity and their CPU per action compares like with like
(at saturation, one process's loop runs fuller than each of two, which makes each
of its interactions a little cheaper).

The bots, not the people, are to be the limit. The tables are text tables unless
``--pictures on`` (their drawing is the picture workers' work, which the bots' CPU
below leaves out and which would otherwise set the pace), and the fake checks one
request in 50 against Discord's OpenAPI schema (every one with ``--quick``): the full
check costs the fake about 7 ms a request, more than the bot spends on it. Figures of
one run:

- **actions/s**: acknowledged moves over the wall time of the play;
- **interactions/s**: answered interactions (two a move, more when the first person
  asked has no move) over the same time;
- **answer p50 / p99**: from the fake dispatching an interaction to the bot's answer
  reaching it (Discord's 3 s deadline applies to this);
- **bot CPU / action**: the bot processes' CPU time (user + system, from ``/proc``)
  in the play over the moves, all processes together (their picture and computer
  workers apart);
- **REST calls / action**: the bots' requests to Discord in the play over the moves
  (answers, edits of the table message and of menus, pings): a bot whose loop is
  behind lets table edits wait and sends one for several moves;
- **bot cores**: the same CPU time over the play's wall time: the cores the bots
  used between them (at most 1 for one process, 2 for two);
- **fake CPU**: this process's CPU over the play's wall time. Near 100 % means the
  fake and the simulated people, not the bots, are the limit; on a machine of two
  cores, bot cores and fake CPU together near 2 mean the machine is.

Each figure is the median over ``--rounds`` with the spread (min-max); *two / one*
is the ratio within each round, so a machine that gets busier mid-run moves both.
``--database-url postgresql://...`` runs every set-up on that server, each run in a
schema of its own (dropped after), instead of on a fresh SQLite file. ``--quick`` is
a smoke of the output's shape.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.bot import OPENAPI_SAMPLE, sample_openapi_checks
from bench.rules import Spread, machine
from tests.botdriver import enabled_choices
from tests.botprocess import bot_process, until_enabled
from tests.fakediscord import FakeDiscord, FakeUser, StoredMessage
from tests.fakediscord.world import FakeChannel

MODES = ("one", "two")
SHARDS = 2
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SETTINGS = {"COMMANDS_PER_MINUTE": "0", "MAX_TABLES_PER_SERVER": "1000",
            "EXPIRY_CHECK_SECONDS": "3600"}


@dataclass
class Run:
    """What one set-up did in one round."""

    moves: int = 0
    answers: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0
    bot_cpu: float = 0.0
    requests: int = 0

    def figures(self) -> dict[str, float]:
        ordered = sorted(self.answers)
        return {"actions_per_s": self.moves / self.seconds,
                "interactions_per_s": len(ordered) / self.seconds,
                "p50_ms": 1000 * statistics.median(ordered),
                "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
                "bot_cpu_ms_per_action": 1000 * self.bot_cpu / self.moves,
                "bot_cores": self.bot_cpu / self.seconds,
                "rest_calls_per_action": self.requests / self.moves,
                "fake_cpu": self.cpu / self.seconds}


@dataclass
class Table:
    channel: FakeChannel
    people: list[FakeUser]
    message: StoredMessage | None = None


async def click(fake: FakeDiscord, run: Run, user: FakeUser, message: StoredMessage,
                button: str) -> Any:
    started = time.perf_counter()
    result = await fake.click(user, message, button)
    run.answers.append(time.perf_counter() - started)
    return result


async def play(fake: FakeDiscord, run: Run, table: Table, moves: int,
               pause: float = 0.0, rng: random.Random | None = None) -> None:
    """``moves`` moves at ``table``: whoever has one opens their hand and plays its first card,
    after a pause of ``pause`` seconds on average (half to one and a half of it) if any."""
    assert table.message is not None
    for _ in range(moves):
        if pause > 0 and rng is not None:
            await asyncio.sleep(pause * rng.uniform(0.5, 1.5))
        for user in table.people:
            shown = await click(fake, run, user, table.message, "Show my hand")
            choices = enabled_choices(shown.message) if shown.message is not None else []
            if choices:
                await click(fake, run, user, shown.message, choices[0])
                run.moves += 1
                break
        else:
            raise RuntimeError(f"nobody has a move at {table.channel.name}")


async def start(fake: FakeDiscord, table: Table, pictures: bool) -> None:
    host, guest = table.people
    opened = await fake.slash(host, table.channel, "play fiasco", {"pictures": pictures})
    assert opened.message is not None, opened
    table.message = opened.message
    await fake.click(guest, opened.message, "Join")
    await until_enabled(fake, opened.message, "Start")
    await fake.click(host, opened.message, "Start")
    await until_enabled(fake, opened.message, "Show my hand")


def world(fake: FakeDiscord, tables: int) -> list[Table]:
    """``tables`` channels, half in a server of shard 0 and half in one of shard 1."""
    guilds = [fake.add_guild(f"shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
    made = []
    for n in range(tables):
        guild = guilds[n % SHARDS]
        people = [fake.add_user(f"p{n}-{seat}", guild=guild) for seat in range(2)]
        made.append(Table(fake.add_channel(guild, f"table-{n}"), people))
    return made


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time so far of the processes ``pids`` (from ``/proc``)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / CLOCK_TICKS


@contextlib.asynccontextmanager
async def bots(fake: FakeDiscord, folder: Path, mode: str,
               database_url: str | None) -> AsyncIterator[list[int]]:
    """The bot processes of ``mode``, connected; their pids."""
    env = {**SETTINGS, **({"DATABASE_URL": database_url} if database_url else {})}
    async with contextlib.AsyncExitStack() as stack:
        if mode == "one":
            procs = [await stack.enter_async_context(bot_process(fake, folder, "one", env=env))]
        else:
            procs = [await stack.enter_async_context(bot_process(
                fake, folder, f"shard{shard}", shard=(shard, SHARDS),
                env={**env, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard)}))
                for shard in range(SHARDS)]
        yield [proc.pid for proc in procs]


@dataclass(frozen=True)
class Setup:
    """What every run of one bench measures."""

    tables: int
    moves: int
    database_url: str | None = None
    pictures: bool = False
    openapi_every: int = OPENAPI_SAMPLE
    rate: float = 0.0  # actions a second asked of all tables together; 0: as fast as answered

    @property
    def pause(self) -> float:
        """Seconds a table waits before each move, on average, to ask for ``rate``."""
        return self.tables / self.rate if self.rate > 0 else 0.0


async def measure(mode: str, setup: Setup) -> Run:
    """One set-up, from a fresh fake and database to ``moves`` moves at every table."""
    run = Run()
    with tempfile.TemporaryDirectory(prefix=f"bench-shards-{mode}-") as folder:
        async with FakeDiscord() as fake:
            fake.shard_count = 1 if mode == "one" else SHARDS
            sample_openapi_checks(fake, setup.openapi_every)
            made = world(fake, setup.tables)
            moves = setup.moves
            async with fresh(setup.database_url) as url, \
                    bots(fake, Path(folder), mode, url) as pids:
                for table in made:  # one after the other: the set-up is not measured
                    await start(fake, table, setup.pictures)
                wall, cpu, bot_cpu = time.perf_counter(), time.process_time(), cpu_seconds(pids)
                requests = len(fake.requests)
                await asyncio.gather(*(play(fake, run, table, moves, setup.pause,
                                            random.Random(n))
                                       for n, table in enumerate(made)))
                run.seconds = time.perf_counter() - wall
                run.cpu = time.process_time() - cpu
                run.bot_cpu = cpu_seconds(pids) - bot_cpu
                run.requests = len(fake.requests) - requests
            fake.assert_no_violations()
    return run


@contextlib.asynccontextmanager
async def fresh(database_url: str | None) -> AsyncIterator[str | None]:
    """An empty database for one run: a schema of its own on the PostgreSQL server
    ``database_url`` names (dropped after), or None for a new SQLite file."""
    if database_url is None:
        yield None
        return
    import asyncpg

    schema = f"bench_shards_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database_url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield f"{database_url}{'&' if '?' in database_url else '?'}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


def summary(rounds: list[dict[str, Run]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mode in MODES:
        figures = [r[mode].figures() for r in rounds]
        out[mode] = {name: asdict(Spread.of([f[name] for f in figures])) for name in figures[0]}
    out["two_over_one"] = {
        name: asdict(Spread.of([r["two"].figures()[name] / r["one"].figures()[name]
                                for r in rounds]))
        for name in ("actions_per_s", "p99_ms", "bot_cpu_ms_per_action",
                     "rest_calls_per_action")}
    return out


def table_text(result: dict[str, Any]) -> str:
    def cell(figure: dict[str, float], fmt: str) -> str:
        return Spread(**figure).text(fmt)

    lines = ["| processes | actions/s | interactions/s | answer p50 ms | answer p99 ms "
             "| bot CPU ms / action | REST calls / action | bot cores | fake CPU |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for mode in MODES:
        row = result[mode]
        lines.append(f"| {mode} | {cell(row['actions_per_s'], ',.1f')} | "
                     f"{cell(row['interactions_per_s'], ',.1f')} | {cell(row['p50_ms'], ',.0f')} | "
                     f"{cell(row['p99_ms'], ',.0f')} | "
                     f"{cell(row['bot_cpu_ms_per_action'], ',.2f')} | "
                     f"{cell(row['rest_calls_per_action'], '.2f')} | "
                     f"{cell(row['bot_cores'], '.2f')} | {cell(row['fake_cpu'], '.0%')} |")
    ratio = result["two_over_one"]
    lines.append(f"\ntwo / one, same round: actions/s {cell(ratio['actions_per_s'], '.2f')}, "
                 f"p99 {cell(ratio['p99_ms'], '.2f')}, "
                 f"bot CPU / action {cell(ratio['bot_cpu_ms_per_action'], '.2f')}, "
                 f"REST calls / action {cell(ratio['rest_calls_per_action'], '.2f')}")
    return "\n".join(lines)


async def bench(setup: Setup, rounds: int) -> dict[str, Any]:
    measured: list[dict[str, Run]] = []
    for n in range(rounds):
        order = MODES if n % 2 == 0 else tuple(reversed(MODES))  # neither always goes first
        measured.append({mode: await measure(mode, setup) for mode in order})
    return summary(measured)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.shards", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--moves", type=int, default=24, help="moves per table (at most 50)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--rate", type=float, default=0.0,
                        help="actions a second asked of all tables together, each table "
                             "pausing before its moves (default 0: saturation, every person "
                             "clicking the moment it is their move)")
    parser.add_argument("--pictures", choices=("on", "off"), default="off",
                        help="tables drawn as pictures (their drawing is the picture "
                             "workers' work, outside the bots' CPU)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.moves, args.rounds = 2, 2, 1
    if args.tables < SHARDS or not 1 <= args.moves <= 50 or args.rounds < 1 or args.rate < 0:
        parser.error(f"--tables at least {SHARDS}, --moves 1 to 50, --rounds at least 1, "
                     "--rate not below 0")
    setup = Setup(tables=args.tables, moves=args.moves, database_url=args.database_url,
                  pictures=args.pictures == "on", rate=args.rate,
                  openapi_every=1 if args.quick else OPENAPI_SAMPLE)
    result = asyncio.run(bench(setup, args.rounds))
    result = {"machine": machine(), "load_average_after": os.getloadavg(),
              "settings": {"tables": args.tables, "moves": args.moves, "rounds": args.rounds,
                           "database": "postgresql" if args.database_url else "sqlite",
                           "rate": args.rate, "pictures": args.pictures,
                           "openapi_every": setup.openapi_every,
                           "quick": args.quick},
              **result}
    print(table_text(result))
    print("load average after: " + ", ".join(f"{n:.1f}" for n in result["load_average_after"]))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
