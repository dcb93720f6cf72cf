"""What Fumblaroo teaches the hard level's search beyond the knowledge: play for the game.

The knowledge's playouts value a hand that wins nobody the game by the hand's points
alone, the seat's less the best of the others' (a hand that makes a winner is worth 1
to it and 0 to the others). A point is worth more near the target than far from it,
and a hand that leaves the seat two points behind a leader about to win is nearly a
lost game, whatever it scored: :class:`StandingFumblaroo` values such a hand by the
totals it leaves (:mod:`games.players.standing`): each seat's chance of holding the
best total, on a logistic as wide as the hands still to play before someone reaches
the target can move it, blended with the hand's own value (``blend``: the weight of the
standing).

The worlds are weighed by how well they explain the other players' bids and plays
(:mod:`games.fumblaroo.computer.inference`; ``prior``: the chance, before anything is
read, that a seat plays by the rules of thumb): a pool of ``pool`` of the knowledge's
worlds, drawn from by weight (each weight raised to the power ``temper`` first: below 1
it flattens them, 1 leaves them as they are). The candidates and the rollouts are the
knowledge's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import partial
from typing import Self, cast

from games.fumblaroo.computer.fast import DONE, FumblarooState
from games.fumblaroo.computer.inference import clues, weight
from games.fumblaroo.computer.knowledge import KNOWLEDGE, deal_unseen, unseen, world
from games.fumblaroo.scoring import game_winner
from games.players.advice import register_advice
from games.players.base import Perspective, SearchState
from games.players.standing import adopt, place_values
from games.players.weighed import RULES_PRIOR, PooledWorlds, Recent, check_prior, check_temper

#: The weight of the standing in the value of a hand that makes no winner.
BLEND = 0.75
#: What one hand can move a margin by, in points (a hand gives 1, 2, 2 and 2, or 5).
HAND_SPREAD = 1.5
#: The points one player gains in a hand, on average, for the hands still to play.
PACE = 0.8
#: The knowledge's worlds weighed per perspective (0: draw them unweighed).
POOL = 256
#: The power the pool's weights are raised to before drawing (1: as they are).
TEMPER = 1.0


class StandingFumblaroo(FumblarooState):
    """A hand whose :meth:`values` weigh the totals it leaves (see the module docstring)."""

    __slots__ = ("blend",)

    blend: float

    def copy(self) -> Self:
        new = super().copy()
        new.blend = self.blend
        return new

    def values(self) -> list[float]:
        own = super().values()
        if self.stage != DONE:
            return own
        totals = [s + g for s, g in zip(self.scores, self.gained(), strict=True)]
        if game_winner(totals, target=self.target) is not None:
            return own  # the game is over: 1 to its winner, 0 to the others
        width = HAND_SPREAD * math.sqrt(max(1.0, (self.target - max(totals)) / PACE))
        place = place_values(totals, width=width, lower_is_better=False, tie=0.0)
        return [self.blend * w + (1 - self.blend) * v for w, v in zip(place, own, strict=True)]


def with_standing(world: FumblarooState, blend: float) -> StandingFumblaroo:
    """``world`` as a :class:`StandingFumblaroo`, taking over its parts (a fresh sample,
    used by nothing else)."""
    new = adopt(world, StandingFumblaroo)
    new.blend = blend
    return new


class Weighed(PooledWorlds[list[int], FumblarooState]):
    """A pool of the knowledge's worlds for one perspective, weighed by the other seats'
    bids, plays and discard, to draw from by weight (afresh while there is none to read:
    nobody else has bid, and the dealer's discard is the seat's own or not yet made)."""

    def __init__(self, p: Perspective, size: int, temper: float = TEMPER,
                 prior: float = RULES_PRIOR) -> None:
        self.unseen = unseen(p)
        found = clues(p, self.unseen)
        super().__init__(p, size, deal=partial(deal_unseen, self.unseen),
                         make=partial(world, self.unseen),
                         weigh=partial(weight, found, prior=prior)
                         if found.found or found.discarded else None, temper=temper)


class FumblarooAdvice:
    """Fumblaroo's :class:`~games.players.advice.Advice`: the knowledge's worlds weighed
    by the bids and plays (``pool`` 0: unweighed; ``temper`` below 1 flattens the
    weights; ``prior``: the chance that a seat plays by the rules of thumb), valued by the
    totals they leave (``blend`` 0 values them as the knowledge does)."""

    game = "fumblaroo"

    def __init__(self, blend: float = BLEND, pool: int = POOL,
                 temper: float = TEMPER, prior: float = RULES_PRIOR) -> None:
        if not 0 <= blend <= 1:
            raise ValueError("blend is a weight in [0, 1]")
        if pool < 0:
            raise ValueError("the pool is a number of worlds, 0 or more")
        self.blend = blend
        self.pool = pool
        self.temper = check_temper(temper)
        self.prior = check_prior(prior)
        self._weighed: Recent[Weighed] = Recent()

    def candidates(self, p: Perspective) -> Sequence[int]:
        return range(len(p.legal))

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        if self.pool == 0:
            drawn = cast(FumblarooState, KNOWLEDGE.sample(p, rng))
        else:
            weighed = self._weighed.get(
                p, lambda p: Weighed(p, self.pool, self.temper, self.prior))
            drawn = weighed.draw(rng)
        return drawn if self.blend == 0 else with_standing(drawn, self.blend)


ADVICE = register_advice(FumblarooAdvice())

__all__ = ["ADVICE", "BLEND", "HAND_SPREAD", "PACE", "POOL", "TEMPER", "FumblarooAdvice",
           "StandingFumblaroo", "Weighed", "with_standing"]
