"""What Fazes teaches the hard level's search beyond the knowledge: play for the game.

The knowledge's playouts value a faze by the seat's own points in it (scaled to
[0, 1]), whatever the others score and whatever the game's standing: a search on those
values keeps its own points low and does not mind who takes the rest. But the game is
won by the lowest total, so 20 points to the leader are worth more than 20 to the last
player, and in the last faze only the place counts: a seat two points ahead should
take any risk that keeps it ahead, and a seat behind must make the leader take points.

:class:`StandingFazes` values the end of the faze by the game's standing instead: each
seat's total so far plus the faze's points, against the best total of the others
(``margin``), through a logistic curve whose width is what the fazes still to play can
change (nearly a step in the last faze, nearly straight with five to go), blended with
the faze's own points (``blend``: the weight of the standing). How far each faze still to
play moves a margin is a quarter of its point span (``deal_spread``).

The worlds are weighed by how well they explain the other players' plays
(:mod:`games.fazes.computer.inference`; ``prior``: the chance, before anything is read,
that a seat plays by the rules of thumb): a pool of ``pool`` of the knowledge's worlds,
drawn from by weight. The candidates and the rollouts are the knowledge's.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Self, cast

from games.fazes.computer.fast import _RULES, FastFazes
from games.fazes.computer.inference import clues, weight
from games.fazes.computer.knowledge import Seen, deal_unseen, faze_plays, seen, world
from games.fazes.options import FazesOptions
from games.players.advice import register_advice
from games.players.base import Perspective, SearchState
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
from games.players.weighed import RULES_PRIOR, PooledWorlds, Recent, check_prior, check_temper

#: A tie for the lowest total wins for everyone in it: margins count as this much more.
TIE = 2.5
#: The knowledge's worlds weighed per perspective (0: draw them unweighed).
POOL = 256
#: The power the pool's weights are raised to before drawing (1: as they are).
TEMPER = 1.0


def standing_of(p: Perspective, *, blend: float = BLEND, last_width: float = LAST_WIDTH,
                faze_spread: float = DEAL_SPREAD) -> Standing:
    """The standing ``p``'s seat sees: the totals so far and the width of the curve.

    The width is a sliver of this faze's span (``last_width``) and what the fazes still
    to play can move a margin: ``faze_spread`` of each one's span.

    >>> import games
    >>> from games.players import perspective
    >>> game = games.new_game("fazes", 4, {"fazes": [1, 3]}, seed=1)
    >>> s = standing_of(perspective(game, game.to_act))
    >>> s.totals, round(s.width, 2)
    ((0, 0, 0, 0), 34.45)
    """
    n = p.players
    fazes = cast(FazesOptions, p.options).fazes
    played = len(p.rounds)
    totals = tuple(sum(r[q] for r in p.rounds) for q in range(n))
    span = _RULES[(n, fazes[played])].span
    to_come = fazes[played + 1:]
    width = last_width * span + spread([_RULES[(n, f)].span * faze_spread for f in to_come])
    return Standing(totals, width, blend)


class StandingFazes(FastFazes):
    """A faze whose :meth:`values` weigh the game's standing (see the module docstring)."""

    __slots__ = ("standing",)

    standing: Standing

    def copy(self) -> Self:
        new = super().copy()
        new.standing = self.standing
        return new

    def values(self) -> list[float]:
        own = super().values()
        s = self.standing
        points = self.final or self.pts
        totals = [t + q for t, q in zip(s.totals, points, strict=True)]
        return valued(s, totals, own, lower_is_better=True, tie=TIE)


def with_standing(world: FastFazes, standing: Standing) -> StandingFazes:
    """``world`` as a :class:`StandingFazes` (a fresh sample: its parts are taken over)."""
    new = adopt(world, StandingFazes)
    new.standing = standing
    return new


class Weighed(PooledWorlds[list[int], FastFazes]):
    """A pool of the knowledge's worlds for one perspective, weighed by the other seats'
    plays, to draw from by weight (uniformly, and afresh, when nobody else has played)."""

    def __init__(self, p: Perspective, size: int, temper: float = TEMPER,
                 prior: float = RULES_PRIOR) -> None:
        self.seen: Seen = seen(p)
        faze = self.seen.faze
        found = clues(p, faze, faze_plays(p))
        super().__init__(p, size, deal=partial(deal_unseen, self.seen),
                         make=partial(world, self.seen),
                         weigh=(lambda hands: weight(found, hands, faze, prior)) if found else None,
                         temper=temper)


class FazesAdvice(StandingAdvice):
    """Fazes' :class:`~games.players.advice.Advice`: the knowledge's worlds weighed by the
    plays (``pool`` 0: unweighed; ``temper`` below 1 flattens the weights; ``prior``: the
    chance that a seat plays by the rules of thumb), valued by the standing (``blend`` 0
    values them as the knowledge does)."""

    game = "fazes"

    def __init__(self, blend: float = BLEND, last_width: float = LAST_WIDTH,
                 deal_spread: float = DEAL_SPREAD, pool: int = POOL,
                 temper: float = TEMPER, prior: float = RULES_PRIOR) -> None:
        super().__init__(blend, last_width, deal_spread)
        if pool < 0:
            raise ValueError("the pool is a number of worlds, 0 or more")
        self.pool = pool
        self.temper = check_temper(temper)
        self.prior = check_prior(prior)
        self._weighed: Recent[Weighed] = Recent()

    def read(self, p: Perspective) -> Standing:
        return standing_of(p, blend=self.blend, last_width=self.last_width,
                           faze_spread=self.deal_spread)

    def wrap(self, world: Any, standing: Standing) -> StandingFazes:
        return with_standing(world, standing)

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        if self.pool == 0:
            return super().sample(p, rng)
        weighed = self._weighed.get(
            p, lambda p: Weighed(p, self.pool, self.temper, self.prior))
        drawn = weighed.draw(rng)
        return drawn if self.blend == 0 else self.wrap(drawn, self.standing(p))


ADVICE = register_advice(FazesAdvice())

__all__ = ["ADVICE", "POOL", "TEMPER", "TIE", "FazesAdvice",
           "StandingFazes", "Weighed", "standing_of", "with_standing"]
