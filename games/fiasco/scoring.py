"""Scoring a Counting Round (``rules/fiasco.md``, "Scoring").

>>> from games.fiasco.cards import KING, suit_cards
>>> score_collection(suit_cards("S") + [KING] * 6, ["S"])
30
>>> score_collection(suit_cards("S")[:3] + [KING], ["S", "R"])
7
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card

SUIT_SIZE = 7
ALL_SUIT_BONUS = 20
KINGS = 6
ALL_KINGS_BONUS = 10


def score_collection(collection: Sequence[Card], suits: Sequence[str]) -> int:
    """Two points per card of one's own suits (20 for all seven of a suit), one per King
    (10 for all six)."""
    total = 0
    for suit in suits:
        count = sum(1 for c in collection if c.suit == suit)
        total += ALL_SUIT_BONUS if count == SUIT_SIZE else 2 * count
    kings = sum(1 for c in collection if c.text == "K")
    total += ALL_KINGS_BONUS if kings == KINGS else kings
    return total
