"""How long drawing a table picture takes: every game at its largest table.

    .venv/bin/python -m bench.pictures [--runs 5] [--positions 40] [--json PATH] [--quick]

For each game, it stops games at its largest player count at random points and
draws each table from a cold picture cache (card faces, drawn once per process,
stay warm: that is how the bot runs). It prints, per game, the median time per
table over ``--runs`` runs with the spread (min-max of the runs' medians) and the
mean PNG size, and writes the same as JSON. The target is under 20 ms a table.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from typing import Any

import games
from cogs.pictures import table_picture
from cogs.pictures.draw import render_png
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
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"machine": platform.platform(), "python": platform.python_version(),
                       "runs": runs, "positions": count, "results": rows}, f, indent=2)


if __name__ == "__main__":
    main()
