"""Fizzbin's search fast path and computer players: speed and strength.

    python -m research.fizzbin_search speed [--runs 10] [--budget 20000]
    python -m research.fizzbin_search strength hard easy --games 40 [--budget N]

``speed``: from mid-hand states (4 players, default options, 13 stack cards left after
easy play), random playouts (uniform legal moves to the end of the hand) per 300 ms on
:class:`~games.fizzbin.computer.fast.FastFizzbin` and, as the reference in the same process, on
the validating game (``clone``, ``legal_actions``, ``apply``); rollout-policy playouts
per 300 ms; ``copy()`` in microseconds; then the hard level's
decision time (median, p99) at ``--budget`` over whole one-hand games against easy
players. Medians over ``--runs`` runs, with the spread. Times are this process's CPU
time, so that other work on a shared machine does not count.

``strength``: one ``me`` player against ``other`` players, 4 seats, default options,
the seat rotated game by game; the share of games won (a shared win counts its share)
with a 95 % lower bound, and the longest game in actions.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
import timeit
from typing import Any

import games
from games.fizzbin.computer.fast import FastFizzbin
from games.players import decide, perspective
from games.players.hard import HardPlayer


def _act(level: str, game: Any, rng: random.Random, budget: int) -> None:
    p = perspective(game, game.to_act)
    player = HardPlayer(budget=budget) if level == "hard" else None
    decision = player.decide(p, rng) if player else decide(level, p, rng)
    game.apply(game.to_act, decision.action)


def mid_hand(seed: int) -> Any:
    """A 4-player game at default options, half its first stack drawn by easy players."""
    game = games.new_game("fizzbin", 4, {}, seed=seed)
    rng = random.Random(seed)
    while len(game.stack) > 13:
        _act("easy", game, rng, 0)
    return game


def _clock() -> float:
    """This process's CPU time: the machine is shared, and wall time would count the
    other processes' turns on the core."""
    return time.process_time()


def _per_300ms(one: Any) -> int:
    count, began = 0, _clock()
    while _clock() - began < 0.3:
        one()
        count += 1
    return count


def _spread(label: str, values: list[float], unit: str = "") -> None:
    print(f"{label:<44} median {statistics.median(values):>9,.1f}{unit}  "
          f"(min {min(values):,.1f}, max {max(values):,.1f}, {len(values)} runs)")


def speed(runs: int, budget: int) -> None:
    starts = [mid_hand(seed) for seed in range(5)]
    fast = [FastFizzbin.from_game(g) for g in starts]
    rng = random.Random(0)

    def random_fast(i: int) -> None:
        s = fast[i % 5].copy()
        while not s.done():
            moves = s.moves()
            s.play(moves[int(rng.random() * len(moves))])

    def rollout_fast(i: int) -> None:
        s = fast[i % 5].copy()
        while not s.done():
            s.play(s.rollout_move(rng))

    def random_game(i: int) -> None:
        g = starts[i % 5].clone()
        hands = len(g.results)
        while len(g.results) == hands:
            legal = g.legal_actions()
            g.apply(g.to_act, legal[int(rng.random() * len(legal))])

    fast_counts = [float(_per_300ms(lambda i=i: random_fast(i))) for i in range(runs)]
    ref_counts = [float(_per_300ms(lambda i=i: random_game(i))) for i in range(runs)]
    _spread("random playouts / 300 ms, fast path", fast_counts)
    _spread("random playouts / 300 ms, validating game", ref_counts)
    ratio = statistics.median(fast_counts) / statistics.median(ref_counts)
    print(f"{'ratio of medians':<44} {ratio:.1f}x")
    _spread("rollout-policy playouts / 300 ms", [float(_per_300ms(lambda i=i: rollout_fast(i)))
                                                 for i in range(runs)])
    timer = timeit.Timer(fast[0].copy, timer=_clock)
    _spread("copy()", [timer.timeit(number=20_000) / 20_000 * 1e6 for _ in range(runs)], " us")
    times: list[float] = []
    for seed in range(3):
        game = games.new_game("fizzbin", 4, {"hands": 1}, seed=100 + seed)
        rng = random.Random(seed)
        while not game.over:
            began = _clock()
            _act("hard" if game.to_act == 0 else "easy", game, rng, budget)
            if game.history[-1].startswith("0 "):
                times.append(_clock() - began)
    times.sort()
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    print(f"hard at budget {budget:,}: {len(times)} decisions, median "
          f"{statistics.median(times) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
          f"max {times[-1] * 1000:.0f} ms")


def strength(me: str, other: str, count: int, budget: int, first_seed: int) -> None:
    share = 0.0
    longest = 0
    for n in range(count):
        seat = n % 4
        levels = [other] * 4
        levels[seat] = me
        game = games.new_game("fizzbin", 4, {}, seed=first_seed + n)
        rng = random.Random(first_seed + n)
        while not game.over:
            _act(levels[game.to_act], game, rng, budget)
        longest = max(longest, len(game.history))
        if seat in game.winners:
            share += 1 / len(game.winners)
    mean = share / count
    low = mean - 1.96 * math.sqrt(mean * (1 - mean) / count)
    print(f"{me} vs {other} x3: {count} games, win share {mean:.3f} (95% lower bound "
          f"{low:.3f}), longest game {longest} actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=["speed", "strength"])
    parser.add_argument("levels", nargs="*", default=["hard", "easy"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.runs, args.budget)
    else:
        me, other = [*args.levels, "easy"][:2]
        strength(me, other, args.games, args.budget, args.seed)


if __name__ == "__main__":
    main()
