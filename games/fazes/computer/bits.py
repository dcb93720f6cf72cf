"""Fazes' cards as small integers and hands as bitmasks, for the search fast path.

A card is ``colour * 13 + rank - 2`` with the colours in ``RYGB`` order, so red is 0
to 12 and, within one colour, a larger integer is a higher card. A hand is an ``int``
whose bit ``c`` is set when it holds card ``c``; a colour's 13 bits are its segment.

>>> CARDS[INDEX[FULL_DECK.parse("G2")]].text, INDEX[FULL_DECK.parse("Y14")]
('G2', 25)
>>> SEGMENT_CARDS[RED][0b101]
(0, 2)
>>> [CARDS[c].text for c in cards_of(mask_of([FULL_DECK.parse(t) for t in ("B9", "R3")]))]
['R3', 'B9']
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.actions import Action
from games.core.cards import Card
from games.fazes.cards import COLOURS, FULL_DECK, GREEN_TWO, RANKS
from games.fazes.game import FazesVerb
from games.fazes.scoring import card_points

RANK_COUNT = len(RANKS)  # 13
SEGMENT = (1 << RANK_COUNT) - 1  # one colour's bits
RED, YELLOW, GREEN, BLACK = range(4)  # colour indexes, in COLOURS order

CARDS: tuple[Card, ...] = tuple(
    FULL_DECK.parse(f"{colour}{rank}") for colour in COLOURS for rank in RANKS
)
INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
COLOUR_OF: tuple[int, ...] = tuple(i // RANK_COUNT for i in range(len(CARDS)))
SHIFT: tuple[int, ...] = tuple(k * RANK_COUNT for k in range(len(COLOURS)))
G2 = INDEX[GREEN_TWO]
PLAY_OF: tuple[Action, ...] = tuple(Action(FazesVerb.PLAY, card) for card in CARDS)


def _segment_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per colour, for every 13-bit segment, its cards in increasing order."""
    ranks: list[tuple[int, ...]] = [()]
    for seg in range(1, SEGMENT + 1):
        top = seg.bit_length() - 1
        ranks.append((*ranks[seg ^ (1 << top)], top))
    return tuple(
        tuple(tuple(r + SHIFT[k] for r in rs) for rs in ranks) for k in range(len(COLOURS))
    )


#: ``SEGMENT_CARDS[colour][segment]``: the cards of that colour a segment holds, lowest first.
SEGMENT_CARDS = _segment_tables()

#: ``POINTS[faze][card]``: what the card is worth to whoever takes it in that faze.
POINTS: dict[int, tuple[int, ...]] = {
    faze: tuple(card_points(faze, card) for card in CARDS) for faze in range(1, 7)
}
#: ``POINT_MASK[faze]``: the cards worth anything in that faze.
POINT_MASK: dict[int, int] = {
    faze: sum(1 << c for c, pts in enumerate(POINTS[faze]) if pts) for faze in POINTS
}


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << INDEX[card]
    return mask


def mask_of_ints(cards: Iterable[int]) -> int:
    """The bitmask of integer cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of ``mask``, in increasing order (colour by colour, low to high)."""
    return (
        SEGMENT_CARDS[RED][mask & SEGMENT]
        + SEGMENT_CARDS[YELLOW][(mask >> SHIFT[YELLOW]) & SEGMENT]
        + SEGMENT_CARDS[GREEN][(mask >> SHIFT[GREEN]) & SEGMENT]
        + SEGMENT_CARDS[BLACK][mask >> SHIFT[BLACK]]
    )


def colour_mask(colour: int) -> int:
    """Every card of ``colour``."""
    return SEGMENT << SHIFT[colour]


__all__ = [
    "BLACK",
    "CARDS",
    "COLOUR_OF",
    "G2",
    "GREEN",
    "INDEX",
    "PLAY_OF",
    "POINTS",
    "POINT_MASK",
    "RED",
    "SEGMENT",
    "SEGMENT_CARDS",
    "SHIFT",
    "YELLOW",
    "cards_of",
    "colour_mask",
    "mask_of",
    "mask_of_ints",
]
