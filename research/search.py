"""The computer players' search budget and strength, for the games with a fast path.

    python -m research.search speed fibonachos [--runs 7]
    python -m research.search decide fibonachos [--games 4] [--budget 20000]
    python -m research.search strength fibonachos --hero hard --field easy \\
        [--games 100] [--budget 20000] [--first 0]

``speed``: random playouts (uniformly random legal moves to the search horizon) per
300 ms from a mid-game state, on one core, median and spread (min-max) over ``--runs``;
and the median ``copy()`` time. ``decide``: the hard level's decision time (process
time, so other work on the machine does not count) over every hard decision of
``--games`` games against easy players, median and p99. ``strength``: the hero's win
share (ties shared) against a field of one level, the hero's seat rotated each game,
with a 95 % Wilson lower bound.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import games
from games.core.game import Game
from games.players import Decision, Perspective, knowledge_for, perspective
from games.players.hard import DEFAULT_BUDGET, HardPlayer
from games.players.levels import player


@dataclass(frozen=True)
class Case:
    players: int
    options: dict[str, Any]
    midgame: int  # random actions from the start to a mid-game state


CASES = {
    "fibonachos": Case(4, {}, 70),  # round 2, trick 6
    "fumblaroo": Case(3, {}, 20),  # hand 2, trick 1
}

WINDOW = 0.3


def midgame(name: str, seed: int) -> Game[Any]:
    case = CASES[name]
    game = games.new_game(name, case.players, case.options, seed=seed)
    rng = random.Random(seed)
    for _ in range(case.midgame):
        actions = game.legal_actions()
        if game.over:
            break
        game.apply(game.to_act or 0, rng.choice(actions))
    return game


def speed(name: str, runs: int) -> None:
    know = knowledge_for(name)
    assert know is not None
    game = midgame(name, 12345)
    start = know.from_game(game)
    counts = []
    for run in range(runs):
        rng = random.Random(run)
        played = 0
        began = time.process_time()
        while time.process_time() - began < WINDOW:
            state = start.copy()
            while not state.done():
                moves = state.moves()
                state.play(moves[rng.randrange(len(moves))])
            played += 1
        counts.append(played)
    began = time.process_time()
    for _ in range(100_000):
        start.copy()
    copy_us = (time.process_time() - began) * 10
    print(f"{name}: {statistics.median(counts):,.0f} random playouts per {WINDOW * 1000:.0f} ms "
          f"from mid-game ({game.phase()}; min {min(counts):,}, max {max(counts):,}, {runs} runs); "
          f"copy() {copy_us:.2f} us")


def decide(hero: str, p: Perspective, rng: random.Random, budget: int) -> Decision:
    if hero == "hard":
        return HardPlayer(budget).decide(p, rng)
    return player(hero).decide(p, rng)


def play_game(name: str, seed: int, levels: list[str], budget: int,
              times: list[float] | None = None) -> Game[Any]:
    case = CASES[name]
    game = games.new_game(name, case.players, case.options, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        seat = game.to_act
        assert seat is not None
        p = perspective(game, seat)
        began = time.process_time()
        choice = decide(levels[seat], p, rng, budget)
        if times is not None and levels[seat] == "hard" and len(p.legal) > 1:
            times.append(time.process_time() - began)
        game.apply(seat, choice.action)
    return game


def decision_times(name: str, count: int, budget: int) -> None:
    players = CASES[name].players
    times: list[float] = []
    for seed in range(count):
        levels = ["easy"] * players
        levels[seed % players] = "hard"
        play_game(name, 1000 + seed, levels, budget, times)
    times.sort()
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    print(f"{name}: hard (budget {budget:,}) decides in {statistics.median(times) * 1000:.0f} ms "
          f"median, {p99 * 1000:.0f} ms p99, max {times[-1] * 1000:.0f} ms "
          f"over {len(times)} decisions (process time)")


def wilson_lower(wins: float, n: int, z: float = 1.96) -> float:
    """The 95 % Wilson score lower bound of a share ``wins / n``."""
    if n == 0:
        return 0.0
    share = wins / n
    centre = share + z * z / (2 * n)
    margin = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def strength(name: str, hero: str, field: str, count: int, budget: int, first: int) -> None:
    players = CASES[name].players
    wins = 0.0
    for seed in range(first, first + count):
        seat = seed % players
        levels = [field] * players
        levels[seat] = hero
        game = play_game(name, seed, levels, budget)
        if seat in game.winners:
            wins += 1 / len(game.winners)
    print(f"{name}: {hero} vs {players - 1} x {field}: {wins:g} of {count} games, "
          f"win share {wins / count:.1%} (95 % lower bound {wilson_lower(wins, count):.1%}; "
          f"an even share is {1 / players:.0%}), seeds {first}-{first + count - 1}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "decide", "strength"])
    parser.add_argument("game", choices=sorted(CASES))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--field", default="easy")
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.game, args.runs)
    elif args.what == "decide":
        decision_times(args.game, args.games or 4, args.budget)
    else:
        strength(args.game, args.hero, args.field, args.games or 100, args.budget, args.first)


if __name__ == "__main__":
    main()
