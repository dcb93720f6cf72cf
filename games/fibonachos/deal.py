"""Fibonachos' deal object (``rules/fibonachos.md``, "Setup", "Two players", "Record").

With 3-5 players every Nacho card is dealt, ``51 // n`` each, and the remaining
``51 % n`` are set aside. With two players each gets a hand of 9 and a private
deck of 11, and 11 are set aside. The Spicy deck is shuffled on its own.

>>> [deal_sizes(n) for n in (2, 3, 4, 5)]
[(9, 11, 11), (17, 0, 0), (12, 0, 3), (10, 0, 1)]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards import Card
from games.core.dealing import Hands, card_texts, deal_round_robin, hands_json
from games.core.errors import SetupError
from games.core.seats import left_of
from games.fibonachos.cards import NACHO_DECK, SPICY_CARD, SPICY_DECK, SPICY_EACH, SPICY_VALUES

TWO_PLAYER_HAND = 9
TWO_PLAYER_DECK = 11


def deal_sizes(players: int) -> tuple[int, int, int]:
    """(hand, private deck, set aside) sizes for ``players``."""
    if players == 2:
        return TWO_PLAYER_HAND, TWO_PLAYER_DECK, len(NACHO_DECK) - 2 * (
            TWO_PLAYER_HAND + TWO_PLAYER_DECK
        )
    return len(NACHO_DECK) // players, 0, len(NACHO_DECK) % players


@dataclass(frozen=True, slots=True)
class FibonachosDeal:
    """One round's cards: hands, private decks (two players only, top first), the
    Spicy deck (top first) and the Nacho cards set aside."""

    hands: Hands
    spicy: tuple[Card, ...]
    aside: tuple[Card, ...]
    decks: Hands = ()

    def to_json(self) -> dict[str, Any]:
        """This deal in record form (Spicy cards as integers)."""
        out: dict[str, Any] = {
            "hands": hands_json(self.hands),
            "spicy": [c.rank for c in self.spicy],
            "aside": card_texts(self.aside),
        }
        if self.decks:
            out["decks"] = hands_json(self.decks)
        return out


def parse_deal(raw: Mapping[str, Any], players: int, where: str) -> FibonachosDeal:
    """A deal from a record; :class:`SetupError` unless it is exactly the cards."""
    keys = {"hands", "spicy", "aside"} | ({"decks"} if players == 2 else set())
    if set(raw) != keys:
        raise SetupError(f"{where} must have exactly the keys {', '.join(sorted(keys))}")
    hand_size, deck_size, aside_size = deal_sizes(players)
    hands = _parse_piles(raw["hands"], players, hand_size, f"{where} hand")
    decks = _parse_piles(raw["decks"], players, deck_size, f"{where} deck") if deck_size else ()
    aside = tuple(NACHO_DECK.parse_list(raw["aside"], f"{where} aside"))
    if len(aside) != aside_size:
        raise SetupError(f"{where}: aside must hold {aside_size} cards")
    NACHO_DECK.check_exactly([*(c for p in (*hands, *decks) for c in p), *aside], where)
    return FibonachosDeal(hands, _parse_spicy(raw["spicy"], where), aside, decks)


def _parse_piles(
    raw: object, players: int, size: int, where: str
) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(raw, list) or len(raw) != players:
        raise SetupError(f"{where}s must be a list of {players}")
    piles = tuple(tuple(NACHO_DECK.parse_list(p, f"{where} {i}")) for i, p in enumerate(raw))
    for i, pile in enumerate(piles):
        if len(pile) != size:
            raise SetupError(f"{where} {i} must hold {size} cards, not {len(pile)}")
    return piles


def _parse_spicy(raw: object, where: str) -> tuple[Card, ...]:
    wanted = Counter({v: SPICY_EACH for v in SPICY_VALUES})
    # ``True`` is an int to Python but not a Spicy value in a record.
    if (
        not isinstance(raw, list)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        or Counter(raw) != wanted
    ):
        raise SetupError(f"{where}: spicy must be five 1s, five 2s and five 3s")
    return tuple(SPICY_CARD[v] for v in raw)


def shuffle_deal(rng: random.Random, players: int, dealer: int) -> FibonachosDeal:
    """A deal shuffled from ``rng``, dealt one card at a time from the dealer's left."""
    hand_size, deck_size, _ = deal_sizes(players)
    stock = NACHO_DECK.shuffled(rng)
    first = left_of(dealer, players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    deal_round_robin(stock, hands, count=hand_size, first=first)
    decks: list[list[Card]] = [[] for _ in range(players)]
    if deck_size:
        deal_round_robin(stock, decks, count=deck_size, first=first)
    spicy = SPICY_DECK.shuffled(rng)
    return FibonachosDeal(
        hands=tuple(map(tuple, hands)),
        spicy=tuple(spicy),
        aside=tuple(stock),
        decks=tuple(map(tuple, decks)) if deck_size else (),
    )
