"""Who wins a trick of Fibonachos (``rules/fibonachos.md``, "A trick").

Two or more Fibonachos in the finished trick activate trump: the highest
Fibonacho wins whatever its suit, equal ones going to the one played last.
Otherwise the highest card of the lead suit (the first card's) wins.

>>> from games.fibonachos.cards import NACHO_DECK
>>> def plays(*texts):
...     return [(i, NACHO_DECK.parse(t)) for i, t in enumerate(texts)]
>>> trick_winner(plays("R1", "R16", "G13"))
(2, Card('G13'))
>>> trick_winner(plays("R4", "R16", "G13"))
(1, Card('R16'))
>>> trick_winner(plays("R1", "R1", "R4"))
(1, Card('R1'))
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card
from games.core.tricks import Play, winning_play
from games.fibonachos.cards import is_fibonacho

TRUMP_AT = 2


def trump_active(plays: Sequence[Play]) -> bool:
    """Whether the trick holds enough Fibonachos (any suits, the lead included)."""
    return sum(1 for _, card in plays if is_fibonacho(card)) >= TRUMP_AT


def trick_winner(plays: Sequence[Play]) -> Play:
    """The winning (seat, card) of a finished trick, ``plays`` in play order."""
    if trump_active(plays):
        fibonachos = [play for play in plays if is_fibonacho(play[1])]
        return winning_play(fibonachos, _rank, last_wins_ties=True)
    led = plays[0][1].suit
    return winning_play(plays, lambda card: card.rank if card.suit == led else -1)


def _rank(card: Card) -> int:
    return card.rank
