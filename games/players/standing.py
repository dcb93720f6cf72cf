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
from collections.abc import Sequence


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


def spread(spans: Sequence[float]) -> float:
    """How far the deals of ``spans`` still to play can move a margin: their root sum of
    squares.

    >>> spread([3, 4])
    5.0
    """
    return math.sqrt(sum(x * x for x in spans))


__all__ = ["place_values", "spread"]
