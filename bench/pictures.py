"""How long drawing a table picture takes: every game at its largest table.

    .venv/bin/python -m bench.pictures [--runs 5] [--positions 40] [--json PATH] [--quick]

For each game, it stops games at its largest player count at random points and
draws each table from a cold picture cache (card faces, drawn once per process,
stay warm: that is how the bot runs). It prints, per game, the median time per
table over ``--runs`` runs with the spread (min-max of the runs' medians) and the
mean PNG size, and writes the same as JSON. The target is under 20 ms a table.

Then, for all the games' tables together, how long the event loop is held per
table while they are drawn: on the loop itself (as the bot drew before) and by
the bot's painter (:mod:`cogs.render.pictures.painter`: the scene built on the loop, the
drawing in worker processes), and in threads for comparison. A ticker on the loop
measures it: every stretch over 1 ms in which it could not run is time no other
table was answered (on a busy machine that includes being descheduled, for every
way alike); beside it, the CPU time of the loop's own thread per table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import time
from typing import Any

import games
from cogs.render.pictures.draw import render_png
from cogs.render.pictures.painter import Painter
from cogs.render.pictures.picture import TABLE_FILE, table_picture, table_scene_of
from games.core.game import Game

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def positions(name: str, count: int, seed: int) -> list[Game[Any]]:
    """Games of ``name`` at its largest player count, stopped at random points."""
    cls = games.get(name)
    rng = random.Random(f"bench-pictures:{name}:{seed}")
    out = []
    for i in range(count):
        game = games.new_game(name, cls.max_players, seed=seed * 1000 + i)
        for _ in range(rng.randrange(0, 150)):
            if game.over:
                break
            game.apply(game.to_act, rng.choice(game.legal_actions()))
        out.append(game)
    return out


def one_run(tables: list[Game[Any]]) -> tuple[float, float]:
    """(median ms per table, mean bytes) drawing every table from a cold picture cache."""
    render_png.cache_clear()
    times, sizes = [], []
    for game in tables:
        start = time.perf_counter()
        picture = table_picture(game, NAMES[: game.players])
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(picture.png) if picture else 0)
    return statistics.median(times), statistics.fmean(sizes)


TICK = 0.001
"""Seconds the loop ticker sleeps: a longer gap between its ticks is the loop held."""


async def loop_held(tables: list[Game[Any]], *, painter: Painter | None
                    ) -> tuple[float, float]:
    """Milliseconds per table the event loop was held while ``tables`` were drawn, on the
    loop (``painter`` None) or by ``painter``, from a cold picture cache; and the CPU
    milliseconds per table of the loop's own thread (what the bot's loop spent)."""
    render_png.cache_clear()
    loop = asyncio.get_running_loop()
    held, drawing = 0.0, True

    async def ticker() -> None:
        nonlocal held
        last = loop.time()
        while drawing:
            await asyncio.sleep(TICK)
            now = loop.time()
            held += max(0.0, now - last - TICK)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(TICK)
    cpu = time.thread_time()
    for game in tables:
        names = NAMES[: game.players]
        if painter is None:
            table_picture(game, names)
            await asyncio.sleep(0)
        else:
            await painter.picture(table_scene_of(game, names), TABLE_FILE)
    cpu = time.thread_time() - cpu
    drawing = False
    await ticking
    return held * 1000 / len(tables), cpu * 1000 / len(tables)


WAYS = ("on the loop", "in threads", "in processes")


def held_rows(count: int, runs: int) -> dict[str, dict[str, float]]:
    """The loop held per table (ms) drawing on the loop, in threads, in worker processes
    (the bot's way), rounds interleaved: the median, the spread and the ratio to the loop.

    Each round draws ``count`` new positions of every game (no cache of any process has
    seen them); the first round, which starts the workers, is not counted.
    """
    painters = {"in threads": Painter(processes=False), "in processes": Painter()}
    held: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
    for round_ in range(runs + 1):
        tables = [game for name in games.names()
                  for game in positions(name, count, seed=100 + round_)]
        for way in WAYS:
            held[way].append(asyncio.run(loop_held(tables, painter=painters.get(way))))
    rows = {}
    for way, rounds in held.items():
        times, cpus = [t for t, _ in rounds[1:]], [c for _, c in rounds[1:]]
        rows[way] = {"median_ms": statistics.median(times), "min_ms": min(times),
                     "max_ms": max(times), "loop_cpu_ms": statistics.median(cpus),
                     "loop_cpu_min": min(cpus), "loop_cpu_max": max(cpus)}
    base = rows["on the loop"]["median_ms"]
    for row in rows.values():
        row["ratio"] = row["median_ms"] / base if base else 0.0
    for painter in painters.values():
        painter.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--quick", action="store_true", help="a few seconds: 2 runs, 5 tables")
    args = parser.parse_args()
    runs, count = (2, 5) if args.quick else (args.runs, args.positions)
    rows = []
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{'game':<12}{'players':>8}{'ms/table':>10}{'spread':>16}{'KB':>8}")
    for name in games.names():
        tables = positions(name, count, seed=1)
        table_picture(tables[0], NAMES[: tables[0].players])  # warm the card faces
        medians, sizes = zip(*(one_run(tables) for _ in range(runs)), strict=True)
        row = {"game": name, "players": tables[0].players,
               "median_ms": statistics.median(medians),
               "min_ms": min(medians), "max_ms": max(medians),
               "mean_kb": statistics.fmean(sizes) / 1024}
        rows.append(row)
        print(f"{name:<12}{row['players']:>8}{row['median_ms']:>10.1f}"
              f"{row['min_ms']:>8.1f}-{row['max_ms']:<7.1f}{row['mean_kb']:>8.1f}")
    held = held_rows(count, runs)
    print(f"event loop held per table ({count * len(games.names())} tables a round, "
          "cold caches), ms:")
    for way, row in held.items():
        print(f"  {way:<14}held {row['median_ms']:>6.2f} ({row['min_ms']:.2f}-"
              f"{row['max_ms']:.2f}) {row['ratio']:.2f}x   loop thread CPU "
              f"{row['loop_cpu_ms']:.2f} ({row['loop_cpu_min']:.2f}-{row['loop_cpu_max']:.2f})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"machine": platform.platform(), "python": platform.python_version(),
                       "runs": runs, "positions": count, "results": rows,
                       "loop_held": held}, f, indent=2)


if __name__ == "__main__":
    main()
