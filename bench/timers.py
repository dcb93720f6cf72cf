"""What running turn timers cost the bot's event loop: CPU per second, timers on vs off.

    .venv/bin/python -m bench.timers [--tables 500] [--seconds 3] [--runs 5]

Each timed table whose turn is a person's has one task that reads the clock at least
every ``TIMER_CHECK_SECONDS`` (1 s by default) until the deadline. This starts
``--tables`` Fiasco tables in play with a 5-minute timer (the deadline never comes
within the run), lets them tick for ``--seconds``, and measures the process's CPU
time over that window; the reference is the same window with no timer running, in
the same process, taken between the timed runs. It prints the medians over
``--runs`` with their spread (min-max), and the share of one core the timers take.
No store and no Discord: only the timers' own waking up is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import statistics
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.settings import Settings
from bot.tables.scheduler import Scheduler
from bot.tables.service import TableService
from bot.tables.session import Session
from bot.tables.timers import deadline_after, table_timer


def timed_tables(count: int, moment: dt.datetime) -> list[Session]:
    """``count`` two-person Fiasco tables in play, each with a 5-minute turn running."""
    timer = table_timer("5m", "fiasco")
    sessions = []
    for index in range(count):
        game = games.new_game("fiasco", 2, {}, seed=index)
        table = StoredTable(
            id=f"b{index}", guild_id=1, channel_id=index + 1, host_id=1, game="fiasco",
            status=TableStatus.PLAYING, seats=[Seat(user_id=1, name="a"),
                                               Seat(user_id=2, name="b")],
            record=game.record().model_dump(), turn_seconds=timer.seconds,
            deadline=deadline_after(moment, timer), created_at=moment, updated_at=moment)
        sessions.append(Session(table, game=game))
    return sessions


async def cpu_over(seconds: float) -> float:
    """The process's CPU seconds while the loop runs for ``seconds`` of wall time."""
    start = time.process_time()
    await asyncio.sleep(seconds)
    return time.process_time() - start


async def one_run(scheduler: Scheduler, count: int, seconds: float) -> tuple[float, float]:
    """CPU seconds over ``seconds`` with ``count`` timers running, then with none."""
    sessions = timed_tables(count, dt.datetime.now(dt.UTC))
    for session in sessions:
        scheduler.schedule(session)
    await asyncio.sleep(0.1)  # every timer has started and gone to sleep
    timed = await cpu_over(seconds)
    for session in sessions:
        session.cancel_tasks()
    await asyncio.sleep(0.1)
    idle = await cpu_over(seconds)
    return timed, idle


async def main(args: Any) -> None:
    with TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, database_path=str(Path(tmp) / "x.db"))  # type: ignore[call-arg]
        scheduler = TableService(store=None, settings=settings).scheduler  # type: ignore[arg-type]
        timed, idle = [], []
        for _ in range(args.runs):
            on, off = await one_run(scheduler, args.tables, args.seconds)
            timed.append(on / args.seconds * 1000)
            idle.append(off / args.seconds * 1000)
    extra = [on - off for on, off in zip(timed, idle, strict=True)]
    print(f"{args.tables} timed tables, TIMER_CHECK_SECONDS={settings.timer_check_seconds:g}, "
          f"{args.runs} runs of {args.seconds:g} s")
    for label, values in (("timers on", timed), ("timers off", idle), ("the timers", extra)):
        print(f"  {label:>10}: median {statistics.median(values):7.2f} ms CPU per second "
              f"(spread {min(values):.2f}-{max(values):.2f})")
    print(f"  the timers take {statistics.median(extra) / 10:.3f} % of one core, "
          f"{statistics.median(extra) / args.tables * 1000:.1f} µs per table per second")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=5)
    asyncio.run(main(parser.parse_args()))
