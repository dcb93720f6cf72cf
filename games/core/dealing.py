"""Dealing: one card at a time, clockwise from the dealer's left.

>>> from games.core.cards import Card
>>> stock = [Card(str(i), "", i) for i in range(7)]
>>> hands = [[], [], []]
>>> deal_round_robin(stock, hands, count=2, first=1)
>>> [[c.text for c in h] for h in hands], [c.text for c in stock]
([['2', '5'], ['0', '3'], ['1', '4']], ['6'])
"""

from __future__ import annotations

from collections.abc import MutableSequence

from games.core.cards import Card


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
