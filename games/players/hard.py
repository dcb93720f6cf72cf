"""The hard level: determinized Monte Carlo search over the cards the seat cannot see.

The game's sampler draws worlds consistent with the perspective; every candidate
move is played out on them to the search horizon with the rollout policy (the easy
rules of thumb), and the move with the best mean value for the seat is chosen.
Successive halving (:mod:`games.players.search`) drops the worse half of the
candidates after each round, so clearly bad moves get fewer playouts. A game's
:mod:`~games.players.advice` may narrow the candidates to those the rules of thumb
think worth searching, and draw the worlds from a better model of the hidden cards.

The budget is a fixed number of simulated moves, never a clock, so a decision is a
pure function of the perspective and the generator. Each game may set its own
(``BUDGET`` in its knowledge module, ``games/<game>/computer/knowledge.py``): a game whose
deals are short affords more playouts per decision than one whose deals are long.
"""

from __future__ import annotations

import importlib
import random

from games.players.advice import Advice, KnowledgeOnly, advice_for
from games.players.base import Decision, Knowledge, Perspective, knowledge_for
from games.players.easy import EasyPlayer
from games.players.levels import Level, register_level
from games.players.search import search

#: Simulated moves per decision (rollouts included) for a game that sets no ``BUDGET``.
DEFAULT_BUDGET = 20_000


def budget_for(game: str) -> int:
    """The hard level's budget in ``game``: its knowledge module's ``BUDGET``, or the default.

    >>> budget_for("no such game")
    20000
    """
    try:
        module = importlib.import_module(f"games.{game}.computer.knowledge")
    except ImportError:
        return DEFAULT_BUDGET
    hint = getattr(module, "BUDGET", None)
    if isinstance(hint, int) and not isinstance(hint, bool) and hint > 0:
        return hint
    return DEFAULT_BUDGET


class HardPlayer:
    """Determinized Monte Carlo with the rollout policy of the game's knowledge.

    ``budget`` (simulated moves per decision) defaults to the game's own
    (:func:`budget_for`); the game's :class:`~games.players.advice.Advice`, when it has
    one, narrows the candidates and draws the worlds.
    """

    level = Level.HARD

    def __init__(self, budget: int | None = None) -> None:
        if budget is not None and budget < 1:
            raise ValueError(f"the budget must be at least 1 simulated move, not {budget}")
        self.budget = budget

    def decide(self, p: Perspective, rng: random.Random) -> Decision:
        know = knowledge_for(p.game)
        if know is None:
            return EasyPlayer().decide(p, rng)
        if len(p.legal) == 1:
            only = p.legal[0]
            return Decision(only, know.why(p, only) or "it is the only move you have")
        return self._search(know, p, rng)

    def _advice(self, game: str) -> Advice:
        """The advice the search follows in ``game``: the game's own, or the knowledge's."""
        return advice_for(game) or KnowledgeOnly(game)

    def _search(self, know: Knowledge, p: Perspective, rng: random.Random) -> Decision:
        budget = self.budget if self.budget is not None else budget_for(p.game)
        advice = self._advice(p.game)
        kept = list(advice.candidates(p))
        if len(kept) == 1:
            action = p.legal[kept[0]]
            return Decision(action, know.why(p, action) or "it is the only move worth playing")
        found = search(p.seat, [p.legal[i] for i in kept], lambda: advice.sample(p, rng), rng,
                       budget=budget)
        action = p.legal[kept[found.best]]
        odds = f"scored {found.means[found.best]:.0%} over {found.worlds} sampled deals"
        return Decision(action, know.why(p, action), odds=odds)


register_level(Level.HARD, HardPlayer)

__all__ = ["DEFAULT_BUDGET", "HardPlayer", "budget_for"]
