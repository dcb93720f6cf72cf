"""Dealing, one card at a time clockwise from the dealer's left, and deals in record form.

>>> from games.core.cards import Card, Deck
>>> stock = [Card(str(i), "", i) for i in range(7)]
>>> hands = [[], [], []]
>>> deal_round_robin(stock, hands, count=2, first=1)
>>> hands_json(hands), card_texts(stock)
([['2', '5'], ['0', '3'], ['1', '4']], ['6'])
>>> parse_hands([["2", "5"], ["0"]], Deck(stock + [c for h in hands for c in h]), 2, "deal 1")
((Card('2'), Card('5')), (Card('0'),))
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import Any, Protocol

from games.core.cards import Card, Deck
from games.core.errors import SetupError

Hands = tuple[tuple[Card, ...], ...]


class Deal(Protocol):
    """A game's deal object: immutable, and written in a record as :meth:`to_json` says."""

    def to_json(self) -> dict[str, Any]:
        """This deal in record form (``docs/rules/README.md``, each game's "Record")."""
        ...


def deal_round_robin(
    stock: MutableSequence[Card],
    hands: list[list[Card]],
    *,
    count: int,
    first: int,
) -> None:
    """Deal ``count`` cards to each hand from the top of ``stock`` (index 0).

    One card at a time, starting with seat ``first`` and going clockwise. The
    dealt cards leave ``stock``.
    """
    n = len(hands)
    total = count * n
    if total > len(stock):
        raise ValueError(f"cannot deal {count} each to {n} from {len(stock)} cards")
    for i in range(total):
        hands[(first + i) % n].append(stock[i])
    del stock[:total]


def parse_hands(raw: object, deck: Deck, players: int, where: str) -> Hands:
    """A record's ``hands``: a list of ``players`` lists of ``deck``'s card names, in order.

    :class:`SetupError` naming the deal (``where``) and the hand when it is not one; how
    many cards a hand must hold is each game's own rule.
    """
    if not isinstance(raw, list) or len(raw) != players:
        raise SetupError(f"{where}: hands must be a list of {players} hands")
    return tuple(tuple(deck.parse_list(hand, f"{where} hand {i}")) for i, hand in enumerate(raw))


def card_texts(cards: Iterable[Card]) -> list[str]:
    """``cards`` in record form: their names, in order."""
    return [card.text for card in cards]


def hands_json(hands: Iterable[Iterable[Card]]) -> list[list[str]]:
    """Hands (or any piles) in record form: a list of card names per hand."""
    return [card_texts(hand) for hand in hands]
