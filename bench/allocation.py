"""Which way of spending hard's budget chooses better: flat, successive halving, fewer worlds.

    .venv/bin/python -m bench.allocation [--games fazes,fiasco] [--positions 30]
        [--seeds 3] [--oracle 10] [--budget N]

Win shares over a few dozen games cannot tell two allocations apart (both win
about as often); their choices can be compared directly. For each game with
knowledge, it collects positions from seeded games of easy players (those with
three or more legal actions), and values every action there with a flat search
``--oracle`` times hard's budget (the oracle). Then each allocation, at the budget
itself, decides each position from ``--seeds`` generators; its *regret* is the
oracle's value of the best action minus the oracle's value of the chosen one
(0 is perfect; in the seat's value units, 0 to 1), and *agree* is how often it
chose the oracle's action. Medians and means over every decision, with the
spread over seeds (min-max of the per-seed mean regret). Lower regret is stronger.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

import games
from games.players import Perspective, knowledge_for, perspective
from games.players.hard import HardPlayer, budget_for
from games.players.levels import player
from games.players.search import search

ALLOCATIONS: dict[str, dict[str, object]] = {
    "flat": {"halving": False},
    "halving": {"halving": True},
    "halving, 2 per world": {"halving": True, "per_world": 2},
}


def positions(name: str, count: int, seed: int) -> list[Perspective]:
    """``count`` perspectives with three or more legal actions, from easy players' games."""
    cls = games.get(name)
    players = max(cls.min_players, min(4, cls.max_players))
    easy = player("easy")
    rng = random.Random(seed)
    found: list[Perspective] = []
    game_index = 0
    while len(found) < count:
        game = games.new_game(name, players, seed=seed * 1000 + game_index)
        game_index += 1
        while not game.over and len(found) < count:
            seat = game.to_act
            assert seat is not None
            view = perspective(game, seat)
            if len(view.legal) >= 3 and rng.random() < 0.25:
                found.append(view)
            game.apply(seat, easy.decide(view, rng).action)
    return found


@dataclass
class Score:
    regrets: list[float]
    agreed: int
    seconds: float


def oracle(view: Perspective, budget: int) -> tuple[float, ...]:
    """Every action's value by a flat search of ``budget`` simulated moves."""
    know = knowledge_for(view.game)
    assert know is not None
    rng = random.Random(f"oracle:{view.history}")
    found = search(view.seat, view.legal, lambda: know.sample(view, rng), rng,
                   budget=budget, halving=False)
    return found.means


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(games.names()))
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--oracle", type=int, default=10, help="the oracle's budget multiple")
    parser.add_argument("--budget", type=int, help="hard's budget (default: the game's)")
    args = parser.parse_args()
    print(f"{'game':<11} {'allocation':<22} {'mean regret':>11} {'spread':>15} "
          f"{'agree':>6} {'ms/decision':>11}")
    for name in args.games.split(","):
        if knowledge_for(name) is None:
            print(f"{name:<11} no knowledge yet")
            continue
        budget = args.budget or budget_for(name)
        views = positions(name, args.positions, seed=1)
        truths = [oracle(v, budget * args.oracle) for v in views]
        for label, settings in ALLOCATIONS.items():
            hard = HardPlayer(budget=budget, **settings)  # type: ignore[arg-type]
            per_seed: list[float] = []
            agreed = total = 0
            began = time.process_time()
            for seed in range(args.seeds):
                regrets = []
                for view, truth in zip(views, truths, strict=True):
                    chosen = view.legal.index(hard.decide(view, random.Random(seed)).action)
                    regrets.append(max(truth) - truth[chosen])
                    agreed += truth[chosen] == max(truth)
                    total += 1
                per_seed.append(statistics.fmean(regrets))
            ms = (time.process_time() - began) * 1000 / total
            print(f"{name:<11} {label:<22} {statistics.fmean(per_seed):>11.4f} "
                  f"{min(per_seed):>7.4f}-{max(per_seed):.4f} {agreed / total:>6.0%} "
                  f"{ms:>11.1f}", flush=True)


if __name__ == "__main__":
    main()
