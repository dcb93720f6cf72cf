"""Valuing a playout by the game's standing: the place it leaves each seat in, not its points.

A game is won by the best total, so a playout's points are worth what they do to the
seat's place: 20 points to the leader are worth more than 20 to the last player, and
in the last deal only the place counts. :func:`place_values` turns the totals a playout
ends with into each seat's chance of finishing first: a logistic curve of its
``margin`` over the best total of the others, as wide as the deals still to play can
move it (a step in the last deal, nearly straight with many to go). A tie for first
wins for everyone in it, so a margin counts ``tie`` more than it is.

Used by the games whose search horizon is the end of a deal but whose winner is decided
by the totals over several (Fazes, Fibonachos): their advice wraps the knowledge's
worlds so that :meth:`values` blends this with the deal's own points.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from games.players.base import Perspective, SearchState, knowledge_for

#: The weight of the standing in a playout's value (the deal's own value has the rest).
BLEND = 0.75
#: The logistic curve's width in the last deal, as a share of the deal's point span.
LAST_WIDTH = 0.03
#: What one deal still to play can move a margin by, as a share of its point span.
DEAL_SPREAD = 0.25

World = TypeVar("World")


def place_values(totals: Sequence[float], *, width: float, lower_is_better: bool,
                 tie: float) -> list[float]:
    """Each seat's chance of finishing first from ``totals``, on a logistic of its margin.

    >>> [round(v, 2) for v in place_values([10, 20, 30], width=5, lower_is_better=True, tie=0)]
    [0.88, 0.12, 0.02]
    >>> [round(v, 2) for v in place_values([10, 10, 30], width=1, lower_is_better=True, tie=2)]
    [0.88, 0.88, 0.0]
    >>> [round(v, 2) for v in place_values([10, 20], width=5, lower_is_better=False, tie=0)]
    [0.12, 0.88]
    """
    if width <= 0:
        raise ValueError(f"the width must be positive, not {width}")
    # Margins measured upwards, whichever way the game counts: the best is the largest.
    ups = [-t for t in totals] if lower_is_better else list(totals)
    first = max(ups)
    second = max((u for u in ups if u != first), default=first) if ups.count(first) == 1 \
        else first
    out = []
    for up in ups:
        z = (up - (second if up == first else first) + tie) / width
        out.append(1.0 / (1.0 + math.exp(-z)) if z > -40 else 0.0)
    return out


def valued(standing: Standing, totals: Sequence[float], own: Sequence[float], *,
           lower_is_better: bool, tie: float) -> list[float]:
    """A playout's value for each seat: its place from ``totals`` (:func:`place_values`)
    blended with the deal's ``own`` value by ``standing.blend``.

    >>> v = valued(Standing((), 5.0, 0.75), [10, 20], [1.0, 0.0], lower_is_better=True, tie=0)
    >>> [round(x, 2) for x in v]
    [0.91, 0.09]
    """
    place = place_values(totals, width=standing.width, lower_is_better=lower_is_better, tie=tie)
    b = standing.blend
    return [b * w + (1 - b) * v for w, v in zip(place, own, strict=True)]


def spread(spans: Sequence[float]) -> float:
    """How far the deals of ``spans`` still to play can move a margin: their root sum of
    squares.

    >>> spread([3, 4])
    5.0
    """
    return math.sqrt(sum(x * x for x in spans))


@dataclass(frozen=True, slots=True)
class Standing:
    """The game around the deal under way, shared by every copy of a world."""

    totals: tuple[int, ...]  # each seat's points before this deal
    width: float  # the logistic curve's width, in points
    blend: float  # the weight of the place in a playout's value


def adopt(world: Any, cls: type[World]) -> World:
    """``world``'s parts in a new ``cls`` (a subclass of its class that adds slots),
    shared, not copied: for a freshly sampled world that nothing else holds."""
    new = object.__new__(cls)
    for name in type(world).__slots__:
        setattr(new, name, getattr(world, name))
    return new


class StandingAdvice:
    """An :class:`~games.players.advice.Advice` whose worlds are the knowledge's, every
    legal move a candidate, and playouts valued by the standing. A game's subclass says
    how to read the standing from a perspective (:meth:`read`) and how to make a world
    value by it (:meth:`wrap`); ``blend`` 0 leaves the knowledge's values."""

    game: str

    def __init__(self, blend: float = BLEND, last_width: float = LAST_WIDTH,
                 deal_spread: float = DEAL_SPREAD) -> None:
        if not 0 <= blend <= 1 or last_width <= 0 or deal_spread < 0:
            raise ValueError("blend is a weight in [0, 1]; the widths must be positive")
        self.blend = blend
        self.last_width = last_width
        self.deal_spread = deal_spread
        self._standing: tuple[Perspective, Standing] | None = None

    def read(self, p: Perspective) -> Standing:
        """The standing ``p``'s seat sees."""
        raise NotImplementedError

    def wrap(self, world: Any, standing: Standing) -> SearchState:
        """``world`` valued by ``standing``."""
        raise NotImplementedError

    def candidates(self, p: Perspective) -> Sequence[int]:
        return range(len(p.legal))

    def standing(self, p: Perspective) -> Standing:
        """:meth:`read`, once per perspective (a search samples many worlds from one)."""
        cached = self._standing  # read once: a search in a thread may replace it
        if cached is None or cached[0] is not p:
            cached = (p, self.read(p))
            self._standing = cached
        return cached[1]

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        know = knowledge_for(self.game)
        assert know is not None, f"{self.game} has no knowledge"
        world = know.sample(p, rng)
        return world if self.blend == 0 else self.wrap(world, self.standing(p))


__all__ = ["BLEND", "DEAL_SPREAD", "LAST_WIDTH", "Standing", "StandingAdvice", "adopt",
           "place_values", "spread", "valued"]
