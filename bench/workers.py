"""What the bot's own process spends on each call to its worker processes.

``python -m bench.workers`` sends calls to two worker processes, as the bot does for a
computer's move and for a picture, and measures the CPU this process spends on each (every
thread of it: the event loop and whatever threads the pool runs), from the call to its
answer. Once through :class:`bot.workers.Workers`, the pool the bot uses, and once through
``concurrent.futures.ProcessPoolExecutor`` (the pool it used before, through
``asyncio.wrap_future``), both started from the same fork server; the two alternate, round
by round, and each round's ratio is given. The work done in the workers is next to nothing,
so what is measured is the pool's own cost. On uvloop where it is installed, as the bot.

The calls: *question*, a hard computer's question in Fiasco after a few moves (answered by
the random level, a small decision back); *picture*, a small scene out and
``--picture-bytes`` of PNG back. ``--in-flight`` calls are kept going at once, as many
tables do.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.rules import chosen_kinds, per_call_options, report_per_call
from bot.__main__ import event_loop
from bot.thinking import Question, move_seed, think
from bot.workers import Workers, pool_context, start_worker
from games.core.registry import new_game
from games.levels import Level
from games.players import perspective

KINDS = ("question", "picture")
WORKERS = 2


def question() -> Question:
    """A computer's question at a Fiasco table a few moves in, at the random level (the
    answer costs the worker microseconds: the pool's cost is what is left)."""
    game = new_game("fiasco", 4, seed=7)
    for _ in range(6):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.to_act
    assert seat is not None
    return Question(Level.RANDOM, perspective(game, seat), move_seed(7, 6, seat=seat))


def picture(scene: bytes, size: int) -> bytes:
    """A picture's stand-in: its scene read, ``size`` bytes of PNG back."""
    return bytes(size - len(scene)) + scene


def _ready() -> None:
    """A worker's first call: nothing but having started."""


Call = Callable[[Callable[..., Any], tuple[Any, ...]], Awaitable[Any]]


async def per_call(call: Call, kind: str, calls: int, in_flight: int,
                   picture_bytes: int) -> float:
    """Microseconds of this process's CPU a call, over ``calls`` calls."""
    job: tuple[Callable[..., Any], tuple[Any, ...]]
    if kind == "question":
        job = (think, (question(), 1.0))
    else:
        job = (picture, (random.Random(5).randbytes(2_000), picture_bytes))
    lanes = asyncio.Semaphore(in_flight)

    async def one() -> None:
        async with lanes:
            await call(*job)

    start = time.process_time()
    await asyncio.gather(*(one() for _ in range(calls)))
    return (time.process_time() - start) / calls * 1e6


async def measure(kinds: list[str], calls: int, rounds: int, in_flight: int,
                  picture_bytes: int) -> dict[str, dict[str, list[float]]]:
    """Each kind's µs a call through each pool, round by round, the pools alternating."""
    workers = await Workers.start(WORKERS)
    executor = ProcessPoolExecutor(WORKERS, mp_context=pool_context(), initializer=start_worker)
    try:
        await asyncio.gather(*(asyncio.wrap_future(executor.submit(_ready))
                               for _ in range(WORKERS)))

        async def ours(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
            return await workers.call(fn, *args)

        async def theirs(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
            return await asyncio.wrap_future(executor.submit(fn, *args))

        figures: dict[str, dict[str, list[float]]] = {
            kind: {"workers": [], "executor": []} for kind in kinds}
        for kind in kinds:
            await per_call(ours, kind, 50, in_flight, picture_bytes)  # warm both
            await per_call(theirs, kind, 50, in_flight, picture_bytes)
            for number in range(rounds):  # alternating, so a busier moment moves both alike
                sides = (("workers", ours), ("executor", theirs))
                for name, call in sides if number % 2 == 0 else sides[::-1]:
                    figures[kind][name].append(
                        await per_call(call, kind, calls, in_flight, picture_bytes))
        return figures
    finally:
        await workers.close()
        executor.shutdown(wait=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.workers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    per_call_options(parser, KINDS, calls=3000, in_flight=8,
                     picture_help="the size of a picture's answer")
    args = parser.parse_args(argv)
    kinds = chosen_kinds(parser, args, KINDS)
    if min(args.calls, args.rounds, args.in_flight) < 1 or args.picture_bytes < 2_000:
        parser.error("--calls, --rounds and --in-flight take at least 1, "
                     "--picture-bytes at least 2000")
    factory, loop_name = event_loop()
    with asyncio.Runner(loop_factory=factory) as runner:
        figures = runner.run(measure(kinds, args.calls, args.rounds, args.in_flight,
                                     args.picture_bytes))
    report_per_call(args, figures, loop=loop_name, this="workers", reference="executor",
                    names=("Workers", "ProcessPoolExecutor"),
                    heading=f"the bot's CPU a call to {WORKERS} worker processes, µs, median "
                            f"(min-max) of {args.rounds} rounds of {args.calls} calls, "
                            f"{args.in_flight} at once, {loop_name}:")
    return 0


if __name__ == "__main__":
    sys.exit(main())
