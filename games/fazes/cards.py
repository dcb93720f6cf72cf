"""Fazes' 52 cards: four colours (Red, Yellow, Green, Black) numbered 2 to 14.

So that the deck divides evenly, the first ``52 % n`` cards of ``B2 B3 G3 B4``
are out of play with ``n`` players (never a point card, never the green 2).

>>> [c.text for c in removed_for(5)], hand_size(5), len(deck_for_players(5))
(['B2', 'B3'], 10, 50)
>>> card_name(FULL_DECK.parse("r13"))
'Red 13'
"""

from __future__ import annotations

from games.core.cards import Card, Deck

COLOURS = "RYGB"
COLOUR_NAMES = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}
RED = "R"
YELLOW = "Y"
RANKS = range(2, 15)
MIN_PLAYERS = 3
MAX_PLAYERS = 8

FULL_DECK = Deck(Card(f"{colour}{rank}", colour, rank) for colour in COLOURS for rank in RANKS)
GREEN_TWO = FULL_DECK.parse("G2")
REMOVAL_ORDER: tuple[Card, ...] = tuple(FULL_DECK.parse(t) for t in ("B2", "B3", "G3", "B4"))


def removed_for(players: int) -> tuple[Card, ...]:
    """The cards out of play with ``players``: the first ``52 % players`` of B2 B3 G3 B4."""
    return REMOVAL_ORDER[: len(FULL_DECK) % players]


def hand_size(players: int) -> int:
    """Cards dealt to each player (also the number of tricks in a faze)."""
    return len(FULL_DECK) // players


_DECKS = {n: FULL_DECK.without(removed_for(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def deck_for_players(players: int) -> Deck:
    """The cards in play with ``players``: the full deck less the removed cards."""
    return _DECKS[players]


COLOUR_EMOJI = {"R": "🟥", "Y": "🟨", "G": "🟩", "B": "🔲"}


def card_name(card: Card) -> str:
    """The card in words: ``Red 13``."""
    return f"{COLOUR_NAMES[card.suit]} {card.rank}"


def card_label(card: Card) -> str:
    """The card as people read it: its colour's emoji and its number, ``🟥13``."""
    return f"{COLOUR_EMOJI[card.suit]}{card.rank}"
