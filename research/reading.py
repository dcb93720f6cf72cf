"""How much the hard level's weighed pool favours the true deal, by who is playing (issue 22).

    python -m research.reading fumblaroo --level hard-2026-12 --positions 150 --priors 1,0.5

Positions of games of four (Fumblaroo: three) players of ``--level``, at the shortest
options (seed ``s``: ``Random(s + 99).randrange(3, N)`` actions in, N 14 in Fumblaroo
and 40 in Fazes; those where the seat to act has clues to read). At each, for each
``prior`` (the chance that a seat plays by the rules of thumb,
:class:`games.players.weighed.Readings`), the seat's pool of ``--size`` worlds and the
log of the true deal's weight over the pool's mean weight: how much more (above 0) or
less (below) likely the search is to draw the truth than a world of the knowledge
drawn unweighed. Prints one JSON object: per prior, the mean over the positions with
its standard error, the median, the share of positions below 0 and the pool's median
effective size.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from games.players import Level, perspective
from research.pool_sizes import parser_for, played

#: Positions are this many actions in, at most (exclusive).
ACTIONS = {"fazes": 40, "fumblaroo": 14}


def truth_of(name: str) -> Callable[[Any], list[int]]:
    """The game's true deal, as its ``Weighed`` pool deals worlds."""
    if name == "fumblaroo":
        from games.fumblaroo.computer.bits import hand_mask
        from games.fumblaroo.computer.fast import FumblarooState

        return lambda g: [*FumblarooState.from_game(g).hands, hand_mask(g.discarded)]
    from games.fazes.computer.fast import FastFazes

    return lambda g: list(FastFazes.from_game(g).hands)


def main(argv: Sequence[str] | None = None) -> int:
    parser = parser_for("research.reading", 150, "priors", "1,0.5")
    parser.add_argument("--level", default="easy", choices=[str(v.value) for v in Level])
    args = parser.parse_args(argv)
    priors = [float(x) for x in args.priors.split(",")]
    weighed = importlib.import_module(f"games.{args.game}.computer.advice").Weighed
    truth = truth_of(args.game)
    ratios: dict[float, list[float]] = {q: [] for q in priors}
    sizes: dict[float, list[float]] = {q: [] for q in priors}
    read = 0
    positions = played(args.game, Level(args.level), (3, ACTIONS[args.game]))
    for _, g in itertools.islice(positions, args.positions):
        p = perspective(g, g.to_act)
        for prior in priors:
            worlds = weighed(p, args.size, 1.0, prior)
            if worlds.pool is None or worlds.weigh is None:
                break  # nothing to read yet
            mean = statistics.fmean(worlds.pool.weights())
            ratios[prior].append(math.log(worlds.weigh(truth(g)) / mean))
            sizes[prior].append(worlds.pool.effective_size())
        else:
            read += 1
    out: dict[str, Any] = {"game": args.game, "level": args.level, "positions": read,
                           "pool": args.size, "log_truth_over_mean": {}}
    for prior in priors:
        r = ratios[prior]
        out["log_truth_over_mean"][str(prior)] = {
            "mean": round(statistics.fmean(r), 3),
            "se": round(statistics.stdev(r) / math.sqrt(len(r)), 3) if len(r) > 1 else None,
            "median": round(statistics.median(r), 3),
            "below_zero": round(sum(x < 0 for x in r) / len(r), 3),
            "effective_size_median": round(statistics.median(sizes[prior]), 1)}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
