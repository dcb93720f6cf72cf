"""Who wins a trick of Fumblaroo (``rules/fumblaroo.md``, "Tricks").

Any trump beats any card of the led suit, and a card of neither never wins. In trump
the 2 is highest and the 2 of the other suit of trump's colour belongs to trump, just
below it (:func:`games.fumblaroo.cards.trump_rank`).

>>> from games.fumblaroo.cards import DECK
>>> [c.text for c in sorted(DECK.cards, key=lambda c: trick_strength(c, "H", "S"))][-4:]
['KH', 'AH', '2D', '2H']
>>> trick_winner([(0, DECK.parse("AS")), (1, DECK.parse("9H")), (2, DECK.parse("2S"))], "H")
(1, Card('9H'))
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card
from games.core.tricks import Play, winning_play
from games.fumblaroo.cards import effective_suit, trump_rank

TRUMP_BASE = 100  # any trump beats any card of the led suit
OFF_SUIT = -1  # neither trump nor the led suit: never wins


def trick_strength(card: Card, trump: str, led: str) -> int:
    """How strongly ``card`` plays in a trick led in ``led``; the greatest wins."""
    suit = effective_suit(card, trump)
    if suit == trump:
        return TRUMP_BASE + trump_rank(card, trump)
    if suit == led:
        return card.rank
    return OFF_SUIT


def trick_winner(plays: Sequence[Play], trump: str) -> Play:
    """The winning (seat, card) of a finished trick, ``plays`` in play order; the led suit
    is the first card's, as trump makes it."""
    led = effective_suit(plays[0][1], trump)
    return winning_play(plays, lambda card: trick_strength(card, trump, led))
