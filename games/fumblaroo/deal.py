"""Fumblaroo's deal object: five cards to each of three hands, twelve to the Kingdom.

>>> import random
>>> d = shuffle_deal(random.Random(1), dealer=2)
>>> [len(h) for h in d.hands], len(d.kingdom)
([5, 5, 5], 12)
>>> parse_deal(d.to_json(), "deal 1") == d
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards import Card
from games.core.dealing import Hands, card_texts, deal_round_robin, hands_json, parse_hands
from games.core.errors import SetupError
from games.core.seats import left_of
from games.fumblaroo.cards import DECK

PLAYERS = 3
HAND_SIZE = 5
KINGDOM_SIZE = 12
KEYS = frozenset({"hands", "kingdom"})


@dataclass(frozen=True, slots=True)
class FumblarooDeal:
    """One deal: the three hands and the Kingdom, top card (the up-card) first."""

    hands: Hands
    kingdom: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """This deal in record form."""
        return {"hands": hands_json(self.hands), "kingdom": card_texts(self.kingdom)}


def parse_deal(raw: Mapping[str, Any], where: str) -> FumblarooDeal:
    """The deal written in a record; :class:`SetupError` naming what is wrong."""
    if set(raw) != KEYS:
        raise SetupError(f"{where} must have exactly the keys hands and kingdom")
    hands = parse_hands(raw["hands"], DECK, PLAYERS, where)
    for i, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise SetupError(f"{where} hand {i} must hold {HAND_SIZE} cards, not {len(hand)}")
    kingdom = tuple(DECK.parse_list(raw["kingdom"], f"{where} kingdom"))
    if len(kingdom) != KINGDOM_SIZE:
        raise SetupError(f"{where}: the kingdom must hold {KINGDOM_SIZE} cards, not {len(kingdom)}")
    DECK.check_exactly([*(c for h in hands for c in h), *kingdom], where)
    return FumblarooDeal(hands, kingdom)


def shuffle_deal(rng: random.Random, *, dealer: int) -> FumblarooDeal:
    """A deal shuffled from ``rng``, dealt one at a time from the dealer's left."""
    cards = DECK.shuffled(rng)
    hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
    deal_round_robin(cards, hands, count=HAND_SIZE, first=left_of(dealer, PLAYERS))
    return FumblarooDeal(tuple(map(tuple, hands)), tuple(cards))
