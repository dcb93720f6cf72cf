"""The bot under load: many tables at once through the project's fake Discord.

    .venv/bin/python -m bench.bot [--tables 100,500,1000] [--rounds 3] [--seconds 10]
                                  [--json PATH] [--quick]

The bot runs in its own process (``python -m tests.run_bot_against_fake``, the real
``python -m bot`` entry point pointed at the fake), with its own SQLite file; this
process runs the fake Discord on 127.0.0.1 and the people at every table. For each
table count the tables are opened the way people open them (``/play``, Join, Add
computer player, Start; every fourth table has a computer in a seat, hard and easy
in turn; computers without delay, turn timers at the bot's default), then measured
in rounds of ``--seconds`` each, in two modes:

*pause*
    people wait 1.5-4.5 s (uniformly) after it becomes their turn, then open their
    hand and play a card, as people do;
*saturation*
    people click the moment the table message says it is their turn.

A move is two interactions ("Show my hand", then a card; three when the card needs a
second choice). A finished game is followed at once by a new one in the same channel
(``/play`` by the host, Join, Start), so the load holds for the whole round.

Figures of one round:

- **interactions/s**: interactions answered in the round over its length; **acted on**,
  those of them not answered "busy" (the clicks the bot did what was asked for);
- **answer p50 / p99 / max**: of those, from the moment the fake dispatched the
  interaction to the moment the bot's callback reached it (Discord's 3 s deadline
  applies to this);
- **late**: callbacks after 3 s (Discord answers them 10062 and the person sees
  "This interaction failed") and interactions never answered;
- **bot CPU / interaction**: the bot process's CPU time in the round (user + system,
  from ``/proc``; its computer workers counted apart) over the interactions;
- **fake CPU**: this process's CPU time over the round's wall time (the fake and the
  simulated people share it); near 100 % means the fake, not the bot, is the limit;
- **fake lag p99**: how late this process's event loop woke a task asking to wake every
  50 ms (99th percentile): time every interaction also spends in the fake, before the
  bot sees it and after it answered, counted in the answer times above;
- **memory / table**: the bot's resident memory above what it held with no table
  open, over the open tables (measured after each round).

Each figure is the median over the rounds with the spread (min-max). The load
average is noted for every round: on a shared machine the absolute figures move with
it. ``--quick`` is a few-seconds smoke (a handful of tables, one short round): the
output's shape, not its numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import itertools
import json
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.botcode import THIS, BotCode, CodeError
from bench.botcode import parse as parse_code
from bench.rules import Spread, machine
from bot.gctune import PauseMeter
from cogs.clicks.deadline import BUSY
from games.core import actionlog
from tests.botdriver import enabled_choices
from tests.botprocess import descendants
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeUser

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("fiasco", "fazes", "fibonachos", "fizzbin", "fumblaroo")
SEATS = 3  # every game plays with three (Fumblaroo only with three)
COMPUTER_EVERY = 4  # every fourth table seats a computer
TABLES_PER_SERVER = 100
PAUSE = (1.5, 4.5)
DEADLINE = 3.0  # Discord's: an interaction not acknowledged by then has failed
TURN = re.compile(r"^<@(\d+)>'s turn")
START_TIMEOUT = 60.0
OPENAPI_SAMPLE = 50  # one request in 50 checked against the schema (all with --quick)
STALL = 15.0  # a table whose message does not change for this long is counted as stalled
BUSY_PAUSE = (0.5, 1.5)  # seconds a person waits before clicking again after "busy"
BUSY_TRIES = 20  # clicks on one button before giving up (the table then stalls)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


class BenchError(Exception):
    """The bench could not run (the bot did not start, a table did not open)."""


# --------------------------------------------------------------------------- the bot process


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` so far; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def resident_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * PAGE_SIZE


@dataclass
class BotProcess:
    """``python -m bot`` against the fake, in a process of its own."""

    proc: asyncio.subprocess.Process
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu(self) -> float:
        return process_cpu(self.pid)

    def workers_cpu(self) -> float:
        return sum(process_cpu(child) for child in descendants(self.pid))

    def check_alive(self) -> None:
        if self.proc.returncode is not None:
            raise BenchError(f"the bot exited with {self.proc.returncode}: "
                             f"{self.log.read_text()[-2000:]}")


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, where: Path, *, tables: int, budget: float,
                      code: BotCode = THIS) -> AsyncIterator[BotProcess]:
    """The bot (``code``) connected to ``fake`` and ready (every server received, commands
    synced)."""
    env = {**os.environ, "DISCORD_TOKEN": fake.token,
           "DATABASE_PATH": str(where / "fivefold.db"), "COMPUTER_DELAY": "0",
           "COMPUTER_BUDGET": str(budget), "DEV_GUILD_ID": "",
           "LOG_LEVEL": "INFO", "COMMANDS_PER_MINUTE": "0",
           "MAX_TABLES_PER_HOST": str(tables), "MAX_TABLES_PER_SERVER": str(tables),
           **code.env()}
    log = where / "bot.log"
    with open(log, "wb") as out:
        proc = await asyncio.create_subprocess_exec(
            *code.command(sys.executable, fake.port), cwd=where,
            env=env, stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out)
    bot = BotProcess(proc, log)
    try:
        def ready() -> bool:
            bot.check_alive()
            session = fake.session
            return (fake.connected and session is not None
                    and session.seq >= 1 + len(fake.guilds) and bool(fake.commands.get(None)))

        await fake.wait_for(ready, START_TIMEOUT, poll=0.1)
        yield bot
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()


# --------------------------------------------------------------------------- the people


@dataclass
class Answer:
    """One interaction as the fake saw it: when it went out, how long the answer took."""

    sent: float
    seconds: float
    acknowledged: bool
    shed: bool = False
    """Answered "the table is busy, try again": refused on time rather than answered late."""


@dataclass
class Tally:
    """What the people saw, appended to as they play."""

    answers: list[Answer] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    stalls: int = 0
    refusals: int = 0
    tables_lost: int = 0
    """Tables whose game could not be opened (a /play or Start answered too late)."""

    def add(self, fake: FakeDiscord, result: InteractionResult) -> None:
        record = result.record
        answered = record.responded_at if record.responded_at is not None else fake.clock.now()
        self.answers.append(Answer(record.dispatched_at, answered - record.dispatched_at,
                                   record.acknowledged, result.text.startswith(BUSY)))


class Watcher:
    """Counts the edits of every message, so a table's people can wait for the next one."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.edits: dict[int, int] = {}
        self._events: dict[int, asyncio.Event] = {}
        real = fake.edit_message

        async def edit_message(message: StoredMessage, *args: Any, **kwargs: Any) -> None:
            await real(message, *args, **kwargs)
            if not message.ephemeral:
                self.edits[message.id] = self.edits.get(message.id, 0) + 1
                event = self._events.pop(message.id, None)
                if event is not None:
                    event.set()

        fake.edit_message = edit_message  # type: ignore[method-assign]

    async def changed(self, message: StoredMessage, since: int, timeout: float) -> bool:
        """Wait until ``message`` was edited more than ``since`` times; False on timeout."""
        while self.edits.get(message.id, 0) <= since:
            event = self._events.setdefault(message.id, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                return False
        return True


def turn_of(message: StoredMessage) -> int | None:
    """The user whose turn the table message announces, if a person's."""
    for embed in message.embeds:
        found = TURN.match(str(embed.get("description") or ""))
        if found:
            return int(found.group(1))
    return None


def has_button(message: StoredMessage, label: str) -> bool:
    return any(b.label == label and not b.disabled for b in message.buttons)


@dataclass
class Table:
    """One channel's people and what they are playing."""

    channel: FakeChannel
    host: FakeUser
    people: list[FakeUser]
    game: str
    computer: str | None  # "Hard", "Easy" or None
    message: StoredMessage | None = None

    @property
    def users(self) -> dict[int, FakeUser]:
        return {user.id: user for user in self.people}


class People:
    """Everyone at every table, clicking through the fake as people do."""

    def __init__(self, fake: FakeDiscord, tables: list[Table], seed: int, *,
                 pictures: bool) -> None:
        self.fake = fake
        self.pictures = pictures
        self.tables = tables
        self.watcher = Watcher(fake)
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.pause: tuple[float, float] | None = None
        self.stopping = False

    async def click(self, user: FakeUser, message: StoredMessage, button: str,
                    ) -> InteractionResult:
        """``user`` clicks ``button``; answered "busy", they click again a moment later, as
        the answer asks (each try counts as an interaction)."""
        return await self.until_not_busy(lambda: self.fake.click(user, message, button))

    async def until_not_busy(self, send: Callable[[], Awaitable[InteractionResult]]
                             ) -> InteractionResult:
        for _ in range(BUSY_TRIES):
            result = await send()
            self.tally.add(self.fake, result)
            if not result.text.startswith(BUSY):
                break
            await asyncio.sleep(self.rng.uniform(*BUSY_PAUSE))
        return result

    async def open_game(self, table: Table) -> None:
        """``/play``, Join by the others, the computer added, Start; until the game shows."""
        fake = self.fake
        opened = await self.until_not_busy(lambda: fake.slash(
            table.host, table.channel, f"play {table.game}", {"pictures": self.pictures}))
        message = opened.message
        if message is None or opened.ephemeral:
            raise BenchError(f"/play in {table.channel.name} was refused: {opened.text}")
        table.message = message
        for person in table.people[1:]:
            await self._when(message, "Join")
            await self.click(person, message, "Join")
        if table.computer is not None:
            await self._when(message, "Add computer player")
            chooser = await self.click(table.host, message, "Add computer player")
            if chooser.message is None:
                raise BenchError(f"no computer chooser in {table.channel.name}")
            await self.click(table.host, chooser.message, table.computer)
        await self._when(message, "Start")
        await self.click(table.host, message, "Start")
        await self._when(message, "Show my hand")
        self.tally.games_started += 1

    async def open_or_drop(self, table: Table) -> bool:
        """Open a game at ``table``; False (the table counted lost) if the bot could not."""
        try:
            await self.open_game(table)
        except (BenchError, AssertionError):  # the fake refuses clicks no person could make
            self.tally.tables_lost += 1
            table.message = None
            return False
        return True

    async def _when(self, message: StoredMessage, label: str) -> None:
        seen = self.watcher.edits.get(message.id, 0)
        while not has_button(message, label):
            if not await self.watcher.changed(message, seen, STALL):
                raise BenchError(f"{label!r} never appeared: {message.text[:200]}")
            seen = self.watcher.edits.get(message.id, 0)

    async def move(self, table: Table, user: FakeUser) -> None:
        """``user`` opens their hand and plays a random enabled choice (two steps if asked)."""
        assert table.message is not None
        shown = await self.click(user, table.message, "Show my hand")
        menu = shown.message
        if menu is None or not shown.ephemeral:
            self.tally.refusals += 1
            return
        choices = enabled_choices(menu)
        if not choices:
            self.tally.refusals += 1  # the turn moved on between the edit and the click
            return
        played = await self.click(user, menu, self.rng.choice(choices))
        if "Where does" in played.text:
            second = [c for c in enabled_choices(menu) if ":a:" in c]
            if second:
                await self.click(user, menu, self.rng.choice(second))

    async def play(self, table: Table) -> None:
        """The table's people, turn after turn, a new game after each, until stopped."""
        while not self.stopping:
            message = table.message
            if message is None or not has_button(message, "Show my hand"):
                self.tally.games_finished += message is not None
                if not await self.open_or_drop(table):
                    return
                continue
            seen = self.watcher.edits.get(message.id, 0)
            user = table.users.get(turn_of(message) or 0)
            if user is not None:
                if self.pause is not None:
                    await asyncio.sleep(self.rng.uniform(*self.pause))
                    if self.stopping:
                        return
                try:
                    await self.move(table, user)
                except AssertionError:  # the button went away as they clicked (game over)
                    self.tally.refusals += 1
            if not await self.watcher.changed(message, seen, STALL) and not self.stopping:
                self.tally.stalls += 1


# --------------------------------------------------------------------------- one table count


def sample_openapi_checks(fake: FakeDiscord, every: int) -> None:
    """Check one request body in ``every`` against Discord's OpenAPI schema, not all.

    The full check costs the fake about 7 ms a request, which made the fake, not the
    bot, the limit; a sample still catches a malformed payload under load, and
    ``--quick`` (the test suite's run) checks every request.
    """
    check = fake.check_openapi
    counter = itertools.count()

    def sampled(method: str, path: str, body: Any) -> None:
        if next(counter) % every == 0:
            check(method, path, body)

    fake.check_openapi = sampled  # type: ignore[method-assign]


def build_tables(fake: FakeDiscord, count: int) -> list[Table]:
    """Servers of up to 100 channels; three seats a table, every fourth with a computer."""
    guilds: list[FakeGuild] = [fake.add_guild(f"bench-{n}")
                               for n in range((count + TABLES_PER_SERVER - 1)
                                              // TABLES_PER_SERVER)]
    tables = []
    for number in range(count):
        guild = guilds[number // TABLES_PER_SERVER]
        channel = fake.add_channel(guild, f"table-{number}")
        computer = None
        if number % COMPUTER_EVERY == COMPUTER_EVERY - 1:
            computer = "Hard" if number // COMPUTER_EVERY % 2 == 0 else "Easy"
        people = [fake.add_user(f"p{number}-{seat}", guild=guild)
                  for seat in range(SEATS - (computer is not None))]
        tables.append(Table(channel, people[0], people, GAMES[number % len(GAMES)], computer))
    return tables


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Round:
    """One measured round of one mode."""

    mode: str
    seconds: float
    interactions: int
    per_s: float
    acted_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    late: int
    shed: int
    bot_cpu_ms_per_interaction: float
    # The round's bot CPU over the clicks acted on (not answered busy): what shedding more
    # or less cannot flatter, since a busy answer costs a fraction of a move.
    bot_cpu_ms_per_acted: float
    bot_cpu_share: float
    workers_cpu_share: float
    fake_cpu_share: float
    fake_lag_p99_ms: float
    memory_per_table_kb: float
    load_average: float


LAG_EVERY = 0.05
"""Seconds between two looks at this process's own event loop (the fake's and the people's)."""


async def loop_lags(until_done: asyncio.Event) -> list[float]:
    """How late, in seconds, this process's loop woke a task that asked to wake every
    :data:`LAG_EVERY` seconds, until ``until_done`` is set. The fake's lag is time every
    interaction spends on this side, before the bot sees it and after it answers: a fake
    far behind makes answers look late that the bot gave in time."""
    loop, lags = asyncio.get_running_loop(), []
    while not until_done.is_set():
        asked = loop.time() + LAG_EVERY
        await asyncio.sleep(LAG_EVERY)
        lags.append(max(0.0, loop.time() - asked))
    return lags


async def measure(people: People, bot: BotProcess, mode: str, seconds: float,
                  baseline_rss: int) -> Round:
    """One round: the answers dispatched within it, the CPU spent in it."""
    start, cpu0, workers0, fake0 = time.monotonic(), bot.cpu(), bot.workers_cpu(), \
        time.process_time()
    first = people.fake.clock.now()
    done = asyncio.Event()
    lagging = asyncio.create_task(loop_lags(done))
    await asyncio.sleep(seconds)
    done.set()
    lags = [lag * 1000 for lag in await lagging] or [0.0]
    bot.check_alive()
    wall = time.monotonic() - start
    cpu, workers, fake = bot.cpu() - cpu0, bot.workers_cpu() - workers0, \
        time.process_time() - fake0
    last = people.fake.clock.now()
    # Answered within the round: the work the bot's CPU in the round paid for (when the
    # bot falls behind, interactions sent in the round are answered after it).
    answers = [a for a in people.tally.answers if first <= a.sent + a.seconds < last]
    times = [a.seconds * 1000 for a in answers] or [0.0]
    late = sum(1 for a in answers if not a.acknowledged or a.seconds > DEADLINE)
    shed = sum(1 for a in answers if a.shed and a.acknowledged and a.seconds <= DEADLINE)
    count = len(answers)
    acted = count - sum(1 for a in answers if a.shed)
    return Round(
        mode=mode, seconds=round(wall, 2), interactions=count, per_s=count / wall,
        acted_per_s=acted / wall,
        p50_ms=percentile(times, 0.5), p99_ms=percentile(times, 0.99), max_ms=max(times),
        late=late, shed=shed, bot_cpu_ms_per_interaction=cpu * 1000 / count if count else 0.0,
        bot_cpu_ms_per_acted=cpu * 1000 / acted if acted else 0.0,
        bot_cpu_share=cpu / wall, workers_cpu_share=workers / wall, fake_cpu_share=fake / wall,
        fake_lag_p99_ms=percentile(lags, 0.99),
        memory_per_table_kb=(resident_bytes(bot.pid) - baseline_rss) / 1024
        / len(people.tables),
        load_average=os.getloadavg()[0])


FREEZE_EVERY = 1.0
"""Seconds between two freezes of this process's heap while its tables play."""


@contextlib.asynccontextmanager
async def short_collections() -> AsyncIterator[PauseMeter]:
    """This process's garbage collections kept short while the tables play; their meter.

    This process is the fake Discord and every simulated person: it keeps each request
    it was sent and every table's messages, and a full collection walks all of that (0.8 s
    at 1,000 tables), holding the fake on both sides of every interaction in flight, a
    pause Discord does not make. So everything alive is frozen out of the collector at
    the start and every :data:`FREEZE_EVERY` seconds (``gc.freeze``, a move of lists):
    a collection walks the objects of the last second only. Cyclic garbage made
    meanwhile is kept until the end, where the heap is handed back to the collector.
    """
    meter = PauseMeter()
    gc.collect()
    gc.freeze()
    meter.install()
    stop = asyncio.Event()

    async def freezing() -> None:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FREEZE_EVERY)
            gc.freeze()

    task = asyncio.create_task(freezing())
    try:
        yield meter
    finally:
        stop.set()
        await task
        meter.uninstall()
        gc.unfreeze()


async def run_tables(count: int, *, rounds: int, seconds: float, warmup: float,
                     modes: Sequence[str], budget: float, seed: int,
                     pictures: bool, openapi_every: int, settle: float,
                     say: Callable[[str], None],
                     profile: Path | None = None, code: BotCode = THIS) -> dict[str, Any]:
    """Open ``count`` tables on a fresh bot (``code``), then measure ``rounds`` rounds of
    each mode.

    A pause round starts ``settle`` seconds (the longest pause) after the mode began,
    once every table's people have paused once.
    """
    with tempfile.TemporaryDirectory(prefix="fivefold-bench-bot-") as where:
        async with FakeDiscord() as fake:
            fake.answer_timeout = 60.0  # measure slow answers rather than give up on them
            sample_openapi_checks(fake, openapi_every)
            tables = build_tables(fake, count)
            async with bot_process(fake, Path(where), tables=count, budget=budget,
                                   code=code) as bot:
                baseline = resident_bytes(bot.pid)
                people = People(fake, tables, seed, pictures=pictures)
                opened = time.monotonic()
                # Collected at once (short_collections), so the run before's fake and people
                # are freed before the opening, not by a full collection in its middle: one
                # took 3.8 s there and lost 84 of 1,000 tables (docs/performance.md).
                async with short_collections() as opening_collector:
                    await gather_limited([people.open_or_drop(t) for t in tables], limit=50)
                setup_s = time.monotonic() - opened
                say(f"  {count} tables opened in {setup_s:.1f} s")
                at_start_kb = (resident_bytes(bot.pid) - baseline) / 1024 / count
                results: list[Round] = []
                async with short_collections() as fake_collector:
                    players = [asyncio.create_task(people.play(t)) for t in tables]
                    try:
                        for mode in modes:
                            people.pause = PAUSE if mode == "pause" else None
                            await asyncio.sleep(warmup + (settle if mode == "pause" else 0))
                            for _ in range(rounds):
                                async with profiling(bot, profile if not results else None,
                                                     seconds):
                                    results.append(
                                        await measure(people, bot, mode, seconds, baseline))
                                say("  " + round_line(count, results[-1]))
                    finally:
                        people.stopping = True
                        await asyncio.gather(*players, return_exceptions=True)
                bot_cpu_s = bot.cpu()  # its whole life, to set its collections against
                requests = len(fake.requests)
                kinds = collections.Counter(request_kind(r.method, r.path)
                                            for r in fake.requests)
                log_path = bot.log
                violations = collections.Counter(v.kind for v in fake.violations)
                errors = [p for p in players if p.done() and not p.cancelled()
                          and p.exception() is not None]
                if errors:
                    raise BenchError(f"a table failed: {errors[0].exception()!r}")
            collector = gc_figures(log_path.read_text(errors="replace"))
            spent = collector.get("cpu_ms_by_generation")
            collector["share_of_bot_cpu"] = (round(sum(spent) / 1000 / bot_cpu_s, 3)
                                             if spent and bot_cpu_s > 0 else None)
    tally = people.tally
    return {"tables": count, "setup_s": round(setup_s, 2), "gc": collector,
            "fake_gc": {"collections": fake_collector.collections,
                        "longest_ms": round(fake_collector.longest * 1000, 1),
                        "cpu_ms": round(sum(fake_collector.cpu_by_generation) * 1000),
                        "longest_opening_ms": round(opening_collector.longest * 1000, 1)},
            "memory_per_table_at_start_kb": round(at_start_kb, 1),
            "games_started": tally.games_started, "games_finished": tally.games_finished,
            "stalls": tally.stalls, "refusals": tally.refusals,
            "tables_lost": tally.tables_lost,
            "violations": dict(violations),
            "rest_calls_per_interaction": round(requests / max(1, len(tally.answers)), 2),
            "rest_calls_by_kind_per_interaction": {
                kind: round(n / max(1, len(tally.answers)), 3)
                for kind, n in kinds.most_common()},
            "rounds": [asdict(r) for r in results],
            "summary": {mode: summary([r for r in results if r.mode == mode])
                        for mode in modes}}


@contextlib.asynccontextmanager
async def profiling(bot: BotProcess, path: Path | None, seconds: float) -> AsyncIterator[None]:
    """py-spy sampling the bot for ``seconds`` into ``path`` (nothing if ``path`` is None).

    Sampled without stopping the bot (``--nonblocking``), so the round it profiles is
    measured as the others are; a flame graph opens at https://www.speedscope.app. Only
    the thread holding the GIL is sampled (``--gil``): py-spy takes a thread waiting in C
    (the event loop's poll, a pool's or the store's thread blocked on its queue) for a
    busy one, which once made waiting threads look like 8 % of the bot's work.
    """
    if path is None:
        yield
        return
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        raise BenchError("--profile needs py-spy: .venv/bin/pip install py-spy")
    proc = await asyncio.create_subprocess_exec(
        str(spy), "record", "--pid", str(bot.pid), "--duration", str(max(1, round(seconds))),
        "--nonblocking", "--gil", "--format", "speedscope", "--output", str(path),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    try:
        yield
    finally:
        _, err = await proc.communicate()
        if proc.returncode != 0:
            raise BenchError(f"py-spy failed: {err.decode(errors='replace')[-500:]}")


def request_kind(method: str, path: str) -> str:
    """A REST request in a few words: what a move costs in calls, by kind."""
    if path.endswith("/callback"):
        return "interaction answer"
    if path.startswith("/webhooks/"):
        return "interaction edit or followup"
    if "/messages" in path and path.startswith("/channels/"):
        return {"PATCH": "message edit", "POST": "message post",
                "DELETE": "message delete"}.get(method, f"message {method}")
    return "other"


GC_SUMMARY = re.compile(r"garbage collection: (\d+) collections, the longest ([\d.]+) ms "
                        r"\(([\d.]+) ms of CPU\)")


GC_BY_GENERATION = re.compile(r"by generation (\d+)/(\d+)/(\d+) collections, "
                              r"(\d+)/(\d+)/(\d+) ms of CPU in all")


def gc_figures(log: str) -> dict[str, Any]:
    """The bot's own account of its garbage collections (:mod:`bot.gctune`), from its log:
    over the bot's whole life (start, opening the tables, every round)."""
    found = GC_SUMMARY.search(log)
    split = GC_BY_GENERATION.search(log)
    return {"collections": int(found.group(1)) if found else None,
            "by_generation": [int(split.group(i)) for i in (1, 2, 3)] if split else None,
            "cpu_ms_by_generation": [int(split.group(i)) for i in (4, 5, 6)] if split else None,
            "longest_ms": float(found.group(2)) if found else None,
            "longest_cpu_ms": float(found.group(3)) if found else None,
            "slow": log.count("garbage collection (generation")}


async def gather_limited(jobs: list[Any], limit: int) -> None:
    """Await ``jobs`` with at most ``limit`` running at once; the first failure raises."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Any) -> None:
        async with gate:
            await job

    await asyncio.gather(*(one(job) for job in jobs))


FIGURES = ("per_s", "acted_per_s", "p50_ms", "p99_ms", "max_ms", "late", "shed",
           "bot_cpu_ms_per_interaction", "bot_cpu_ms_per_acted", "bot_cpu_share",
           "workers_cpu_share", "fake_cpu_share", "fake_lag_p99_ms", "memory_per_table_kb",
           "load_average")


def summary(rounds: list[Round]) -> dict[str, Any]:
    """Every figure's median over the rounds, with its spread."""
    return {name: asdict(Spread.of([float(getattr(r, name)) for r in rounds]))
            for name in FIGURES}


def round_line(count: int, r: Round) -> str:
    return (f"{count:>5} {r.mode:<10} {r.per_s:8.0f}/s ({r.acted_per_s:.0f} acted on)  "
            f"p50 {r.p50_ms:6.1f} ms  "
            f"p99 {r.p99_ms:7.1f} ms  max {r.max_ms:7.1f} ms  late {r.late:4d}  "
            f"shed {r.shed:4d}  "
            f"bot {r.bot_cpu_ms_per_interaction:5.2f} ms/int {r.bot_cpu_ms_per_acted:5.2f} "
            f"ms/acted ({r.bot_cpu_share:4.0%})  "
            f"fake {r.fake_cpu_share:4.0%} lag p99 {r.fake_lag_p99_ms:4.0f} ms  "
            f"{r.memory_per_table_kb:6.1f} KB/table  "
            f"load {r.load_average:.1f}")


def limit_of(mode: dict[str, Any]) -> str:
    """Which side ran out of CPU first: the one nearer a whole core."""
    bot, fake = mode["bot_cpu_share"]["median"], mode["fake_cpu_share"]["median"]
    if max(bot, fake) < 0.85:
        return "neither (load-bound)"
    return "bot" if bot >= fake else "fake"


def print_table(result: dict[str, Any]) -> None:
    if not result["runs"]:
        return
    print(f"\nmachine: {result['machine']['cpu']}, {result['machine']['cpus']} CPUs, Python "
          f"{result['machine']['python']}; {result['settings']['rounds']} rounds of "
          f"{result['settings']['seconds']} s, median (min-max)")
    head = ("tables", "mode", "interactions/s", "acted on /s", "p50 ms", "p99 ms", "max ms",
            "late", "shed", "bot CPU ms/int", "bot CPU ms/acted", "bot CPU", "fake CPU",
            "fake lag p99 ms", "KB/table", "limit", "load")
    print(" | ".join(head))
    for run in result["runs"]:
        for mode, fig in run["summary"].items():
            def f(name: str, fmt: str = ",.1f", fig: dict[str, Any] = fig) -> str:
                return Spread(**fig[name]).text(fmt)
            print(" | ".join([str(run["tables"]), mode, f("per_s", ",.0f"),
                              f("acted_per_s", ",.0f"), f("p50_ms"),
                              f("p99_ms"), f("max_ms"), f("late", ",.0f"), f("shed", ",.0f"),
                              f("bot_cpu_ms_per_interaction", ".2f"),
                              f("bot_cpu_ms_per_acted", ".2f"),
                              f("bot_cpu_share", ".0%"), f("fake_cpu_share", ".0%"),
                              f("fake_lag_p99_ms", ",.0f"), f("memory_per_table_kb"),
                              limit_of(fig),
                              f("load_average")]))
        print(f"  {run['tables']} tables: opened in {run['setup_s']} s, "
              f"{run['memory_per_table_at_start_kb']} KB/table at start, "
              f"{run['games_finished']} games finished, {run['tables_lost']} tables lost, "
              f"{run['stalls']} stalls, "
              f"{run['refusals']} refusals, {run['rest_calls_per_interaction']} REST calls "
              f"per interaction, Discord rules broken: {run['violations'] or 'none'}; "
              f"GC: {run['gc']['collections']} collections, the longest "
              f"{run['gc']['longest_ms']} ms ({run['gc']['longest_cpu_ms']} ms of CPU); "
              f"by generation {run['gc'].get('by_generation')} collections, "
              f"{run['gc'].get('cpu_ms_by_generation')} ms of CPU in all, "
              f"{run['gc'].get('share_of_bot_cpu')} of the bot's CPU")
        print(f"  the fake's own collections while the tables played (kept short): "
              f"{run['fake_gc']['collections']}, the longest {run['fake_gc']['longest_ms']} ms, "
              f"{run['fake_gc']['cpu_ms']} ms of CPU in all; while they opened, the longest "
              f"{run['fake_gc'].get('longest_opening_ms')} ms")
        print("  REST calls per interaction: " + ", ".join(
            f"{kind} {n}" for kind, n in run["rest_calls_by_kind_per_interaction"].items()))


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.bot", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="100,500,1000",
                        help="table counts, comma-separated (default 100,500,1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per mode (default 3)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="length of a round (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of play before a mode's first round (default 3)")
    parser.add_argument("--modes", default="pause,saturation",
                        help="pause, saturation or both (default pause,saturation)")
    parser.add_argument("--budget", type=float, default=0.05,
                        help="COMPUTER_BUDGET of the bot (default 0.05: 1,000 simulated "
                             "moves a hard decision)")
    parser.add_argument("--pictures", choices=("on", "off"), default="on",
                        help="tables drawn as pictures, as servers have them by default "
                             "(on), or text only (off)")
    parser.add_argument("--no-memory", dest="memory", action="store_false",
                        help="skip the measure of one table's memory through its game")
    parser.add_argument("--memory-only", action="store_true",
                        help="only the measure of one table's memory (no tables under load)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--profile", type=Path,
                        help="record the bot with py-spy during the first round into this "
                             "file (a speedscope JSON; pip install py-spy)")
    parser.add_argument("--quick", action="store_true",
                        help="a few seconds: 10 tables, one 1 s round of each mode")
    parser.add_argument("--this", metavar="SPEC", default="",
                        help="with --versus: the bot set against the reference, as a spec "
                             "too (default: this tree as it is)")
    parser.add_argument("--versus", metavar="SPEC",
                        help="also run the reference SPEC (rev=REV, without=speed|uvloop, "
                             "python=PATH, or several joined by +: bench/botcode.py) and "
                             "give each figure's ratio this / reference, round by round, "
                             "the two interleaved; implies --no-memory")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.rounds, args.seconds, args.warmup = "10", 1, 1.0, 0.5
    try:
        args.counts = [int(t) for t in args.tables.split(",")]
    except ValueError:
        parser.error(f"--tables must be whole numbers separated by commas, not {args.tables!r}")
    if any(c < 1 for c in args.counts):
        parser.error("--tables must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds must be above 0 and --warmup at least 0")
    args.mode_list = [m for m in args.modes.split(",") if m]
    if not args.mode_list or set(args.mode_list) - {"pause", "saturation"}:
        parser.error(f"--modes takes pause and/or saturation, not {args.modes!r}")
    if not 0 < args.budget <= 10:
        parser.error("--budget must be above 0 and at most 10")
    if args.versus is not None:
        try:
            args.versus, args.this = parse_code(args.versus), parse_code(args.this)
        except CodeError as exc:
            parser.error(f"--versus: {exc}")
        args.memory = False
    return args


# --------------------------------------------------------------------------- one table's memory


MEMORY_TABLES = 8  # tables of each game measured together (their mean is the figure)
MEMORY_POINTS = 10  # measurements through each game, from the deal to its end
MAX_ACTIONS = 20_000  # rounds of moves at most (a 6-player, 15-hand Fizzbin ends well before)
LONGEST: dict[str, tuple[int, dict[str, Any]]] = {
    # The most players and the options that make each game longest: the largest table.
    "fiasco": (6, {"length": "extended"}),
    "fazes": (8, {}),  # every faze is the default
    "fibonachos": (5, {"rounds": 5}),
    "fizzbin": (6, {"hands": 15}),
    "fumblaroo": (3, {"target": 25}),
}
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def memory_setups(longest: bool) -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) to measure: three people at default options, and with
    ``longest`` each game's largest table too."""
    setups = [(game, SEATS, {}) for game in GAMES]
    if longest:
        setups += [(game, *LONGEST[game]) for game in GAMES]
    return setups


def live_bytes(base: int) -> int:
    """What Python holds now above ``base``, garbage collected first: a table's memory is
    what it keeps alive, not what the collector has yet to free."""
    import tracemalloc

    gc_collect()
    return tracemalloc.get_traced_memory()[0] - base


async def table_memory(game: str, tables: int, seed: int, max_actions: int = MAX_ACTIONS, *,
                       players: int = SEATS, options: dict[str, Any] | None = None
                       ) -> dict[str, Any]:
    """What one table of ``game`` holds in the bot's memory, from its start to its end.

    ``tables`` tables play at once through the real table service (:class:`TableService`, the
    SQLite store in a temporary directory, no Discord), ``players`` people each at
    ``options``, random legal moves. First one whole game of the same set-up (another
    seed) is played and let go: what every table of the process shares and keeps once
    (the rules' caches, most action texts) is then in place, as in a bot that has played
    for a while. ``tracemalloc`` counts the bytes Python keeps alive (the sessions, their
    games, records, recent lines, table models), before the tables open and then every
    25 moves of each table, after a garbage collection; each figure is per table. A
    finished table leaves the bot (the bench lets go of it too) but for the little its
    Details keep (*finished*, a bounded cache). The action texts first seen while the
    tables play, kept once for the whole process (:mod:`games.core.actionlog`, bounded
    by the actions a game can have), are counted apart (*shared texts*, per table) and
    left out of every other figure. *mid* is the measure halfway through, *end* the last
    before the games finished. ``max_actions`` rounds cut a game short (``--quick``).
    """
    import tracemalloc

    from bot.store.sqlite.store import SqliteStore
    from bot.tables.service import TableService
    from bot.tables.session import Session
    from tests.botdriver import random_move, settings_for

    rng = random.Random(seed)
    where = Path(tempfile.mkdtemp(prefix="fivefold-bench-memory-",
                                  dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    store = await SqliteStore.open(where / "fivefold.db")
    try:
        settings = settings_for(where, max_tables_per_host=tables + 1,
                                max_tables_per_server=tables + 1)
        manager = TableService(store, settings, seed_source=itertools.count(seed).__next__)
        lengths: list[int] = []

        async def opened(channel: int) -> Session:
            session = await manager.lobby.open(guild_id=1, channel_id=channel, host_id=1,
                                               host_name=NAMES[0], game=game, options=options or {})
            for user in range(2, players + 1):
                await manager.lobby.join(session, user, NAMES[user - 1])
            await manager.lobby.start(session, 1)
            return session

        async def one_round(sessions: list[Session]) -> list[Session]:
            """A move at each table; the tables still in play after it (the others'
            lengths noted, and let go)."""
            for session in sessions:
                await random_move(manager, session, rng)
            lengths.extend(len(s.game.history) for s in sessions
                           if not s.is_open and s.game is not None)
            return [s for s in sessions if s.is_open]

        warm = [await opened(9)]
        while warm:
            warm = await one_round(warm)
        lengths.clear()
        texts_before, index_before = actionlog.distinct_texts(), actionlog.index_bytes()
        tracemalloc.start()
        base = live_bytes(0)

        def per_table() -> float:
            """Bytes per table, the action texts first seen since the start apart."""
            shared = actionlog.shared_bytes(texts_before, index_before)
            return (live_bytes(base) - shared) / tables

        sessions = [await opened(10 + number) for number in range(tables)]
        samples = [per_table()]
        played = 0
        while played < max_actions and sessions:
            sessions = await one_round(sessions)
            played += 1
            if played % 25 == 0 and sessions:
                samples.append(per_table())
        lengths += [len(s.game.history) for s in sessions if s.game]  # cut short
        sessions.clear()  # the bench's own references: what stays is what the bot keeps
        finished = per_table()
        tracemalloc.stop()
        shared = actionlog.shared_bytes(texts_before, index_before)
    finally:
        await store.close()
        for leftover in where.iterdir():
            leftover.unlink()
        where.rmdir()
    step = max(1, len(samples) // MEMORY_POINTS)

    def kb(value: float) -> float:
        return round(value / 1024, 1)

    return {"game": game, "players": players, "options": options or {}, "tables": tables,
            "actions": statistics_median(lengths),
            "start_kb": kb(samples[0]),
            "mid_kb": kb(samples[len(samples) // 2]),
            "end_kb": kb(samples[-1]),
            "peak_kb": kb(max(samples)),
            "through_game_kb": [kb(v) for v in samples[::step]],
            "finished_kb": kb(finished),
            # Apart from those figures: the action texts first seen while the tables
            # played, kept once for every table of the process (per table here).
            "shared_texts_kb": kb(shared / tables)}


def gc_collect() -> None:
    import gc

    gc.collect()


def statistics_median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return float(ordered[len(ordered) // 2]) if ordered else 0.0


def print_memory(rows: list[dict[str, Any]]) -> None:
    print("\none table in the bot's memory (tracemalloc, the session layer; KB per table)")
    print("| game | players | options | actions | at the deal | mid | end | peak in play "
          "| once finished | of which shared texts |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        options = ", ".join(f"{k} {v}" for k, v in row["options"].items()) or "default"
        print(f"| {row['game']} | {row['players']} | {options} | {row['actions']:,.0f} | "
              f"{row['start_kb']} | {row['mid_kb']} | {row['end_kb']} | {row['peak_kb']} | "
              f"{row['finished_kb']} | {row['shared_texts_kb']} |")


def interrupted(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the run unwinds, and stops the bot process it started."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, interrupted)
    try:
        return measure_all(args)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def table_options(args: argparse.Namespace, count: int) -> dict[str, Any]:
    """:func:`run_tables`' arguments from the command line's, for ``count`` tables."""
    return {"rounds": args.rounds, "seconds": args.seconds, "warmup": args.warmup,
            "modes": args.mode_list, "budget": args.budget, "seed": args.seed,
            "pictures": args.pictures == "on",
            "openapi_every": 1 if args.quick else OPENAPI_SAMPLE,
            "settle": 0.0 if args.quick else PAUSE[1],
            "say": lambda line: print(line, flush=True),
            "profile": args.profile if count == args.counts[0] else None}


# --------------------------------------------------------------------------- versus a reference


VERSUS_FIGURES = ("per_s", "acted_per_s", "p99_ms", "late", "shed", "bot_cpu_ms_per_interaction",
                  "bot_cpu_ms_per_acted", "workers_cpu_share", "memory_per_table_kb")
"""The figures a ``--versus`` run sets side by side, each with its ratio round by round."""


async def run_versus(count: int, args: argparse.Namespace) -> dict[str, Any]:
    """``count`` tables on this tree's bot and on the reference's (``args.versus``), one
    fresh bot per side per round, in alternating order; each side's figures and the ratio
    this / reference of every figure, round by round."""
    sides: dict[str, list[dict[str, Any]]] = {"this": [], "ref": []}
    options = {**table_options(args, count), "rounds": 1, "profile": None}
    for number in range(args.rounds):
        order = ("this", "ref") if number % 2 == 0 else ("ref", "this")
        for side in order:
            code = args.this if side == "this" else args.versus
            print(f"{count} tables, round {number + 1}, {code.label}:", flush=True)
            sides[side].append(await run_tables(count, code=code, **options))
    return {"tables": count, **{side: versus_side(runs) for side, runs in sides.items()},
            "ratios": {mode: versus_ratios(sides, mode) for mode in args.mode_list}}


def versus_side(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's figures over its rounds (medians with the spread), by mode."""
    rounds = [Round(**r) for run in runs for r in run["rounds"]]
    modes = {r.mode for r in rounds}
    shares = [run["gc"]["share_of_bot_cpu"] for run in runs
              if run["gc"].get("share_of_bot_cpu") is not None]
    return {"summary": {mode: summary([r for r in rounds if r.mode == mode]) for mode in modes},
            "rest_calls_per_interaction": asdict(Spread.of(
                [run["rest_calls_per_interaction"] for run in runs])),
            "gc_longest_ms": asdict(Spread.of(
                [run["gc"]["longest_ms"] or 0.0 for run in runs])),
            # None for a revision whose bot did not log its collections' CPU (before a4ef8a1)
            "gc_share_of_bot_cpu": asdict(Spread.of(shares)) if shares else None}


def versus_ratios(sides: dict[str, list[dict[str, Any]]], mode: str) -> dict[str, Any]:
    """This / reference of each figure in ``mode``, round by round (None where the
    reference's figure is 0 in a round, as late answers mostly are)."""
    def figure(run: dict[str, Any], name: str) -> float:
        return float(next(r[name] for r in run["rounds"] if r["mode"] == mode))

    out: dict[str, Any] = {}
    for name in VERSUS_FIGURES:
        pairs = [(figure(this, name), figure(ref, name))
                 for this, ref in zip(sides["this"], sides["ref"], strict=True)]
        ratios = [a / b for a, b in pairs if b]
        out[name] = asdict(Spread.of(ratios)) if ratios else None
    return out


def print_versus(versus: dict[str, Any]) -> None:
    print(f"\n{versus['this']} against {versus['ref']}: median (min-max) over the rounds; the "
          "ratio this / reference is taken round by round")
    print("| tables | mode | figure | this | reference | this / reference |")
    print("| --- | --- | --- | --- | --- | --- |")
    for run in versus["runs"]:
        for mode, ratios in run["ratios"].items():
            for name in VERSUS_FIGURES:
                this, ref = (run[side]["summary"][mode][name] for side in ("this", "ref"))
                ratio = ratios[name]
                print(f"| {run['tables']} | {mode} | {name} | {Spread(**this).text(',.2f')} | "
                      f"{Spread(**ref).text(',.2f')} | "
                      f"{Spread(**ratio).text('.2f') if ratio else '-'} |")
        print(f"  {run['tables']} tables: REST calls per interaction "
              f"{Spread(**run['this']['rest_calls_per_interaction']).text('.2f')} against "
              f"{Spread(**run['ref']['rest_calls_per_interaction']).text('.2f')}; longest GC "
              f"{Spread(**run['this']['gc_longest_ms']).text(',.0f')} ms against "
              f"{Spread(**run['ref']['gc_longest_ms']).text(',.0f')} ms; the collections' "
              f"share of the bot's CPU {gc_share(run['this'])} against {gc_share(run['ref'])}")


def gc_share(side: dict[str, Any]) -> str:
    share = side.get("gc_share_of_bot_cpu")
    return Spread(**share).text(".1%") if share else "-"


def measure_all(args: argparse.Namespace) -> dict[str, Any]:
    """Every table count of ``args`` in turn; the result, printed and (if asked) saved."""
    result: dict[str, Any] = {
        "machine": {**machine(), "cpus": os.cpu_count()},
        "settings": {"tables": args.counts, "rounds": args.rounds, "seconds": args.seconds,
                     "warmup": args.warmup, "modes": args.mode_list, "budget": args.budget,
                     "pictures": args.pictures,
                     "quick": args.quick, "computer_every": COMPUTER_EVERY, "seats": SEATS,
                     "pause_s": list(PAUSE)},
        "runs": []}
    if args.memory:
        result["table_memory"] = [
            asyncio.run(table_memory(game, 2 if args.quick else MEMORY_TABLES, args.seed,
                                     30 if args.quick else MAX_ACTIONS, players=players,
                                     options=options))
            for game, players, options in memory_setups(longest=not args.quick)]
    if args.versus is not None:
        result["versus"] = {"this": args.this.label, "ref": args.versus.label, "runs": [
            asyncio.run(run_versus(count, args)) for count in args.counts]}
        print_versus(result["versus"])
    for count in [] if args.memory_only or args.versus else args.counts:
        print(f"{count} tables:", flush=True)
        result["runs"].append(asyncio.run(run_tables(count, **table_options(args, count))))
    print_table(result)
    if args.memory:
        print_memory(result["table_memory"])
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
