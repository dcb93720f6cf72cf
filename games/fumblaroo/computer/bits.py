"""Fumblaroo's cards as integers and hands as bitmasks, for the search fast path.

A card is its index in :data:`~games.fumblaroo.cards.DECK` (0 to 26: spades, hearts,
diamonds, clubs, each 2, 9, T, J, Q, K, A, less the King of Clubs); a hand is a bitmask
of them. A suit is its index in ``SHDC``. Trump reorders the cards, so the tables are
per trump suit: the suit each card follows, and how strongly it plays in a trick.

>>> hand = hand_mask([DECK.parse(t) for t in ("2D", "9H", "AS")])
>>> [CARD[c].text for c in suit_moves(hand, trump=1, suit=1)]  # hearts trump: 2D follows
['9H', '2D']
>>> trick_winner([card_id(DECK.parse(t)) for t in ("AS", "2D", "KS")], trump=1)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card
from games.fumblaroo.cards import DECK, SUITS, effective_suit
from games.fumblaroo.tricks import trick_strength

CARD: tuple[Card, ...] = DECK.cards
CARD_ID: dict[Card, int] = {card: i for i, card in enumerate(CARD)}
COUNT = len(CARD)
SUIT: tuple[int, ...] = tuple(SUITS.index(c.suit) for c in CARD)
RANK: tuple[int, ...] = tuple(c.rank for c in CARD)

#: EFFECTIVE[trump][card]: the suit the card follows when ``trump`` is trump.
EFFECTIVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(SUITS.index(effective_suit(c, t)) for c in CARD) for t in SUITS
)
#: FOLLOWS[trump][suit]: the mask of the cards that follow ``suit`` under ``trump``.
FOLLOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << i for i in range(COUNT) if EFFECTIVE[t][i] == s) for s in range(4))
    for t in range(4)
)
#: STRENGTH[trump][led][card]: the card's strength in a trick (the greatest wins).
STRENGTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(trick_strength(c, t, led) for c in CARD) for led in SUITS) for t in SUITS
)

# The cards a byte of a mask stands for: _BYTE_CARDS[k][b] for bits 8k..8k+7.
_BYTE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1 and 8 * k + i < COUNT)
          for b in range(256))
    for k in range(4)
)
_B0, _B1, _B2, _B3 = _BYTE_CARDS


def card_id(card: Card) -> int:
    """The integer of a card."""
    return CARD_ID[card]


def hand_mask(cards: Sequence[Card]) -> int:
    """The bitmask of a hand."""
    mask = 0
    for card in cards:
        mask |= 1 << CARD_ID[card]
    return mask


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of ``mask``, in deck order."""
    return _B0[mask & 0xFF] + _B1[mask >> 8 & 0xFF] + _B2[mask >> 16 & 0xFF] + _B3[mask >> 24]


def suit_moves(hand: int, *, trump: int, suit: int) -> tuple[int, ...]:
    """The cards of ``hand`` that follow ``suit`` under ``trump`` (all of them if none)."""
    follow = hand & FOLLOWS[trump][suit]
    return cards_of(follow or hand)


def trick_winner(trick: Sequence[int], *, trump: int) -> int:
    """The index in ``trick`` (in play order) of the winning card."""
    strength = STRENGTH[trump][EFFECTIVE[trump][trick[0]]]
    best = 0
    for i in range(1, len(trick)):
        if strength[trick[i]] > strength[trick[best]]:
            best = i
    return best


__all__ = [
    "CARD",
    "CARD_ID",
    "COUNT",
    "EFFECTIVE",
    "FOLLOWS",
    "RANK",
    "STRENGTH",
    "SUIT",
    "card_id",
    "cards_of",
    "hand_mask",
    "suit_moves",
    "trick_winner",
]
