"""The hard level: determinized Monte Carlo search over the cards the seat cannot see.

For each world the game's sampler draws consistent with the perspective, every
candidate move is played out to the search horizon with the rollout policy (the easy
rules of thumb), and the move with the best mean value for the seat is chosen. The
budget is a fixed number of simulated moves, never a clock, so a decision is a pure
function of the perspective and the generator.
"""

from __future__ import annotations

import random

from games.core.actions import Action
from games.players.base import Decision, Perspective, knowledge_for
from games.players.easy import EasyPlayer
from games.players.levels import register_level

#: Simulated moves per decision (rollouts included).
DEFAULT_BUDGET = 20_000


class HardPlayer:
    """Flat determinized Monte Carlo with the rollout policy of the game's knowledge."""

    level = "hard"

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget

    def decide(self, p: Perspective, rng: random.Random) -> Decision:
        know = knowledge_for(p.game)
        if know is None:
            return EasyPlayer().decide(p, rng)
        if len(p.legal) == 1:
            only = p.legal[0]
            return Decision(only, know.why(p, only) or "the only legal move")
        seat = p.seat
        totals = [0.0] * len(p.legal)
        counts = [0] * len(p.legal)
        spent = 0
        worlds = 0
        while spent < self.budget:
            world = know.sample(p, rng)
            worlds += 1
            for i, candidate in enumerate(p.legal):
                state = world.copy()
                state.play(state.move(candidate))
                spent += 1
                while not state.done():
                    state.play(state.rollout_move(rng))
                    spent += 1
                totals[i] += state.values()[seat]
                counts[i] += 1
        best = max(range(len(p.legal)), key=lambda i: (totals[i] / counts[i], -i))
        action: Action = p.legal[best]
        share = totals[best] / counts[best]
        why = know.why(p, action)
        odds = f"scored {share:.0%} over {worlds} sampled deals"
        return Decision(action, f"{why}; {odds}" if why else odds)


register_level("hard", HardPlayer)

__all__ = ["DEFAULT_BUDGET", "HardPlayer"]
