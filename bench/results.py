"""What the result message's rating changes cost at the end of a game.

    .venv/bin/python -m bench.results [--runs 5] [--games 40] [--people 2,6] [--quick]

The result message shows each person's rating before and after the game without a
change to the Store protocol: :func:`bot.tables.results.record_with_ratings` reads
``store.stats`` for every person before and after ``record_result``. This times a
game's end both ways on a real :class:`bot.store.sqlite.store.SqliteStore` (a temporary file,
fsynced writes), in the same process: ``record_result`` alone (the reference) and
``record_with_ratings``, for results of 2 and 6 people whose server already has
``--history`` finished games. Each figure is the median time of one game's end over
``--runs`` runs of ``--games`` ends each, with the spread (min to max), and the
ratio to the reference.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.models import GameResult, ResultPlayer
from bot.store.sqlite.store import SqliteStore
from bot.tables.results import record_with_ratings

GUILD = 515151
GAME = "fiasco"


def result(table_id: str, people: int, offset: int) -> GameResult:
    """A finished game of ``people`` people (ids from ``offset``), places in seat order."""
    players = [ResultPlayer(seat=i, user_id=offset + i, name=f"p{offset + i}", score=10 - i,
                            place=i + 1, winner=i == 0) for i in range(people)]
    return GameResult(table_id=table_id, guild_id=GUILD, game=GAME,
                      finished_at=datetime.now(UTC), players=players,
                      record={"game": GAME, "players": people, "seed": 1, "actions": []})


Finish = Callable[[SqliteStore, GameResult], Awaitable[object]]


async def alone(store: SqliteStore, finished: GameResult) -> object:
    return await store.record_result(finished)


async def with_ratings(store: SqliteStore, finished: GameResult) -> object:
    return await record_with_ratings(store, finished)


async def one_run(path: Path, finish: Finish, *, people: int, games: int, history: int,
                  run: int) -> float:
    """The mean seconds of one game's end over ``games`` ends, after ``history`` games."""
    store = await SqliteStore.open(path)
    try:
        for k in range(history):
            await store.record_result(result(f"h{run}-{k}", people, (k % 20) * 10))
        began = time.perf_counter()
        for k in range(games):
            await finish(store, result(f"t{run}-{k}", people, (k % 20) * 10))
        return (time.perf_counter() - began) / games
    finally:
        await store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def line(name: str, samples: list[float], reference: float | None) -> str:
    median = statistics.median(samples)
    ratio = f"  ratio {median / reference:.2f}" if reference else ""
    return (f"{name:<34} {median * 1000:7.2f} ms  (runs {min(samples) * 1000:.2f} to "
            f"{max(samples) * 1000:.2f} ms){ratio}")


async def main_async(runs: int, games: int, people: list[int], history: int) -> list[str]:
    lines = [f"one game's end, median of {runs} runs of {games} ends, {history} games before"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.db"
        for count in people:
            timed: dict[str, list[float]] = {"record_result": [], "record_with_ratings": []}
            for run in range(runs):  # interleaved, so a busy moment hits both alike
                for name, finish in (("record_result", alone),
                                     ("record_with_ratings", with_ratings)):
                    timed[name].append(await one_run(path, finish, people=count, games=games,
                                                     history=history, run=run))
            reference = statistics.median(timed["record_result"])
            lines.append(line(f"{count} people, record_result", timed["record_result"], None))
            lines.append(line(f"{count} people, record_with_ratings",
                              timed["record_with_ratings"], reference))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.results", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--people", default="2,6")
    parser.add_argument("--history", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.games, args.history = 1, 2, 2
    people = [int(p) for p in args.people.split(",")]
    for text in asyncio.run(main_async(args.runs, args.games, people, args.history)):
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
