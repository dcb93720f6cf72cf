"""Fizzbin's 52 cards and which ranks are special or forced by day and by night.

>>> DECK.parse("th")
Card('TH')
>>> sorted(RANK_NAMES[r] for r in special_ranks(night=True))
['4', 'Q']
>>> is_forced(DECK.parse("KC"), night=True), is_special(DECK.parse("KC"), night=False)
(True, True)
"""

from __future__ import annotations

from games.core.cards import Card, Deck

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED = frozenset("HD")
RANK_NAMES = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7",
              8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K"}
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

DECK = Deck([Card(f"{name}{suit}", suit, rank)
             for suit in SUITS for rank, name in RANK_NAMES.items()])

_DAY_SPECIAL = frozenset({KING, 2})
_NIGHT_SPECIAL = frozenset({QUEEN, 4})


def special_ranks(*, night: bool) -> frozenset[int]:
    """The ranks that let the drawer draw again: K and 2 by day, Q and 4 by night."""
    return _NIGHT_SPECIAL if night else _DAY_SPECIAL


def forced_ranks(*, night: bool) -> frozenset[int]:
    """The ranks that go at once onto the drawer's own pile: the other time's special ones."""
    return _DAY_SPECIAL if night else _NIGHT_SPECIAL


def is_special(card: Card, *, night: bool) -> bool:
    """Whether drawing ``card`` lets the drawer draw again."""
    return card.rank in special_ranks(night=night)


def is_forced(card: Card, *, night: bool) -> bool:
    """Whether ``card``, once drawn, must go onto the drawer's own pile."""
    return card.rank in forced_ranks(night=night)


def is_red(card: Card) -> bool:
    """Hearts and diamonds are red."""
    return card.suit in RED
