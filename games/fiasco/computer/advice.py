"""What Fiasco teaches the hard level's search beyond the knowledge.

* **Claims are not searched** when every suit stays in the deck (six suits, or
  ``double``): the suits are alike then, so the first is as good as any, and the
  budget is not spent on telling equals apart. With ``suits: four`` the claims decide
  the deck and are searched.
* **More weighed worlds.** The knowledge weighs a pool of uniform worlds by how well
  they explain the other players' plays (:mod:`games.fiasco.computer.inference`) and
  draws from it by weight; a larger pool (``pool``) keeps more distinct worlds in the
  draw when the weights are uneven.
* **Its own future moves played sharply** (``sharp``): in a playout the other seats
  play the easy rules of thumb with their noise (as easy players do), while the
  searching seat plays them without noise, closer to how it will really play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Self, cast

from games.fiasco.computer.fast import PLAYING, FiascoState
from games.fiasco.computer.knowledge import KNOWLEDGE, Worlds, claims_of
from games.fiasco.computer.thumb import choose
from games.fiasco.game import FiascoVerb
from games.fiasco.options import FiascoOptions
from games.players.advice import register_advice
from games.players.base import Perspective, SearchState
from games.players.weighed import Recent, check_temper

#: Uniform worlds weighed per perspective (the knowledge weighs 256).
POOL = 256
#: Whether the searching seat's own moves in a playout are the rules of thumb without noise.
SHARP = False
#: The power the pool's weights are raised to before drawing (1: as they are).
TEMPER = 1.0


class FiascoAdvice:
    """Fiasco's :class:`~games.players.advice.Advice` (``temper`` below 1 flattens the
    pool's weights)."""

    game = "fiasco"

    def __init__(self, pool: int = POOL, sharp: bool = SHARP, temper: float = TEMPER) -> None:
        self.pool = pool
        self.sharp = sharp
        self.temper = check_temper(temper)
        self._worlds: Recent[Worlds] = Recent()

    def candidates(self, p: Perspective) -> Sequence[int]:
        if p.legal[0].verb == FiascoVerb.CHOOSE and cast(FiascoOptions, p.options).suits != "four":
            return [0]
        return range(len(p.legal))

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        if p.view.over or p.view.to_act is None or p.legal[0].verb == FiascoVerb.CHOOSE:
            return KNOWLEDGE.sample(p, rng)
        worlds = self._worlds.get(p, lambda p: Worlds(p, claims_of(p), self.pool, self.temper))
        world = worlds.draw(rng)
        return sharpened(world, p.seat) if self.sharp else world


class SharpFiasco(FiascoState):
    """A world whose ``sharp`` seat plays the rules of thumb without noise in playouts."""

    __slots__ = ("sharp",)

    sharp: int

    def copy(self) -> Self:
        new = super().copy()
        new.sharp = self.sharp
        return new

    def rollout_move(self, rng: random.Random) -> int:
        p = self.turn
        if p != self.sharp or self.phase != PLAYING:
            return super().rollout_move(rng)
        return choose(
            hand=self.hands[p], pot=self.pot, top=self.top,
            top_mine=self.top_player >= 0 and self.team_of[self.top_player] == self.team_of[p],
            after=self.players - self.played - 1, coll=self.colls[p],
            collects=self.collects[p], rng=rng, noise=0.0,
        )


def sharpened(world: FiascoState, seat: int) -> SharpFiasco:
    """``world`` as a :class:`SharpFiasco` whose ``seat`` plays without noise."""
    new = object.__new__(SharpFiasco)
    for name in FiascoState.__slots__:
        setattr(new, name, getattr(world, name))
    new.hands = world.hands[:]
    new.pot = world.pot[:]
    new.colls = world.colls[:]
    new.sharp = seat
    return new


ADVICE = register_advice(FiascoAdvice())

__all__ = ["ADVICE", "POOL", "SHARP", "TEMPER", "FiascoAdvice", "SharpFiasco", "sharpened"]
