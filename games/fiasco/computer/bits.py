"""Fiasco's cards, hands and collections as small ints, for the search fast path.

* A card is an id: ``7 * suit + rank index`` for the 42 suit cards (suits in the
  order ``SRBTMH``, ranks 1, 2, 3, 4, 6, 7, 8), ``KING_ID`` (42), ``FIASCO_ID`` (43).
* A hand is one int: bit ``id`` for each suit card it holds, the number of Kings
  in the three bits from bit 42 and the number of Fiascos in those from bit 45, so
  playing any card is one subtraction of ``HAND_BIT[id]``.
* A collection is one int used as a stack of 6-bit codes ``id + 1``, newest in the
  low bits: a Fiasco's penalty is a right shift, and a shift past the bottom leaves
  ``0``, which is exactly "losses beyond the pile's size are dropped".

>>> from games.fiasco.cards import KING
>>> hand = hand_int([CARDS[3], KING, KING])
>>> hand_ids(hand), [str(CARDS[i]) for i in hand_ids(hand)]
((3, 42), ['S4', 'K'])
>>> stack_ids(stack_of([CARDS[0], KING]))
[42, 0]
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card
from games.fiasco.cards import FIASCO, KING, RANKS, SUITS

KING_ID = 42
FIASCO_ID = 43
KING_SHIFT = 42
FIASCO_SHIFT = 45
SUIT_BITS = (1 << 42) - 1

#: Every distinct card, indexed by id.
CARDS: tuple[Card, ...] = (
    *(Card(f"{s}{r}", s, r) for s in SUITS for r in RANKS),
    KING,
    FIASCO,
)
CARD_ID: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
RANK: tuple[int, ...] = tuple(c.rank for c in CARDS)
#: What playing a card subtracts from the hand's int (adding it deals the card).
HAND_BIT: tuple[int, ...] = (*(1 << i for i in range(42)), 1 << KING_SHIFT, 1 << FIASCO_SHIFT)
#: The bit of each card in a "collects" mask (one's own suits' cards and the King).
CARD_BIT: tuple[int, ...] = tuple(1 << i for i in range(44))
SUIT_MASK: tuple[int, ...] = tuple(((1 << 7) - 1) << (7 * s) for s in range(6))
#: Points of a collected card before bonuses: 2 for a suit card, 1 for a King.
WORTH: tuple[int, ...] = (*([2] * 42), 1, 0)


def hand_int(cards: Sequence[Card]) -> int:
    """The int encoding of a hand."""
    return sum(HAND_BIT[CARD_ID[c]] for c in cards)


#: Distinct card ids per hand int, remembered: searches meet the same hands again and
#: again. Emptied when full, so a long-running process keeps it bounded.
_IDS: dict[int, tuple[int, ...]] = {}
_IDS_LIMIT = 1 << 17


def hand_ids(hand: int) -> tuple[int, ...]:
    """The distinct card ids of a hand int, ascending: the legal plays in a fixed order."""
    ids = _IDS.get(hand)
    if ids is None:
        if len(_IDS) >= _IDS_LIMIT:
            _IDS.clear()
        ids = _IDS[hand] = tuple(_distinct_ids(hand))
    return ids


def _distinct_ids(hand: int) -> list[int]:
    out = []
    suit = hand & SUIT_BITS
    while suit:
        low = suit & -suit
        out.append(low.bit_length() - 1)
        suit ^= low
    if (hand >> KING_SHIFT) & 7:
        out.append(KING_ID)
    if hand >> FIASCO_SHIFT:
        out.append(FIASCO_ID)
    return out


def hand_cards(hand: int) -> list[int]:
    """Every card id of a hand int, repeats included (two Kings are two ids)."""
    kings = (hand >> KING_SHIFT) & 7
    fiascos = hand >> FIASCO_SHIFT
    suits = [c for c in _distinct_ids(hand) if c < KING_ID]
    return [*suits, *[KING_ID] * kings, *[FIASCO_ID] * fiascos]


def stack_of(cards: Sequence[Card]) -> int:
    """A collection pile (bottom first) as a stack int."""
    stack = 0
    for card in cards:
        stack = (stack << 6) | (CARD_ID[card] + 1)
    return stack


def stack_ids(stack: int) -> list[int]:
    """The card ids of a stack int, top (most recent) first."""
    out = []
    while stack:
        out.append((stack & 63) - 1)
        stack >>= 6
    return out


def collect_mask(suits: Sequence[int]) -> int:
    """The ``CARD_BIT`` mask of what a player with these suit indexes keeps from a pot."""
    mask = CARD_BIT[KING_ID]
    for s in suits:
        mask |= SUIT_MASK[s]
    return mask
