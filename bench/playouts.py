"""Random playouts per second for every game: the budget computer players will spend.

    .venv/bin/python -m bench.playouts [--runs 5] [--seconds 1.0]

For each game and a typical player count, it plays uniformly random legal
actions from a fresh deal to the end (``clone`` of a dealt state, then
``legal_actions`` and ``apply`` until over), repeatedly for about ``--seconds``,
and prints the median over ``--runs`` runs of actions per second and games per
second. Figures depend on the machine; compare them within one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import games
from games.core.game import Game

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("fiasco", 4, {}),
    ("fibonachos", 4, {"rounds": 1}),
    ("fizzbin", 4, {"hands": 1, "time": "day"}),
    ("fazes", 4, {"fazes": [1]}),
    ("fumblaroo", 3, {"target": 5}),
]


@dataclass
class Rate:
    actions_per_s: float
    games_per_s: float


def playout(start: Game[Any], rng: random.Random) -> int:
    """Play one random game from a copy of ``start``; the number of actions."""
    game = start.clone()
    count = 0
    while not game.over:
        actions = game.legal_actions()
        game.apply(game.to_act, actions[rng.randrange(len(actions))])  # type: ignore[arg-type]
        count += 1
    return count


def measure(start: Game[Any], seconds: float, seed: int) -> Rate:
    rng = random.Random(seed)
    actions = played = 0
    began = time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        actions += playout(start, rng)
        played += 1
    return Rate(actions / elapsed, played / elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    print(f"{'game':<11} {'players':>7} {'actions/s':>10} {'games/s':>9}  (median of {args.runs})")
    for name, players, options in CASES:
        start = games.new_game(name, players, options, seed=12345)
        rates = [measure(start, args.seconds, seed) for seed in range(args.runs)]
        a = statistics.median(r.actions_per_s for r in rates)
        g = statistics.median(r.games_per_s for r in rates)
        print(f"{name:<11} {players:>7} {a:>10,.0f} {g:>9,.1f}")


if __name__ == "__main__":
    main()
