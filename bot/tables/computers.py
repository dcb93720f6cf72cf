"""Computer seats' decisions: which generator, which level, and where the thinking runs.

A computer's choice is a pure function of what its seat may know (a
:class:`~games.players.Perspective`), its level, and a generator drawn from the table's
seed, the number of actions so far, the level and the seat (:func:`move_rng`). Nothing
else, no process state: a table resumed after a restart makes the same computer moves
as one that never stopped.

The ``random`` level costs microseconds and runs in the bot's own process. Every other
level runs in :class:`Computers`, a small pool of worker processes, because a hard
decision may take a few hundred milliseconds of CPU and the event loop serves every
table. A worker that dies (killed, out of memory) costs nothing but time: the pool is
replaced and the same question asked again, with the same generator, so it gets the
same answer.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import multiprocessing
import random
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from multiprocessing.context import BaseContext

from bot.models import ComputerLevel
from bot.settings import Settings
from games.players import Decision, Level, Perspective, decide
from games.players.hard import HardPlayer, budget_for

log = logging.getLogger(__name__)

DEFAULT_LEVEL: ComputerLevel = "hard"
"""The level ``Add computer player`` offers first."""
TAKEOVER_LEVEL: ComputerLevel = "hard"
"""The level of a computer that plays for a person: after /leave or /kick, or when their
turn timed out. The strongest, so nobody's seat is thrown away."""
HINT_LEVEL: ComputerLevel = "hard"
"""The level whose choice the Hint button shows."""
IN_PROCESS: frozenset[str] = frozenset({"random"})
"""Levels cheap enough to decide on the event loop."""
ATTEMPTS = 3
"""How many pools a question may break (a worker dying under it) before it is answered in
a thread of the bot's own process instead."""


def move_rng(seed: int | None, actions: int, level: ComputerLevel = "random",
             seat: int | None = None) -> random.Random:
    """The generator for one computer move: from the game's seed and the actions so far.

    ``random`` keeps the first wave's generator bit for bit (stored tables and records
    replay unchanged); every other level mixes its name and the seat in, so two seats
    (or a seat and the hint for it) never share a stream by accident.
    """
    if level == "random":
        return random.Random(f"fivefold-computer:{seed}:{actions}")
    return random.Random(f"fivefold-computer:{level}:{seat}:{seed}:{actions}")


@dataclass(frozen=True, slots=True)
class Question:
    """What a computer is asked: a level, a perspective and the generator to decide with.

    Picklable: it crosses to a worker process and back unchanged, so asking it again
    (after a worker died) gives the same decision.
    """

    level: ComputerLevel
    perspective: Perspective
    rng: random.Random


Thinker = Callable[[Question, float], Decision]
"""Answers a question with a budget scale; a module-level function (it is pickled by name)."""


def think(question: Question, budget: float) -> Decision:
    """The decision for ``question``, the hard level's search scaled by ``budget``.

    ValueError when the seat has no legal action.
    """
    p = question.perspective
    if question.level != "hard":
        return decide(Level(question.level), p, question.rng)
    if not p.legal:
        raise ValueError(f"seat {p.seat} has no legal action")
    return HardPlayer(budget=hard_budget(budget, p.game)).decide(p, question.rng)


def hard_budget(scale: float, game: str) -> int:
    """The hard search's simulated moves in ``game`` for the ``COMPUTER_BUDGET`` scale:
    the game's own budget (:func:`games.players.hard.budget_for`) scaled, at least 1."""
    return max(1, round(budget_for(game) * scale))


def _untouched(question: Question) -> Question:
    """``question`` with a copy of its generator, to think about without using it up."""
    return replace(question, rng=copy.copy(question.rng))


def _ready() -> None:
    """A worker's first task when the pool is warmed: nothing but starting."""


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C to the bot, which shuts the pool down in order."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context() -> BaseContext:
    """Fork server where there is one: workers start from a clean process with the rules
    preloaded, never forked from the bot's threads (aiosqlite's, the event loop's)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["bot.tables.computers"])
    return context


class Computers:
    """The computer players' thinking, off the event loop: a pool of worker processes.

    The pool starts on the first question (so a bot whose tables have only people or
    ``random`` seats starts none) and after :meth:`close` starts again if asked, as when
    the Tables cog is reloaded.
    """

    def __init__(self, *, workers: int, budget: float, thinker: Thinker = think) -> None:
        self.workers = workers
        self.budget = budget
        self.thinker = thinker
        self._pool: ProcessPoolExecutor | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Computers:
        return cls(workers=settings.computer_workers, budget=settings.computer_budget)

    async def decide(self, question: Question) -> Decision:
        """The answer to ``question``; a worker dying under it only means asking again.

        ``question`` is never used up: its generator crosses to a worker as a copy, and
        is copied here too when the answer is thought in this process, so asking twice
        gives the same answer.
        """
        if question.level in IN_PROCESS:
            return self.thinker(_untouched(question), self.budget)
        for attempt in range(1, ATTEMPTS + 1):
            pool = self._current_pool()
            try:
                return await asyncio.wrap_future(pool.submit(self.thinker, question, self.budget))
            except BrokenProcessPool:
                log.warning("a computer worker died (attempt %d of %d); asking again",
                            attempt, ATTEMPTS)
                self._discard(pool)
        log.error("computer workers keep dying; thinking in the bot's own process")
        return await asyncio.to_thread(self.thinker, _untouched(question), self.budget)

    async def warm(self) -> None:
        """Start the workers now rather than on the first question (a worker's first start
        imports the rules, which takes a moment)."""
        pool = self._current_pool()
        await asyncio.gather(*(asyncio.wrap_future(pool.submit(_ready))
                               for _ in range(self.workers)))

    async def close(self) -> None:
        """Stop the workers, dropping questions not yet started; waits off the event loop."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    def _current_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=_context(),
                                             initializer=_quiet_worker)
        return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Replace a broken pool (once, however many of its questions noticed)."""
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)


__all__ = [
    "DEFAULT_LEVEL",
    "HINT_LEVEL",
    "TAKEOVER_LEVEL",
    "Computers",
    "Question",
    "Thinker",
    "hard_budget",
    "move_rng",
    "think",
]
