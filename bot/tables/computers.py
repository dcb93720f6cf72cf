"""Computer seats: their moves and the Hint button's, which generator, and where they think.

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

:class:`ComputerTurns` plays a computer's turn at a table (a computer seat's, or a
person's whose time ran out) and answers the Hint button. A computer thinks outside the
table's lock: it takes its seat's perspective under the lock, thinks in a worker while
its pause runs, then applies its choice through the one action path
(:meth:`bot.tables.actions.Actions.commit`) only if the table has not moved on
meanwhile. Other tables, and people clicking at this one, never wait for its search.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.load import LOAD
from bot.models import ComputerLevel
from bot.settings import Settings
from bot.tables.checks import require_game, require_seat
from bot.tables.errors import TableError, TableMoved
from bot.tables.session import Session
from bot.tables.snapshots import Outcome, menu_of
from bot.tables.timers import TOURNAMENT_SECONDS, duration_words
from bot.workers import WorkerPool
from games.players import Decision, Level, Perspective, decide, perspective
from games.players.hard import HardPlayer, budget_for

if TYPE_CHECKING:
    from bot.tables.actions import Actions

log = logging.getLogger(__name__)

DEFAULT_LEVEL = ComputerLevel.HARD
"""The level ``Add computer player`` offers first."""
TAKEOVER_LEVEL = ComputerLevel.HARD
"""The level of a computer that plays for a person: after /leave or /kick, or when their
turn timed out. The strongest, so nobody's seat is thrown away."""
HINT_LEVEL = ComputerLevel.HARD
"""The level whose choice the Hint button shows."""
TOURNAMENT_LEVEL = ComputerLevel.RANDOM
"""The level that plays a turn timed out under the tournament rule: a random card."""
IN_PROCESS: frozenset[ComputerLevel] = frozenset({ComputerLevel.RANDOM})
"""Levels cheap enough to decide on the event loop."""
ATTEMPTS = 3
"""How many pools a question may break (a worker dying under it) before it is answered in
a thread of the bot's own process instead."""


def move_rng(seed: int | None, actions: int, level: ComputerLevel = ComputerLevel.RANDOM,
             seat: int | None = None) -> random.Random:
    """The generator for one computer move: from the game's seed and the actions so far.

    ``random`` keeps the first wave's generator bit for bit (stored tables and records
    replay unchanged); every other level mixes its name and the seat in, so two seats
    (or a seat and the hint for it) never share a stream by accident.
    """
    if level == ComputerLevel.RANDOM:
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
    if question.level != ComputerLevel.HARD:
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
        self._pools = WorkerPool(workers)

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
            pool = None
            try:
                pool = await self._pools.get()
                return await asyncio.wrap_future(pool.submit(self.thinker, question, self.budget))
            except BrokenProcessPool:
                log.warning("a computer worker died (attempt %d of %d); asking again",
                            attempt, ATTEMPTS)
                if pool is not None:
                    self._pools.discard(pool)
        log.error("computer workers keep dying; thinking in the bot's own process")
        return await asyncio.to_thread(self.thinker, _untouched(question), self.budget)

    async def warm(self) -> None:
        """Start the workers now rather than on the first question (a worker's first start
        imports the rules, which takes a moment)."""
        await self._pools.get()

    async def close(self) -> None:
        """Stop the workers, dropping questions not yet started; waits off the event loop."""
        pool = self._pools.take()
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


def timeout_note(session: Session, seat: int, level: ComputerLevel, decision: Decision) -> str:
    """The table's line for a turn played because its time was up."""
    name = session.seats[seat].name
    if level == TOURNAMENT_LEVEL:
        what = "a random card from their hand" if decision.action.card is not None \
            else "a random choice"
        return (f"{name}'s {duration_words(TOURNAMENT_SECONDS)} ran out: {what} was played for "
                "them (tournament rule)")
    return f"{name} took too long; a {level} computer played for them"


@dataclass(frozen=True)
class HintQuestion:
    """A hint asked for: whose seat, the table's version then, and what the computer is asked."""

    session: Session
    seat: int
    version: int
    question: Question


class ComputerTurns:
    """Computers' turns at started tables, and the Hint button's answers."""

    def __init__(self, pool: Computers, actions: Actions) -> None:
        self.pool = pool  # where the thinking runs
        self.actions = actions  # the one action path every move takes

    async def play(self, session: Session, seat: int, version: int, delay: float, *,
                   timed_out: bool = False, level: ComputerLevel | None = None) -> None:
        """A computer's move for ``seat`` at ``version``, after ``delay`` seconds.

        A computer seat starts thinking at once and waits only what is left of its
        pause: never instant, never longer than the pause plus the search. A timed-out
        person's turn (``timed_out``, played at ``level``) is thought about only once
        their time is up.
        """
        loop = asyncio.get_running_loop()
        try:
            started = loop.time()
            level = level or session.seats[seat].computer_level
            question = await self.question(session, seat, level, version=version)
            if question is None:
                return
            decision = await self.pool.decide(question)
            await asyncio.sleep(max(0.0, delay - (loop.time() - started)))
            await LOAD.calm()  # people's clicks are answered first when the bot is behind
            async with session.lock:
                if session.version != version or session.to_act() != seat:
                    return  # the table moved on while it thought: the answer is moot
                note = timeout_note(session, seat, level, decision) if timed_out else None
                await self.actions.commit(session, seat, decision.action, note,
                                          timed_out=timed_out)
        except asyncio.CancelledError:
            raise
        except TableMoved:
            log.info("table %s moved on elsewhere; its computer turn was dropped", session.id)
        except Exception:
            log.exception("computer turn failed at table %s", session.id)

    async def question(self, session: Session, seat: int, level: ComputerLevel, *,
                       version: int | None = None) -> Question | None:
        """What ``seat`` is asked, taken under the lock; None if the turn is no longer
        ``seat``'s at ``version`` (when given)."""
        async with session.lock:
            if version is not None and session.version != version:
                return None
            return self._question(session, seat, level)

    def _question(self, session: Session, seat: int, level: ComputerLevel) -> Question | None:
        """What ``seat`` is asked now (the caller holds the lock); None if not its turn."""
        if session.to_act() != seat:
            return None
        game = session.game
        assert game is not None
        done = len((session.table.record or {}).get("actions", []))
        return Question(level, perspective(game, seat), move_rng(game.seed, done, level, seat))

    # --- hints --------------------------------------------------------------------------

    async def ask_hint(self, session: Session, user_id: int) -> HintQuestion:
        """What the hard computer is asked for ``user_id``'s hint; TableError why not.

        Only at a table with hints on, and only for the person whose turn it is. The
        generator is the one a hard computer in that seat would use, so the hint is
        what it would play there.
        """
        async with session.lock:
            require_game(session)
            if not session.table.hints:
                raise TableError("this table has no hints (/play with hints:true opens one "
                                 "that has)")
            seat = require_seat(session, user_id)
            waiting = session.to_act()
            if waiting != seat:
                raise TableError("a hint is only for the player whose turn it is" + (
                    f"; waiting for {session.seats[waiting].name}" if waiting is not None
                    else ""))
            question = self._question(session, seat, HINT_LEVEL)
            assert question is not None  # it is the seat's turn
            return HintQuestion(session, seat, session.version, question)

    async def think(self, asked: HintQuestion) -> Decision:
        """The hard computer's answer to ``asked``, from the worker pool."""
        return await self.pool.decide(asked.question)

    async def hint(self, asked: HintQuestion) -> Outcome:
        """The hint in words, with the asker's menu as it is once it is thought of."""
        decision = await self.think(asked)
        session = asked.session
        if session.version != asked.version or session.game is None:
            words = "the table moved on while I thought; ask again"
        else:
            label = session.game.action_label(decision.action, session.names())
            words = f"Hint: {label} ({decision.reason})."
        return Outcome(menu_of(session, asked.seat), words=(words,))


__all__ = [
    "DEFAULT_LEVEL",
    "HINT_LEVEL",
    "TAKEOVER_LEVEL",
    "TOURNAMENT_LEVEL",
    "ComputerTurns",
    "Computers",
    "HintQuestion",
    "Question",
    "Thinker",
    "hard_budget",
    "move_rng",
    "think",
    "timeout_note",
]
