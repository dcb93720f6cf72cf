"""Fiasco's deal object: six cards to each hand, the rest the stock (``rules/fiasco.md``).

Record form: ``{"hands": [[cards] x players], "stock": [top first]}``. With ``suits: four``
(two players) the deal is of the four-suit deck the claims left, which is only known once
the suits are claimed: a deal is checked against it then (:func:`four_suit_shape` first).

>>> import random
>>> from games.fiasco.cards import FULL_DECK
>>> d = shuffle_deal(random.Random(1), FULL_DECK, players=3, dealer=0)
>>> [len(h) for h in d.hands], len(d.stock)
([6, 6, 6], 36)
>>> parse_deal(d.to_json(), "deal 1", players=3, suits="one") == d
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards import Card, Deck
from games.core.dealing import Hands, card_texts, deal_round_robin, hands_json, parse_hands
from games.core.errors import SetupError
from games.core.seats import left_of
from games.fiasco.cards import FULL_DECK, four_suit_deck

HAND_SIZE = 6


@dataclass(frozen=True, slots=True)
class FiascoDeal:
    """One deal: six cards to each hand, the rest the stock (top first)."""

    hands: Hands
    stock: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """This deal in record form."""
        return {"hands": hands_json(self.hands), "stock": card_texts(self.stock)}


def parse_deal(raw: Mapping[str, Any], where: str, *, players: int, suits: str) -> FiascoDeal:
    """The deal written in a record; :class:`SetupError` naming what is wrong."""
    if set(raw) != {"hands", "stock"}:
        raise SetupError(f"{where} must have exactly the keys hands and stock")
    hands = parse_hands(raw["hands"], FULL_DECK, players, where)
    if any(len(h) != HAND_SIZE for h in hands):
        raise SetupError(f"{where}: every hand must hold {HAND_SIZE} cards")
    stock = tuple(FULL_DECK.parse_list(raw["stock"], f"{where} stock"))
    cards = [*(c for h in hands for c in h), *stock]
    if suits == "four":
        four_suit_shape(cards, where)
    else:
        FULL_DECK.check_exactly(cards, where)
    return FiascoDeal(hands, stock)


def four_suit_shape(cards: list[Card], where: str) -> None:
    """Raise :class:`SetupError` unless ``cards`` is the ``suits: four`` deck for some pair
    of claims.

    Swords and Roses are always kept (claimed, or the first unclaimed), so a deal
    without them can be no game's deck, whatever the claims turn out to be.
    """
    suits = sorted({c.suit for c in cards if c.suit})
    if len(suits) != 4 or not {"S", "R"} <= set(suits):
        raise SetupError(f"{where} is not a four-suit deck (S, R and two more suits)")
    four_suit_deck(suits).check_exactly(cards, where)


def shuffle_deal(rng: random.Random, deck: Deck, *, players: int, dealer: int) -> FiascoDeal:
    """``deck`` shuffled from ``rng``, six cards each one at a time from the dealer's left."""
    cards = deck.shuffled(rng)
    hands: list[list[Card]] = [[] for _ in range(players)]
    deal_round_robin(cards, hands, count=HAND_SIZE, first=left_of(dealer, players))
    return FiascoDeal(tuple(map(tuple, hands)), tuple(cards))
