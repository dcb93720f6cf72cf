"""The end of a game: who won, and everyone's place.

>>> places([10, 30, 30, 5])
(3, 1, 1, 4)
>>> places([10, 30, 5], lower_is_better=True)
(2, 3, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: the winners (sorted) and each player's place (1 = best)."""

    winners: tuple[int, ...]
    places: tuple[int, ...]


def places(totals: Sequence[int], *, lower_is_better: bool = False) -> tuple[int, ...]:
    """Competition ranking of ``totals``: equal totals share a place."""
    sign = -1 if lower_is_better else 1
    return tuple(1 + sum(1 for other in totals if sign * other > sign * t) for t in totals)


def best_of(totals: Sequence[int], *, lower_is_better: bool = False) -> tuple[int, ...]:
    """The indexes holding the best total (all of them when tied)."""
    best = min(totals) if lower_is_better else max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)
