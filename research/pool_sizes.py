"""How many worlds a weighed pool amounts to, tempered or not (issue 22).

    python -m research.pool_sizes fumblaroo --positions 200 --tempers 1,0.5,0.25

Positions of easy games (seed ``s``: an easy game of the shortest options played
``Random(s + 99).randrange(1, 30)`` actions, those where the seat to act has plays to
read); at each, the hard level's pool of 256 worlds (the game's ``Weighed``) and its
effective size, 1 / the sum of the squared normalized weights, at every temper. Prints
one JSON object: per temper, the median, quartiles, least and mean over the positions,
over all of them and by the stage of the game they are in.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import games
from bench.strength import SHORTEST
from games.players import Level, decide, perspective
from research.seeing import stage_of

PLAYERS = {"fazes": 4, "fumblaroo": 3}


def figures(sizes: Sequence[float]) -> dict[str, object]:
    """The median, quartiles, least and mean of ``sizes``."""
    if len(sizes) < 2:
        return {"median": round(statistics.median(sizes), 1)} if sizes else {}
    return {"median": round(statistics.median(sizes), 1),
            "quartiles": [round(q, 1) for q in statistics.quantiles(sizes, n=4)],
            "least": round(min(sizes), 2), "mean": round(statistics.fmean(sizes), 1)}


def played(name: str, level: Level, actions: tuple[int, int]) -> Iterator[tuple[int, Any]]:
    """Games of ``name`` at its shortest options, seed by seed from 0, each played by
    ``level`` players for ``Random(seed + 99).randrange(*actions)`` actions (fewer if it
    ends): (seed, game) for those with a seat still to act."""
    seed = 0
    while True:
        g = games.new_game(name, PLAYERS[name], SHORTEST[name], seed=seed)
        rng = random.Random(seed)
        for _ in range(random.Random(seed + 99).randrange(*actions)):
            if g.over or g.to_act is None:
                break
            g.apply(g.to_act, decide(level, perspective(g, g.to_act), rng).action)
        if not g.over and g.to_act is not None:
            yield seed, g
        seed += 1


def parser_for(prog: str, positions: int, listed: str, default: str) -> argparse.ArgumentParser:
    """The options the pool benchmarks share: the game, how many positions, the pool's
    size, and ``listed``, a comma-separated list of settings."""
    parser = argparse.ArgumentParser(prog=f"python -m {prog}")
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--positions", type=int, default=positions)
    parser.add_argument(f"--{listed}", default=default)
    parser.add_argument("--size", type=int, default=256)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = parser_for("research.pool_sizes", 200, "tempers", "1,0.5,0.25").parse_args(argv)
    tempers = [float(t) for t in args.tempers.split(",")]
    weighed = importlib.import_module(f"games.{args.game}.computer.advice").Weighed
    sizes: dict[float, list[float]] = {t: [] for t in tempers}
    stages: list[str] = []
    seeds = 0
    for seed, g in played(args.game, Level.EASY, (1, 30)):
        if len(stages) == args.positions:
            break
        seeds = seed + 1
        p = perspective(g, g.to_act)
        pools = [weighed(p, args.size, t).pool for t in tempers]
        if pools[0] is None:
            continue
        stages.append(stage_of(g) or "")
        for t, pool in zip(tempers, pools, strict=True):
            sizes[t].append(pool.effective_size())
    out = {"game": args.game, "positions": args.positions, "pool": args.size, "seeds": seeds,
           "effective_size": {str(t): figures(s) for t, s in sizes.items()},
           "by_stage": {stage: {"positions": stages.count(stage), **{
               str(t): figures([x for x, at in zip(s, stages, strict=True) if at == stage])
               for t, s in sizes.items()}} for stage in sorted(set(stages))}}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
