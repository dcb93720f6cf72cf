"""Fumblaroo's 27 cards and how trump reorders them (``rules/fumblaroo.md``, "Cards").

Ranks 2, 9, 10, J, Q, K, A in spades, hearts, diamonds and clubs, less the King
of Clubs. In a plain suit the 2 is lowest; in trump it is highest, and the 2 of
the other suit of trump's colour (spades-clubs, hearts-diamonds) belongs to
trump, just below it.

>>> len(DECK), DECK.parse("td"), DECK.parse("2C").rank
(27, Card('TD'), 2)
>>> effective_suit(DECK.parse("2D"), "H"), effective_suit(DECK.parse("2D"), "S")
('H', 'D')
>>> [trump_rank(DECK.parse(t), "H") for t in ("9H", "AH", "2D", "2H")]
[9, 14, 15, 16]

Who wins a trick with them is :mod:`games.fumblaroo.tricks`.
"""

from __future__ import annotations

from games.core.cards import Card, Deck

SUITS = "SHDC"
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RANKS = (2, 9, 10, 11, 12, 13, 14)
RANK_TEXT = {2: "2", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
# The other suit of the same colour.
PARTNER = {"S": "C", "C": "S", "H": "D", "D": "H"}

OTHER_TWO = 15  # the 2 of the other suit of trump's colour, in trump
TRUMP_TWO = 16  # the 2 of trump, the highest card


def make_card(rank: int, suit: str) -> Card:
    """The card of ``rank`` (2, 9-14) and ``suit``."""
    return Card(f"{RANK_TEXT[rank]}{suit}", suit, rank)


DECK = Deck(make_card(r, s) for s in SUITS for r in RANKS if (r, s) != (13, "C"))
TWO_OF_CLUBS = DECK.parse("2C")


def effective_suit(card: Card, trump: str) -> str:
    """The suit ``card`` belongs to when ``trump`` is trump (the other 2 is a trump)."""
    if card.rank == 2 and card.suit == PARTNER[trump]:
        return trump
    return card.suit


def trump_rank(card: Card, trump: str) -> int:
    """A trump card's place in trump: 9-14, the other 2 is 15, the 2 of trump 16."""
    if card.rank == 2:
        return TRUMP_TWO if card.suit == trump else OTHER_TWO
    return card.rank
