"""Scoring a round (``rules/fibonachos.md``, "Scoring").

A player's Spicy sum ``S`` scores itself, except that a Fibonacci sum scores the
next Fibonacci number and taking no Spicy card at all scores 34.

>>> [round_score(s) for s in (0, 1, 2, 3, 4, 5, 8, 13, 21, 30)]
[34, 2, 3, 5, 4, 8, 13, 21, 34, 30]
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card

NO_SPICY = 34
NEXT_FIBONACCI = {1: 2, 2: 3, 3: 5, 5: 8, 8: 13, 13: 21, 21: 34}


def round_score(spicy_sum: int) -> int:
    """The points a Spicy sum of ``spicy_sum`` is worth at the end of a round."""
    if spicy_sum == 0:
        return NO_SPICY
    return NEXT_FIBONACCI.get(spicy_sum, spicy_sum)


def spicy_sum(won: Sequence[Card]) -> int:
    """The value of the Spicy cards ``won``."""
    return sum(c.rank for c in won)
