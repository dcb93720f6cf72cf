"""Ranking the hands shown at the end of a Fizzbin hand (``rules/fizzbin.md``).

>>> from games.fizzbin.cards import DECK
>>> def cards(text): return [DECK.parse(t) for t in text.split()]
>>> rank_hand(cards("KD 2H AS AH JS JH"), night=False).value
'royal'
>>> rank_hand(cards("KD 2H AS AH JS JH JD"), night=False).value
'shronk'
>>> rank_hand(cards("3S 5C 6S 8C 9S TC"), night=True).value
'three-quarters'
>>> judge([HandRank.HALF, HandRank.NOTHING, HandRank.NOTHING])
(0, None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import Enum

from games.core.cards import Card
from games.fizzbin.cards import ACE, JACK, is_red, special_ranks

PAIR_RANKS = frozenset({ACE, JACK, 7})
THREE_QUARTER_RANKS = (3, 5, 6, 8, 9, 10)


class HandRank(Enum):
    """A shown hand's rank; ``strength`` orders them, Royal Fizzbin best, Shronk worst."""

    ROYAL = "royal"
    FULL = "full"
    THREE_QUARTERS = "three-quarters"
    HALF = "half"
    NOTHING = "nothing"
    SHRONK = "shronk"

    @property
    def strength(self) -> int:
        return _STRENGTH[self]

    @property
    def title(self) -> str:
        """The hand's name in words ("Royal Fizzbin")."""
        return _TITLES[self]


_STRENGTH = {
    HandRank.ROYAL: 5,
    HandRank.FULL: 4,
    HandRank.THREE_QUARTERS: 3,
    HandRank.HALF: 2,
    HandRank.NOTHING: 1,
    HandRank.SHRONK: 0,
}
_TITLES = {
    HandRank.ROYAL: "Royal Fizzbin",
    HandRank.FULL: "Full Fizzbin",
    HandRank.THREE_QUARTERS: "Three-Quarters Fizzbin",
    HandRank.HALF: "Half Fizzbin",
    HandRank.NOTHING: "nothing",
    HandRank.SHRONK: "Shronk",
}


def rank_hand(cards: Iterable[Card], *, night: bool) -> HandRank:
    """The rank of a shown hand. Shronk (three or four of a kind) is checked first."""
    cards = list(cards)
    counts = Counter(c.rank for c in cards)
    if any(n >= 3 for n in counts.values()):
        return HandRank.SHRONK
    pairs = sum(1 for rank, n in counts.items() if n == 2 and rank in PAIR_RANKS)
    if all(counts[r] for r in special_ranks(night=night)):
        if pairs >= 2:
            return HandRank.ROYAL
        if pairs == 1:
            return HandRank.FULL
    colours = {c.rank for c in cards if is_red(c) != night}
    if all(r in colours for r in THREE_QUARTER_RANKS):
        return HandRank.THREE_QUARTERS
    if pairs:
        return HandRank.HALF
    return HandRank.NOTHING


def judge(ranks: Sequence[HandRank]) -> tuple[int | None, int | None]:
    """The hand's winner and loser (indexes into ``ranks``), each ``None`` when shared.

    The winner holds the one best hand, at least Half Fizzbin; the loser the one worst.
    """
    strengths = [r.strength for r in ranks]
    best, worst = max(strengths), min(strengths)
    top = [i for i, s in enumerate(strengths) if s == best]
    bottom = [i for i, s in enumerate(strengths) if s == worst]
    winner = top[0] if len(top) == 1 and best >= HandRank.HALF.strength else None
    loser = bottom[0] if len(bottom) == 1 else None
    return winner, loser
