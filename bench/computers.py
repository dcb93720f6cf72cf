"""What a computer decision costs in the bot, and what the event loop feels of it.

    .venv/bin/python -m bench.computers [--runs 5] [--decisions 20] [--budget 1.0]

For each game, ``--decisions`` positions are taken from a seeded random playout and the
hard level is asked about each: once in this process (the reference), once through the
bot's worker pool (:class:`bot.tables.computers.Computers`, one worker, warmed first). Each
time a ticker on the event loop measures its longest stall. Printed per game: the
median decision time in milliseconds over ``--runs`` runs with the spread (min-max),
the pool's ratio to the in-process reference, and the loop's worst stall each way.
A game whose knowledge is not written yet plays at random behind the hard level, so
its figures are the pool's own overhead; the last row, ``spin-100ms``, is a stand-in
search that burns 100 ms of CPU per decision, to show what the pool spares the loop.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import games
from bot.tables.computers import Computers
from bot.thinking import Question, Thinker, move_seed, think
from games.players import Decision, perspective

SPIN_SECONDS = 0.1

CASES: list[tuple[str, int]] = [
    ("fiasco", 4), ("fibonachos", 4), ("fizzbin", 4), ("fazes", 4), ("fumblaroo", 3),
]


def questions(game_name: str, players: int, count: int, seed: int) -> list[Question]:
    """``count`` hard questions from one seeded random playout (new deals as needed)."""
    out: list[Question] = []
    rng = random.Random(seed)
    while len(out) < count:
        game = games.new_game(game_name, players, seed=rng.randrange(2**32))
        while not game.over and len(out) < count:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                out.append(Question("hard", perspective(game, seat),
                                    move_seed(game.seed, len(game.history), "hard", seat)))
            game.apply(seat, rng.choice(legal))
    return out


def spin(question: Question, budget: float) -> Decision:
    """A stand-in for a long search: burn :data:`SPIN_SECONDS` of CPU, then decide."""
    until = time.process_time() + SPIN_SECONDS
    while time.process_time() < until:
        pass
    return think(question, budget)


@dataclass
class Run:
    local_ms: float
    pool_ms: float
    local_stall_ms: float
    pool_stall_ms: float


async def ticker(stop: asyncio.Event, worst: list[float]) -> None:
    """Sleep 1 ms at a time and note the longest time a sleep really took."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        began = loop.time()
        await asyncio.sleep(0.001)
        worst[0] = max(worst[0], loop.time() - began)


async def timed(asked: list[Question], decide: Callable[[Question], Awaitable[object]]
                ) -> tuple[float, float]:
    """Seconds per decision, and the event loop's longest stall meanwhile."""
    stop, worst = asyncio.Event(), [0.0]
    tick = asyncio.create_task(ticker(stop, worst))
    await asyncio.sleep(0.01)
    spent = 0.0
    for question in asked:
        began = time.perf_counter()
        await decide(question)
        spent += time.perf_counter() - began
        await asyncio.sleep(0.002)  # a breath between decisions, as between turns
    per = spent / len(asked)
    stop.set()
    await tick
    return per, worst[0]


async def one_run(asked: list[Question], budget: float, thinker: Thinker) -> Run:
    async def here(question: Question) -> Decision:
        decision = thinker(question, budget)
        return decision

    local, local_stall = await timed(asked, here)
    computers = Computers(workers=1, budget=budget, thinker=thinker)
    await computers.warm()
    pooled, pool_stall = await timed(asked, computers.decide)
    await computers.close()
    return Run(local * 1000, pooled * 1000, local_stall * 1000, pool_stall * 1000)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):8.2f} ({min(values):.2f}-{max(values):.2f})"


async def main_async(runs: int, decisions: int, budget: float) -> None:
    print(f"hard decisions, budget {budget}, {decisions} positions a game, {runs} runs; "
          "ms per decision: median (min-max)")
    print(f"{'game':<11} {'in process':>24} {'worker pool':>24} {'ratio':>7} "
          f"{'loop stall, in process':>24} {'loop stall, pool':>24}")
    cases = [(name, players, think) for name, players in CASES]
    cases.append(("spin-100ms", 4, spin))
    for name, players, thinker in cases:
        game = name if thinker is think else "fiasco"
        asked = questions(game, players, decisions if thinker is think else 5, seed=1)
        results = [await one_run(asked, budget, thinker) for _ in range(runs)]
        ratio = statistics.median(r.pool_ms / max(r.local_ms, 1e-6) for r in results)
        print(f"{name:<11} {spread([r.local_ms for r in results]):>24} "
              f"{spread([r.pool_ms for r in results]):>24} {ratio:7.2f} "
              f"{spread([r.local_stall_ms for r in results]):>24} "
              f"{spread([r.pool_stall_ms for r in results]):>24}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--budget", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(main_async(args.runs, args.decisions, args.budget))


if __name__ == "__main__":
    main()
