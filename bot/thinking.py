"""What a computer is asked and how it answers: the side of the computer players that runs in
a worker process.

A computer's choice is a pure function of what its seat may know (a
:class:`~games.players.Perspective`), its level, and a generator drawn from the table's
seed, the number of actions so far, the level and the seat (:func:`move_seed`): a
:class:`Question` carries all three across to a worker, and :func:`think` answers it
there. The table service (:mod:`bot.tables.computers`) asks; the worker processes
(:mod:`bot.workers`, whose fork server preloads this module) import only this module and
the rules library with its computer players: never discord.py, aiohttp, the store or the
table service (``tests/bot/test_thinking.py`` checks it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.levels import Level
from games.players import Decision, Perspective, decide
from games.players.hard import HardPlayer, budget_for


def move_seed(seed: int | None, actions: int, level: Level = Level.RANDOM,
              seat: int | None = None) -> str:
    """The seed of the generator for one computer move: from the game's seed and the
    actions so far.

    ``random`` keeps the first wave's generator bit for bit (stored tables and records
    replay unchanged); every other level mixes its name and the seat in, so two seats
    (or a seat and the hint for it) never share a stream by accident.
    """
    if level == Level.RANDOM:
        return f"fivefold-computer:{seed}:{actions}"
    return f"fivefold-computer:{level}:{seat}:{seed}:{actions}"


@dataclass(frozen=True, slots=True)
class Question:
    """What a computer is asked: a level, a perspective and the seed of the generator to
    decide with (:func:`move_seed`).

    Picklable: it crosses to a worker process and back unchanged. It carries the seed, not
    the generator (a few dozen bytes to send, not the generator's 4 KB of state), and each
    answer starts a generator of its own from it, so asking it again (after a worker died)
    gives the same decision.
    """

    level: Level
    perspective: Perspective
    seed: str

    def rng(self) -> random.Random:
        """A new generator for this question's answer."""
        return random.Random(self.seed)


Thinker = Callable[[Question, float], Decision]
"""Answers a question with a budget scale; a module-level function (it is pickled by name)."""


def think(question: Question, budget: float) -> Decision:
    """The decision for ``question``, the hard level's search scaled by ``budget``.

    ValueError when the seat has no legal action.
    """
    p = question.perspective
    if question.level != Level.HARD:
        return decide(question.level, p, question.rng())
    if not p.legal:
        raise ValueError(f"seat {p.seat} has no legal action")
    return HardPlayer(budget=hard_budget(budget, p.game)).decide(p, question.rng())


def hard_budget(scale: float, game: str) -> int:
    """The hard search's simulated moves in ``game`` for the ``COMPUTER_BUDGET`` scale:
    the game's own budget (:func:`games.players.hard.budget_for`) scaled, at least 1."""
    return max(1, round(budget_for(game) * scale))


__all__ = ["Question", "Thinker", "hard_budget", "move_seed", "think"]
