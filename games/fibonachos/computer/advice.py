"""What Fibonachos teaches the hard level's search beyond the knowledge: play for the game.

The knowledge's playouts value a round by the seat's own points in it (over 34, the
most a round gives), whatever the others score and whatever the game's standing. But
the game is won by the highest total: in the last round a seat ahead should keep the
others from catching up rather than reach for its own best score, and a seat behind
must outscore the leader, not merely score well.

:class:`StandingFibonachos` values the end of the round by the standing instead
(:mod:`games.players.standing`): each seat's total so far plus the round's points,
against the best total of the others, on a logistic curve as wide as the rounds still
to play can move it, blended with the round's own points (``blend``: the weight of the
standing). The worlds, the candidates and the rollouts are the knowledge's.
"""

from __future__ import annotations

from typing import Any, Self, cast

from games.fibonachos.computer.bits import MAX_SPICY_SUM
from games.fibonachos.computer.fast import FibonachosState
from games.fibonachos.options import FibonachosOptions
from games.fibonachos.scoring import NO_SPICY, round_score
from games.players.advice import register_advice
from games.players.base import Perspective
from games.players.standing import (
    BLEND,
    DEAL_SPREAD,
    LAST_WIDTH,
    Standing,
    StandingAdvice,
    adopt,
    spread,
    valued,
)

#: A tie for the highest total wins for everyone in it: margins count as this much more.
TIE = 0.5
#: Round points by Spicy sum.
POINTS: tuple[int, ...] = tuple(round_score(s) for s in range(MAX_SPICY_SUM + 1))


def standing_of(p: Perspective, *, blend: float = BLEND, last_width: float = LAST_WIDTH,
                round_spread: float = DEAL_SPREAD) -> Standing:
    """The standing ``p``'s seat sees: the totals so far and the width of the curve.

    >>> import games
    >>> from games.players import perspective
    >>> game = games.new_game("fibonachos", 4, {"rounds": 3}, seed=1)
    >>> s = standing_of(perspective(game, game.to_act))
    >>> s.totals, round(s.width, 2)
    ((0, 0, 0, 0), 13.04)
    """
    later = cast(FibonachosOptions, p.options).rounds - len(p.rounds) - 1
    totals = tuple(sum(r[q] for r in p.rounds) for q in range(p.players))
    width = last_width * NO_SPICY + spread([round_spread * NO_SPICY] * later)
    return Standing(totals, width, blend)


class StandingFibonachos(FibonachosState):
    """A round whose :meth:`values` weigh the game's standing (see the module docstring)."""

    __slots__ = ("standing",)

    standing: Standing

    def copy(self) -> Self:
        new = super().copy()
        new.standing = self.standing
        return new

    def values(self) -> list[float]:
        own = super().values()
        s = self.standing
        totals = [t + POINTS[w] for t, w in zip(s.totals, self.won, strict=True)]
        return valued(s, totals, own, lower_is_better=False, tie=TIE)


def with_standing(world: FibonachosState, standing: Standing) -> StandingFibonachos:
    """``world`` as a :class:`StandingFibonachos` (a fresh sample: its parts are taken
    over)."""
    new = adopt(world, StandingFibonachos)
    new.standing = standing
    return new


class FibonachosAdvice(StandingAdvice):
    """Fibonachos' :class:`~games.players.advice.Advice`: the knowledge's worlds, valued by
    the standing (``blend`` 0 values them as the knowledge does)."""

    game = "fibonachos"

    def read(self, p: Perspective) -> Standing:
        return standing_of(p, blend=self.blend, last_width=self.last_width,
                           round_spread=self.deal_spread)

    def wrap(self, world: Any, standing: Standing) -> StandingFibonachos:
        return with_standing(world, standing)


ADVICE = register_advice(FibonachosAdvice())

__all__ = ["ADVICE", "POINTS", "TIE", "FibonachosAdvice", "StandingFibonachos", "standing_of",
           "with_standing"]
