"""Cards and decks as immutable values with the text form used in records.

Every game defines its deck once as a :class:`Deck`; a card is a small frozen
value whose ``text`` is its record notation (``S4``, ``K``, ``TD``). Cards that
print the same are the same card for every purpose (Fiasco's six Kings,
Fibonachos' two ``R1``), so a deck is a multiset.

>>> deck = Deck([Card("S4", "S", 4), Card("K", "", 9), Card("K", "", 9)])
>>> deck.parse("s4")
Card('S4')
>>> len(deck)
3
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from games.core.errors import SetupError, UnknownAction, clip


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its record text, its suit letter ('' when suitless) and its rank."""

    text: str
    suit: str
    rank: int

    def __post_init__(self) -> None:
        # Interned, so that a copy of a record (DealLog reads) shares its card texts with the
        # game instead of holding a string of its own for every card of every deal.
        object.__setattr__(self, "text", sys.intern(self.text))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    # Cards are immutable values: copying a game state shares them.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_STANDARD_RANKS = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_STANDARD_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
STANDARD_EMOJI = {"S": "♠️", "H": "♥️", "D": "♦️", "C": "♣️"}
FACE_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}
"""Ranks as people say them on a card (``10``, not the notation's ``T``)."""


def standard_card_label(card: Card) -> str:
    """A card of the standard deck as people read it: the suit's emoji, the rank as said.

    >>> standard_card_label(Card("TH", "H", 10)), standard_card_label(Card("QS", "S", 12))
    ('♥️10', '♠️Q')
    """
    return f"{STANDARD_EMOJI[card.suit]}{FACE_RANKS.get(card.rank, str(card.rank))}"


def standard_card_name(card: Card) -> str:
    """A card of the standard deck in words, for screen readers.

    >>> standard_card_name(Card("QH", "H", 12)), standard_card_name(Card("TD", "D", 10))
    ('Queen of hearts', '10 of diamonds')
    """
    rank = _STANDARD_RANKS.get(card.rank, str(card.rank))
    return f"{rank} of {_STANDARD_SUITS[card.suit]}"


class Deck:
    """A game's full deck (a multiset of cards) with the parser for its notation."""

    __slots__ = ("_by_text", "_counts", "_suits", "cards")

    def __init__(self, cards: Iterable[Card]) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        self._by_text: dict[str, Card] = {c.text.upper(): c for c in self.cards}
        self._counts: Counter[Card] = Counter(self.cards)
        self._suits: dict[str, int] | None = None

    def suit_order(self) -> Mapping[str, int]:
        """Each suit by its first appearance in the deck (suitless cards, "", in their place);
        worked out once per deck, since a hand is sorted by it card by card."""
        if self._suits is None:
            order: dict[str, int] = {}
            for card in self.cards:
                order.setdefault(card.suit, len(order))
            self._suits = order
        return self._suits

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def parse(self, text: str) -> Card:
        """The card written ``text`` (any ASCII case); :class:`UnknownAction` if there is none.

        Only ASCII is read: the long s (U+017F) upper-cases to S, but is no S.
        """
        card = self._by_text.get(text.strip().upper()) if text.isascii() else None
        if card is None:
            raise UnknownAction(f"there is no card {clip(text)} in this game")
        return card

    def parse_list(self, texts: object, where: str) -> list[Card]:
        """Parse a list of card texts from a record; :class:`SetupError` if it is not one."""
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise SetupError(f"{where} must be a list of card names")
        try:
            return [self.parse(t) for t in texts]
        except UnknownAction as exc:
            raise SetupError(f"{where}: {exc.message}") from None

    def without(self, removed: Iterable[Card]) -> Deck:
        """This deck less the given cards (each removed once)."""
        left = list(self.cards)
        for card in removed:
            left.remove(card)
        return Deck(left)

    def is_exactly(self, cards: Iterable[Card]) -> bool:
        """Whether ``cards`` is this deck exactly, counting duplicates."""
        return Counter(cards) == self._counts

    def check_exactly(self, cards: Sequence[Card], where: str) -> None:
        """Raise :class:`SetupError` naming the difference unless ``cards`` is the deck."""
        got = Counter(cards)
        if got == self._counts:
            return
        missing = sorted((self._counts - got).elements(), key=str)
        extra = sorted((got - self._counts).elements(), key=str)
        parts = []
        if missing:
            parts.append("missing " + " ".join(map(str, missing)))
        if extra:
            parts.append("extra " + " ".join(map(str, extra)))
        raise SetupError(f"{where} is not the deck: {', '.join(parts)}")

    def shuffled(self, rng: random.Random) -> list[Card]:
        """A new list of all the cards in a random order drawn from ``rng``."""
        cards = list(self.cards)
        rng.shuffle(cards)
        return cards
