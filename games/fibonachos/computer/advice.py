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

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self, cast

from games.fibonachos.computer.bits import MAX_SPICY_SUM
from games.fibonachos.computer.fast import FibonachosState
from games.fibonachos.computer.knowledge import KNOWLEDGE
from games.fibonachos.options import FibonachosOptions
from games.fibonachos.scoring import NO_SPICY, round_score
from games.players.advice import register_advice
from games.players.base import Perspective, SearchState
from games.players.standing import place_values, spread

#: The weight of the standing in a playout's value (the round's own points have the rest).
BLEND = 0.75
#: The logistic curve's width in the last round, as a share of a round's most points.
LAST_WIDTH = 0.03
#: What one round still to play can move a margin by, as a share of a round's most points.
ROUND_SPREAD = 0.25
#: A tie for the highest total wins for everyone in it: margins count as this much more.
TIE = 0.5
#: Round points by Spicy sum.
POINTS: tuple[int, ...] = tuple(round_score(s) for s in range(MAX_SPICY_SUM + 1))


@dataclass(frozen=True, slots=True)
class Standing:
    """The game around the round under way, shared by every copy of a world."""

    totals: tuple[int, ...]  # each seat's points before this round
    width: float  # the logistic curve's width, in points
    blend: float


def standing_of(p: Perspective, *, blend: float = BLEND, last_width: float = LAST_WIDTH,
                round_spread: float = ROUND_SPREAD) -> Standing:
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
        place = place_values(totals, width=s.width, lower_is_better=False, tie=TIE)
        return [s.blend * w + (1 - s.blend) * v for w, v in zip(place, own, strict=True)]


def with_standing(world: FibonachosState, standing: Standing) -> StandingFibonachos:
    """``world`` as a :class:`StandingFibonachos`, taking over its parts (a fresh sample,
    used by nothing else)."""
    new = object.__new__(StandingFibonachos)
    for name in FibonachosState.__slots__:
        setattr(new, name, getattr(world, name))
    new.standing = standing
    return new


class FibonachosAdvice:
    """Fibonachos' :class:`~games.players.advice.Advice`: the knowledge's worlds, valued by
    the standing (``blend`` 0 values them as the knowledge does)."""

    game = "fibonachos"

    def __init__(self, blend: float = BLEND, last_width: float = LAST_WIDTH,
                 round_spread: float = ROUND_SPREAD) -> None:
        if not 0 <= blend <= 1 or last_width <= 0 or round_spread < 0:
            raise ValueError("blend is a weight in [0, 1]; the widths must be positive")
        self.blend = blend
        self.last_width = last_width
        self.round_spread = round_spread
        self._standing: tuple[Perspective, Standing] | None = None

    def candidates(self, p: Perspective) -> Sequence[int]:
        return range(len(p.legal))

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        world = cast(FibonachosState, KNOWLEDGE.sample(p, rng))
        if self.blend == 0:
            return world
        cached = self._standing  # read once: a search in a thread may replace it
        if cached is None or cached[0] is not p:
            cached = (p, standing_of(p, blend=self.blend, last_width=self.last_width,
                                     round_spread=self.round_spread))
            self._standing = cached
        return with_standing(world, cached[1])


ADVICE = register_advice(FibonachosAdvice())

__all__ = ["ADVICE", "BLEND", "LAST_WIDTH", "POINTS", "ROUND_SPREAD", "TIE", "FibonachosAdvice",
           "Standing", "StandingFibonachos", "standing_of", "with_standing"]
