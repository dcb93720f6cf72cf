"""Computer seats: their moves and the Hint button's, which generator, and where they think.

A computer's choice is a pure function of what its seat may know, its level, and a
generator drawn from the table's seed, the number of actions so far, the level and the
seat (a :class:`~bot.thinking.Question`, answered by :func:`bot.thinking.think`). Nothing
else, no process state: a table resumed after a restart makes the same computer moves
as one that never stopped.

The ``random`` level costs microseconds and runs in the bot's own process. Every other
level runs in :class:`Computers`, a small pool of worker processes, because a hard
decision may take a few hundred milliseconds of CPU and the event loop serves every
table. A worker that dies (killed, out of memory) costs nothing but time: the pool is
replaced and the same question asked again, with the same seed, so it gets the same
answer.

:class:`ComputerTurns` plays a computer's turn at a table (a computer seat's, or a
person's whose time ran out) and answers the Hint button. A computer thinks outside the
table's lock: it takes its seat's perspective under the lock, thinks in a worker while
its pause runs, then applies its choice through the one action path
(:meth:`bot.tables.actions.Actions.commit`) only if its turn is still the one under way
(:class:`~bot.tables.session.Turn`: the game's moves, the seat, who holds it). A save that
leaves the game where it was (the table posted anew, another seat changing hands) does
not make its choice moot. Other tables, and people clicking at this one, never wait for
its search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.load import LOAD
from bot.settings import Settings
from bot.tables.actions import Actions
from bot.tables.checks import require_game, require_holder, require_seat
from bot.tables.errors import TableError, TableMoved
from bot.tables.session import Session, Turn
from bot.tables.snapshots import Reply, menu_of
from bot.tables.timers import TOURNAMENT_SECONDS, duration_words
from bot.thinking import Question, Thinker, move_seed, think
from bot.workers import NotSent, WorkerPool
from games.levels import Level
from games.players import Decision, perspective
from games.players.base import hint_words

log = logging.getLogger(__name__)

HINT_LEVEL = Level.HARD
"""The level whose choice the Hint button shows."""
TOURNAMENT_LEVEL = Level.RANDOM
"""The level that plays a turn timed out under the tournament rule: a random card."""
IN_PROCESS: frozenset[Level] = frozenset({Level.RANDOM})
"""Levels cheap enough to decide on the event loop."""
ATTEMPTS = 3
"""How many pools a question may break (a worker dying under it) before it is answered in
a thread of the bot's own process instead."""


HINT_PATIENCE = 2.0
"""Seconds a hint waits at most for the computers' workers to have nothing queued before it
starts anyway (in its own worker: it never holds a computer up)."""


class _Pool:
    """Worker processes that answer questions (a :class:`~bot.workers.WorkerPool`: they
    start off the event loop and end with the bot), replaced if a worker dies."""

    def __init__(self, workers: int, thinker: Thinker, budget: float) -> None:
        self.workers = workers
        self.thinker = thinker
        self.budget = budget
        self._pools = WorkerPool(workers)

    async def ask(self, question: Question) -> Decision:
        """The answer to ``question``; a worker dying under it only means asking again."""
        attempt = 0
        while attempt < ATTEMPTS:
            pool = None
            try:
                pool = await self._pools.get()
                return await pool.call(self.thinker, question, self.budget)
            except BrokenProcessPool as broken:
                if pool is not None:
                    self._pools.discard(pool)
                if isinstance(broken, NotSent):
                    continue  # another question's worker died; this one had not been sent
                attempt += 1
                log.warning("a computer worker died (attempt %d of %d); asking again",
                            attempt, ATTEMPTS)
        log.error("computer workers keep dying; thinking in the bot's own process")
        return await asyncio.to_thread(self.thinker, question, self.budget)

    async def warm(self) -> None:
        """Start the workers now rather than on the first question."""
        await self._pools.get()

    async def close(self) -> None:
        """Stop the workers, dropping questions not yet started; waits off the event loop."""
        pool = self._pools.take()
        if pool is not None:
            await pool.close()


class Computers:
    """The computer players' thinking, off the event loop: a pool of worker processes.

    The pool starts on the first question (so a bot whose tables have only people or
    ``random`` seats starts none) and after :meth:`close` starts again if asked, as when
    the table cog (TableCommands) is reloaded.

    Hints (:meth:`hint`) think in a worker of their own, one hint at a time for the whole
    bot, and each starts only once no computer's question is waiting for a worker (or
    after :data:`HINT_PATIENCE`): a player clicking Hint over and over can never hold up
    the computers of any table, which never wait for a hint.
    """

    def __init__(self, *, workers: int, budget: float, thinker: Thinker = think) -> None:
        self.workers = workers
        self.budget = budget
        self.thinker = thinker
        self._pool = _Pool(workers, thinker, budget)
        self._hint_pool = _Pool(1, thinker, budget)
        self._hint_turn = asyncio.Lock()  # one hint search at a time
        self._waiting = 0  # computers' questions asked and not yet answered
        self._room = asyncio.Event()  # set while a computers' worker is free
        self._room.set()

    @classmethod
    def from_settings(cls, settings: Settings) -> Computers:
        return cls(workers=settings.computer_workers, budget=settings.computer_budget)

    async def decide(self, question: Question) -> Decision:
        """The answer to ``question``; a worker dying under it only means asking again.

        ``question`` is never used up: each answer starts its own generator from the
        question's seed, so asking twice gives the same answer.
        """
        if question.level in IN_PROCESS:
            return self.thinker(question, self.budget)
        self._count(+1)
        try:
            return await self._pool.ask(question)
        finally:
            self._count(-1)

    def _count(self, change: int) -> None:
        """One more (or one fewer) computer's question asked and not yet answered."""
        self._waiting += change
        if self._waiting < self.workers:
            self._room.set()
        else:
            self._room.clear()

    async def hint(self, question: Question) -> Decision:
        """The answer to a hint's ``question``, in the hints' own worker (see the class)."""
        async with self._hint_turn:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._room.wait(), HINT_PATIENCE)
            return await self._hint_pool.ask(question)

    async def warm(self) -> None:
        """Start the workers now rather than on the first question (a worker's first start
        imports the rules, which takes a moment)."""
        await self._pool.warm()

    async def close(self) -> None:
        """Stop the workers, dropping questions not yet started; waits off the event loop."""
        await asyncio.gather(self._pool.close(), self._hint_pool.close())


def timeout_note(session: Session, seat: int, level: Level, decision: Decision) -> str:
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
    """A hint asked for: by whom, for which seat, the turn then, what the computer is
    asked, and its answer on the way (shared by every click that asks the same)."""

    session: Session
    user_id: int
    seat: int
    turn: Turn
    question: Question
    answer: asyncio.Future[Decision]


HintKey = tuple[str, int, int]
"""A hint's table, the moves made so far and the seat: one search each (a save that
leaves the game where it was, such as a re-posted message, keeps its hints)."""
HINTS_KEPT = 256
"""How many hints are remembered for repeat clicks (the latest; a table that moves on
forgets its older ones at once)."""
ONE_HINT = ("your hint at another table is still being thought of; one hint at a time, "
            "ask again once it is here")


def _failed(answer: asyncio.Future[Decision]) -> bool:
    """Whether a search ended without an answer (its worker failed, or it was cancelled)."""
    return answer.done() and (answer.cancelled() or answer.exception() is not None)


class ComputerTurns:
    """Computers' turns at started tables, and the Hint button's answers."""

    def __init__(self, pool: Computers, actions: Actions, *,
                 monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.pool = pool  # where the thinking runs
        self.actions = actions  # the one action path every move takes
        # What a computer's pause is measured and waited on (tests note it instead).
        self.monotonic, self.sleep = monotonic, sleep
        self._hints: OrderedDict[HintKey, asyncio.Future[Decision]] = OrderedDict()
        self._asking: dict[int, HintKey] = {}  # who has a hint being thought of, and which

    async def play(self, session: Session, turn: Turn, delay: float, *,
                   timed_out: bool = False, level: Level | None = None) -> None:
        """A computer's move for ``turn``, after ``delay`` seconds.

        A computer seat starts thinking at once and waits only what is left of its
        pause: never instant, never longer than the pause plus the search. A timed-out
        person's turn (``timed_out``, played at ``level``) is thought about only once
        their time is up. The move is made only if ``turn`` is still the one under way:
        the table's version may have moved meanwhile (a save that changed no move), the
        game may not have.
        """
        seat = turn.seat
        try:
            started = self.monotonic()
            level = level or session.seats[seat].computer_level
            question = await self.question(session, seat, level, turn=turn)
            if question is None:
                return
            decision = await self.pool.decide(question)
            await self.sleep(max(0.0, delay - (self.monotonic() - started)))
            await LOAD.calm()  # people's clicks are answered first when the bot is behind
            async with session.lock:
                if session.turn() != turn:
                    return  # the game moved on while it thought: the answer is moot
                note = timeout_note(session, seat, level, decision) if timed_out else None
                await self.actions.commit(session, seat, decision.action, note,
                                          timed_out=timed_out)
        except asyncio.CancelledError:
            raise
        except TableMoved:
            log.info("table %s moved on elsewhere; its computer turn was dropped", session.id)
        except Exception:
            log.exception("computer turn failed at table %s", session.id)

    async def question(self, session: Session, seat: int, level: Level, *,
                       turn: Turn | None = None) -> Question | None:
        """What ``seat`` is asked, taken under the lock; None if the turn is no longer
        ``seat``'s, or (when given) no longer ``turn``."""
        async with session.lock:
            if turn is not None and session.turn() != turn:
                return None
            return self._question(session, seat, level)

    def _question(self, session: Session, seat: int, level: Level) -> Question | None:
        """What ``seat`` is asked now (the caller holds the lock); None if not its turn."""
        if session.to_act() != seat:
            return None
        game = session.game
        assert game is not None
        done = len((session.table.record or {}).get("actions", []))
        return Question(level, perspective(game, seat), move_seed(game.seed, done, level, seat))

    # --- hints --------------------------------------------------------------------------

    async def ask_hint(self, session: Session, user_id: int) -> HintQuestion:
        """What the hard computer is asked for ``user_id``'s hint, its answer on the way;
        TableError why not.

        Only at a table with hints on, and only for the person whose turn it is. The
        generator is the one a hard computer in that seat would use, so the hint is
        what it would play there. One search per table, turn and seat: a repeat
        click is answered from it, and a person has one hint being thought of at most.
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
            turn = session.turn()
            assert turn is not None  # it is the seat's turn
            key = (session.id, turn.moves, seat)
            if self._asking.get(user_id, key) != key:
                raise TableError(ONE_HINT)
            question = self._question(session, seat, HINT_LEVEL)
            assert question is not None  # it is the seat's turn
            return HintQuestion(session, user_id, seat, turn, question,
                                self._search(key, user_id, question))

    def _search(self, key: HintKey, user_id: int, question: Question
                ) -> asyncio.Future[Decision]:
        """The answer for ``key``: the one already found or on its way, else a new search
        in the hints' own worker (:meth:`Computers.hint`)."""
        found = self._hints.get(key)
        if found is not None and not _failed(found):
            self._hints.move_to_end(key)
            return found
        answer = asyncio.ensure_future(self.pool.hint(question))
        for older in [k for k in self._hints if k[0] == key[0] and k[1] != key[1]]:
            del self._hints[older]  # that table moved on: those hints are moot
        self._hints[key] = answer
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        self._asking[user_id] = key

        def done(_: asyncio.Future[Decision]) -> None:
            if self._asking.get(user_id) == key:
                del self._asking[user_id]
            if _failed(answer) and self._hints.get(key) is answer:
                del self._hints[key]  # a failed search is tried again at the next click

        answer.add_done_callback(done)
        return answer

    async def think(self, asked: HintQuestion) -> Decision:
        """The hard computer's answer to ``asked``."""
        return await asyncio.shield(asked.answer)

    async def hint(self, asked: HintQuestion) -> Reply:
        """The hint in words, with the asker's menu as it is once it is thought of.

        The seat is read again after the search: if it passed to a computer meanwhile
        (kicked, left), its hand is not the asker's to see any more.
        """
        decision = await self.think(asked)
        session = asked.session
        require_holder(session, asked.user_id, asked.seat)
        if session.turn() != asked.turn or session.game is None:
            words = "the table moved on while I thought; ask again"
        else:
            label = session.game.action_label(decision.action, session.names())
            words = f"Hint: {hint_words(label, decision.reason)}"
        return Reply(menu_of(session, asked.seat), words=(words,))


__all__ = [
    "HINTS_KEPT",
    "HINT_LEVEL",
    "HINT_PATIENCE",
    "ONE_HINT",
    "TOURNAMENT_LEVEL",
    "ComputerTurns",
    "Computers",
    "HintQuestion",
    "timeout_note",
]
