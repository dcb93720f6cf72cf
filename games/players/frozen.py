"""``hard-2026-12``: the hard level as it played in December 2026, frozen.

A level of its own whose moves never change, and the yardstick the hard level is
measured against head to head (``docs/computer-players.md``): determinized Monte Carlo
with successive halving over every legal move, worlds from each game's
:meth:`~games.players.base.Knowledge.sample`, rollouts by its easy rules of thumb, and
the budgets of that month (below), whatever the games' own ``BUDGET`` says today. It
reads only the parts of the knowledge that the hard level leaves alone (the sampler,
the fast state and its rollout policy); what the hard level adds lives in
:mod:`games.players.advice`. ``tests/games/players/test_frozen.py`` checks its moves on
fixed positions against those the ``reorg`` revision's hard made
(``tests/games/players/frozen-hard.json``, made by ``python -m research.frozen_fixture``).

``python -m games play --seats hard,hard-2026-12,...`` plays it; the bot does not offer it
(its levels are ``bot.models.ComputerLevel``: easy and hard).
"""

from __future__ import annotations

import random

from games.players.base import Decision, Knowledge, Perspective, knowledge_for
from games.players.easy import EasyPlayer
from games.players.levels import Level, register_level
from games.players.search import search

LEVEL = Level.HARD_2026_12
#: Simulated moves per decision, per game, as they were (Fizzbin's since issue 13).
BUDGETS = {"fazes": 20_000, "fiasco": 20_000, "fibonachos": 20_000, "fizzbin": 26_000,
           "fumblaroo": 20_000}
#: The budget of a game that had none of its own.
DEFAULT_BUDGET = 20_000


class FrozenHardPlayer:
    """The hard level of December 2026; ``budget`` overrides its per-game budget."""

    level = LEVEL

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
            return Decision(only, know.why(p, only) or "the only legal move")
        return self._search(know, p, rng)

    def _search(self, know: Knowledge, p: Perspective, rng: random.Random) -> Decision:
        budget = self.budget if self.budget is not None else BUDGETS.get(p.game,
                                                                          DEFAULT_BUDGET)
        found = search(p.seat, p.legal, lambda: know.sample(p, rng), rng, budget=budget)
        action = p.legal[found.best]
        why = know.why(p, action)
        odds = f"scored {found.means[found.best]:.0%} over {found.worlds} sampled deals"
        return Decision(action, f"{why}; {odds}" if why else odds)


register_level(LEVEL, FrozenHardPlayer)

__all__ = ["BUDGETS", "DEFAULT_BUDGET", "LEVEL", "FrozenHardPlayer"]
