"""What Fiasco teaches the hard level's search beyond the knowledge.

* **Claims are not searched** when every suit stays in the deck (six suits, or
  ``double``): the suits are alike then, so the first is as good as any, and the
  budget is not spent on telling equals apart. With ``suits: four`` the claims decide
  the deck and are searched.
* **More weighed worlds.** The knowledge weighs a pool of uniform worlds by how well
  they explain the other players' plays (:mod:`games.fiasco.computer.inference`) and
  draws from it by weight; a larger pool (``pool``) keeps more distinct worlds in the
  draw when the weights are uneven.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from games.fiasco.computer.knowledge import KNOWLEDGE, Worlds, claims_of
from games.fiasco.game import FiascoVerb
from games.fiasco.options import FiascoOptions
from games.players.advice import register_advice
from games.players.base import Perspective, SearchState
from games.players.weighed import Recent, check_temper

#: Uniform worlds weighed per perspective (the knowledge weighs 256).
POOL = 256
#: The power the pool's weights are raised to before drawing (1: as they are).
TEMPER = 1.0


class FiascoAdvice:
    """Fiasco's :class:`~games.players.advice.Advice` (``temper`` below 1 flattens the
    pool's weights)."""

    game = "fiasco"

    def __init__(self, pool: int = POOL, temper: float = TEMPER) -> None:
        self.pool = pool
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
        return worlds.draw(rng)


ADVICE = register_advice(FiascoAdvice())

__all__ = ["ADVICE", "POOL", "TEMPER", "FiascoAdvice"]
