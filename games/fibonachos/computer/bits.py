"""Fibonachos' cards as integers and hands as bitmasks, for the search fast path.

A Nacho card is an integer ``suit * 16 + rank - 1`` (0 to 47; Red 0-15, Yellow 16-31,
Green 32-47). A hand is a bitmask over those 48 cards plus three more bits (48-50) for
the second 1 of each suit, the only card a hand can hold twice: the second bit is set
only while the first is, and it goes first.

>>> hand = hand_mask([NACHO_DECK.parse(t) for t in ("R1", "R1", "Y7", "G13")])
>>> [CARD[c].text for c in hand_cards(hand)], [CARD[c].text for c in all_moves(hand)]
(['R1', 'R1', 'Y7', 'G13'], ['R1', 'Y7', 'G13'])
>>> [CARD[c].text for c in legal_moves(hand, [card_id(NACHO_DECK.parse("Y2"))])]
['Y7']
>>> CARD[legal_moves(remove_card(hand, 0), [])[0]].text
'R1'
>>> trick_winner([card_id(NACHO_DECK.parse(t)) for t in ("R16", "G13", "Y4", "R2")])
1
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card
from games.fibonachos.cards import FIBONACHOS, NACHO_DECK, SUITS
from games.fibonachos.scoring import NO_SPICY, round_score

RANKS_PER_SUIT = 16
DISTINCT = 3 * RANKS_PER_SUIT
MAX_SPICY_SUM = 30

#: The card of each integer, and each card's integer.
CARD: tuple[Card, ...] = tuple(
    NACHO_DECK.parse(f"{suit}{rank}") for suit in SUITS for rank in range(1, RANKS_PER_SUIT + 1)
)
CARD_ID: dict[Card, int] = {card: i for i, card in enumerate(CARD)}
SUIT: tuple[int, ...] = tuple(i // RANKS_PER_SUIT for i in range(DISTINCT))
RANK: tuple[int, ...] = tuple(i % RANKS_PER_SUIT + 1 for i in range(DISTINCT))
IS_FIB: tuple[bool, ...] = tuple(rank in FIBONACHOS for rank in RANK)
#: The bit of a card's second copy (the 1s only; 0 for every other card).
SECOND: tuple[int, ...] = tuple(
    1 << (DISTINCT + SUIT[i]) if RANK[i] == 1 else 0 for i in range(DISTINCT)
)
#: Each seat's round score by Spicy sum, over the best a round can give.
SCORE_SHARE: tuple[float, ...] = tuple(
    round_score(s) / NO_SPICY for s in range(MAX_SPICY_SUM + 1)
)

# The moves a byte of a hand's mask stands for: _BYTE_MOVES[k][b] for bits 8k..8k+7.
_BYTE_MOVES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(DISTINCT // 8)
)
_B0, _B1, _B2, _B3, _B4, _B5 = _BYTE_MOVES


def card_id(card: Card) -> int:
    """The integer of a Nacho card."""
    return CARD_ID[card]


def add_card(hand: int, card: int) -> int:
    """``hand`` with one more ``card`` (its second copy when it already holds one)."""
    bit = 1 << card
    return hand | (SECOND[card] if hand & bit else bit)


def remove_card(hand: int, card: int) -> int:
    """``hand`` with one ``card`` fewer (the second copy first)."""
    second = SECOND[card]
    return hand ^ second if hand & second else hand ^ (1 << card)


def hand_mask(cards: Sequence[Card]) -> int:
    """The bitmask of a hand of cards."""
    mask = 0
    for card in cards:
        mask = add_card(mask, CARD_ID[card])
    return mask


def hand_cards(hand: int) -> list[int]:
    """The cards of ``hand`` as integers, sorted, a doubled 1 twice."""
    cards = [c for c in range(DISTINCT) if hand >> c & 1]
    cards += [c for c in range(DISTINCT) if SECOND[c] and hand & SECOND[c]]
    return sorted(cards)


def suit_moves(hand: int, suit: int) -> tuple[int, ...]:
    """The distinct cards of ``suit`` in ``hand``, in order."""
    chunk = hand >> (suit * RANKS_PER_SUIT)
    low = _BYTE_MOVES[2 * suit][chunk & 0xFF]
    return low + _BYTE_MOVES[2 * suit + 1][chunk >> 8 & 0xFF]


def all_moves(hand: int) -> tuple[int, ...]:
    """The distinct cards of ``hand``, in order."""
    return (_B0[hand & 0xFF] + _B1[hand >> 8 & 0xFF] + _B2[hand >> 16 & 0xFF]
            + _B3[hand >> 24 & 0xFF] + _B4[hand >> 32 & 0xFF] + _B5[hand >> 40 & 0xFF])


def legal_moves(hand: int, trick: Sequence[int]) -> tuple[int, ...]:
    """What ``hand`` may play to ``trick``: the lead suit when it holds one, else anything."""
    if trick:
        follow = suit_moves(hand, SUIT[trick[0]])
        if follow:
            return follow
    return all_moves(hand)


def trick_winner(trick: Sequence[int]) -> int:
    """The index in ``trick`` (a full trick, in play order) of the winning card."""
    fib_count = 0
    for c in trick:
        fib_count += IS_FIB[c]
    best = 0
    if fib_count >= 2:
        best_rank = -1
        for i, c in enumerate(trick):
            if IS_FIB[c] and RANK[c] >= best_rank:  # equal: the last played wins
                best, best_rank = i, RANK[c]
        return best
    led = SUIT[trick[0]]
    best_rank = RANK[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        if SUIT[c] == led and RANK[c] > best_rank:
            best, best_rank = i, RANK[c]
    return best


__all__ = [
    "CARD",
    "IS_FIB",
    "RANK",
    "SCORE_SHARE",
    "SUIT",
    "add_card",
    "all_moves",
    "card_id",
    "hand_cards",
    "hand_mask",
    "legal_moves",
    "remove_card",
    "suit_moves",
    "trick_winner",
]
