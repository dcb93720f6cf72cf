"""Fiasco's search fast path and computer players, measured.

    python -m research.fiasco speed [--runs 7]
    python -m research.fiasco decisions [--games 6] [--budget 20000]
    python -m research.fiasco strength HERO VILLAIN [--games 200] [--players 4]
        [--budget 20000] [--first 0]

``speed``: random playouts (uniformly random legal moves to the deal's Counting
Round) per 300 ms from the middle of a 4-player deal at default options, against
the same playouts on the validating rules core, the rollout policy's playouts,
and ``FiascoState.copy`` against ``Fiasco.clone`` and the generic deepcopy clone
(each ratio is within one run).
``decisions``: the hard level's time per decision (median, p99) over every
decision with more than one legal action in hard-vs-easy games.
``strength``: HERO's share of the wins (a shared win split) against all-VILLAIN
opponents, seats rotated, with a 95 % normal-approximation interval; ``--first``
offsets the seeds so that two processes can split a run.
All on one core; medians over runs with min-max spread. Figures depend on the
machine and its load.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

import games
from games.core.game import Game
from games.fiasco import Fiasco
from games.fiasco.computer.fast import FiascoState, from_game
from games.players import decide, perspective
from games.players.hard import HardPlayer

WINDOW = 0.3


def mid_deal(seed: int = 12345) -> Fiasco:
    """A 4-player default game with half of the first deal's 52 cards played."""
    g = Fiasco.new(4, {}, seed=seed)
    rng = random.Random(seed)
    while len(g.history) < len(g.claim_order) + 26:
        assert g.to_act is not None
        g.apply(g.to_act, rng.choice(g.legal_actions()))
    return g


def playouts_in_window(start: FiascoState, step: Callable[[FiascoState, random.Random], int],
                       seed: int) -> int:
    """How many playouts from ``start`` finish within one window."""
    rng = random.Random(seed)
    count = 0
    began = time.perf_counter()
    while time.perf_counter() - began < WINDOW:
        state = start.copy()
        while not state.done():
            state.play(step(state, rng))
        count += 1
    return count


def random_step(state: FiascoState, rng: random.Random) -> int:
    moves = state.moves()
    return moves[int(rng.random() * len(moves))]


def core_playouts_in_window(start: Fiasco, seed: int) -> int:
    """The reference: the same random playouts on the validating rules core (``clone``,
    ``legal_actions``, ``apply``) to the end of the deal."""
    rng = random.Random(seed)
    rounds = len(start.rounds)
    count = 0
    began = time.perf_counter()
    while time.perf_counter() - began < WINDOW:
        game = start.clone()
        while len(game.rounds) == rounds:
            actions = game.legal_actions()
            game.apply(game.to_act, actions[int(rng.random() * len(actions))])  # type: ignore[arg-type]
        count += 1
    return count


def rollout_step(state: FiascoState, rng: random.Random) -> int:
    return state.rollout_move(rng)


def per_call_us(fn: Callable[[], object], calls: int = 20_000) -> float:
    began = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - began) / calls * 1e6


def spread(values: list[float], fmt: str = "{:,.0f}") -> str:
    return (f"{fmt.format(statistics.median(values))} "
            f"(min {fmt.format(min(values))}, max {fmt.format(max(values))})")


def speed(runs: int) -> None:
    g = mid_deal()
    start = from_game(g)
    print(f"from mid-deal (4 players, default options, {len(g.history)} actions in), "
          f"median of {runs} windows of {WINDOW * 1000:.0f} ms:")
    rand = [float(playouts_in_window(start, random_step, s)) for s in range(runs)]
    core = [float(core_playouts_in_window(g, s)) for s in range(runs)]
    print(f"  random playouts per 300 ms:  {spread(rand)}, "
          f"x{statistics.median(rand) / statistics.median(core):.0f} the rules core's "
          f"{spread(core)}")
    roll = [float(playouts_in_window(start, rollout_step, s)) for s in range(runs)]
    print(f"  rollout playouts per 300 ms: {spread(roll)}")
    fast = [per_call_us(start.copy) for _ in range(runs)]
    clone = [per_call_us(g.clone, 2_000) for _ in range(runs)]
    deep = [per_call_us(lambda: Game.clone(g), 200) for _ in range(runs)]
    print(f"  FiascoState.copy: {spread(fast, '{:.2f}')} us")
    print(f"  Fiasco.clone:     {spread(clone, '{:.1f}')} us")
    print(f"  deepcopy clone:   {spread(deep, '{:.1f}')} us "
          f"(x{statistics.median(deep) / statistics.median(clone):.1f} the hand-written one)")


def play_game(levels: list[str], seed: int, hard: HardPlayer,
              times: list[float] | None = None) -> tuple[int, ...]:
    """One default game between computers of ``levels`` (by seat); its winners."""
    g = games.new_game("fiasco", len(levels), {}, seed=seed)
    rng = random.Random(seed * 7 + 1)
    while not g.over:
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        if levels[seat] == "hard":
            began = time.perf_counter()
            action = hard.decide(p, rng).action
            if times is not None and len(p.legal) > 1:
                times.append(time.perf_counter() - began)
        else:
            action = decide(levels[seat], p, rng).action
        g.apply(seat, action)
    return g.winners


def decisions(games_count: int, budget: int) -> None:
    times: list[float] = []
    hard = HardPlayer(budget)
    for i in range(games_count):
        levels = ["easy"] * 4
        levels[i % 4] = "hard"
        play_game(levels, 500 + i, hard, times)
    times.sort()
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    print(f"hard at budget {budget:,}: {len(times)} decisions, median "
          f"{statistics.median(times) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
          f"max {times[-1] * 1000:.0f} ms")


def strength(hero: str, villain: str, games_count: int, players: int, budget: int,
             first: int) -> None:
    hard = HardPlayer(budget)
    won = 0.0
    for i in range(first, first + games_count):
        seat = i % players
        levels = [villain] * players
        levels[seat] = hero
        winners = play_game(levels, 1000 + i, hard)
        if seat in winners:
            won += 1 / len(winners)
    share = won / games_count
    half = 1.96 * math.sqrt(share * (1 - share) / games_count)
    print(f"{hero} vs {players - 1} x {villain} ({players} players, budget {budget:,}, "
          f"seeds {first}..{first + games_count - 1}): won {won:g} of {games_count}, "
          f"share {share:.3f}, 95 % interval {share - half:.3f}..{share + half:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--runs", type=int, default=7)
    d = sub.add_parser("decisions")
    d.add_argument("--games", type=int, default=6)
    d.add_argument("--budget", type=int, default=20_000)
    w = sub.add_parser("strength")
    w.add_argument("hero")
    w.add_argument("villain")
    w.add_argument("--games", type=int, default=200)
    w.add_argument("--players", type=int, default=4)
    w.add_argument("--budget", type=int, default=20_000)
    w.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.runs)
    elif args.what == "decisions":
        decisions(args.games, args.budget)
    else:
        strength(args.hero, args.villain, args.games, args.players, args.budget, args.first)


if __name__ == "__main__":
    main()
