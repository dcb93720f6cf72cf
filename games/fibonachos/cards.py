"""Fibonachos' cards: 51 Nacho cards in three suits and 15 Spicy cards.

The Nacho cards are Red ``R``, Yellow ``Y`` and Green ``G``, each holding 1, 1, 2,
..., 16; the two 1s of a suit are the same card. Spicy cards are not Nacho
cards: they are written as their value (``1``, ``2``, ``3``) and live in zones of
their own, so they are suitless :class:`Card` s here too.

>>> len(NACHO_DECK), NACHO_DECK.cards.count(NACHO_DECK.parse("r1"))
(51, 2)
>>> sorted({c.rank for c in NACHO_DECK if is_fibonacho(c)})
[1, 2, 3, 5, 8, 13]
>>> [c.text for c in SPICY_DECK][:6], sum(c.rank for c in SPICY_DECK)
(['1', '1', '1', '1', '1', '2'], 30)
>>> len(IN_PLAY)
66
"""

from __future__ import annotations

from games.core.cards import Card, Deck

SUITS = "RYG"
SUIT_NAMES = {"R": "Red", "Y": "Yellow", "G": "Green"}
RANKS = (1, 1, *range(2, 17))
FIBONACHOS = frozenset({1, 2, 3, 5, 8, 13})

SPICY_VALUES = (1, 2, 3)
SPICY_EACH = 5
SPICY_CARD = {value: Card(str(value), "", value) for value in SPICY_VALUES}


def suit_cards(suit: str) -> list[Card]:
    """The 17 cards of ``suit``, two 1s included."""
    return [Card(f"{suit}{rank}", suit, rank) for rank in RANKS]


def is_fibonacho(card: Card) -> bool:
    """Whether ``card`` is a Fibonacho (1, 2, 3, 5, 8 or 13 of any suit)."""
    return card.rank in FIBONACHOS


SUIT_EMOJI = {"R": "🟥", "Y": "🟨", "G": "🟩"}
SPICY_EMOJI = "🌶️"


def card_name(card: Card) -> str:
    """A card in words: ``Red 13``, ``Spicy 2``."""
    return f"{SUIT_NAMES[card.suit]} {card.rank}" if card.suit else f"Spicy {card.rank}"


def card_label(card: Card) -> str:
    """A card as people read it: ``🟥13``, a Spicy card ``🌶️2``."""
    return f"{SUIT_EMOJI[card.suit]}{card.rank}" if card.suit else f"{SPICY_EMOJI}{card.rank}"


NACHO_DECK = Deck(card for suit in SUITS for card in suit_cards(suit))
SPICY_DECK = Deck(SPICY_CARD[v] for v in SPICY_VALUES for _ in range(SPICY_EACH))
IN_PLAY = Deck([*NACHO_DECK.cards, *SPICY_DECK.cards])
