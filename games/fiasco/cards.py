"""Fiasco's 54 cards: six suits of 1-4 and 6-8, six Kings (9) and six Fiascos (5)."""

from __future__ import annotations

from collections.abc import Iterable

from games.core.cards import Card, Deck

SUITS = "SRBTMH"
SUIT_NAMES = {
    "S": "Swords",
    "R": "Roses",
    "B": "Books",
    "T": "Treasure Chests",
    "M": "Mandolins",
    "H": "Horses",
}
RANKS = (1, 2, 3, 4, 6, 7, 8)
KING = Card("K", "", 9)
FIASCO = Card("F", "", 5)
SUIT_EMOJI = {"S": "🗡️", "R": "🌹", "B": "📗", "T": "💰", "M": "🎸", "H": "🐎"}


def card_label(card: Card) -> str:
    """A card as people read it: the suit's emoji and the rank (``🗡️4``), a King ``👑K``,
    a Fiasco ``💥F``."""
    if card == KING:
        return "👑K"
    if card == FIASCO:
        return "💥F"
    return f"{SUIT_EMOJI[card.suit]}{card.rank}"


def suit_words(suit: str) -> str:
    """A suit as people read it: its emoji and its name, ``🗡️ Swords``."""
    return f"{SUIT_EMOJI[suit]} {SUIT_NAMES[suit]}"


def card_name(card: Card) -> str:
    """A card in words: ``Swords 4``, ``King``, ``Fiasco``."""
    if card == KING:
        return "King"
    if card == FIASCO:
        return "Fiasco"
    return f"{SUIT_NAMES[card.suit]} {card.rank}"


def suit_cards(suit: str) -> list[Card]:
    """The seven cards of ``suit``."""
    return [Card(f"{suit}{rank}", suit, rank) for rank in RANKS]


def deck_of(suits: Iterable[str]) -> Deck:
    """The deck with these suits, plus six Kings and six Fiascos."""
    cards = [card for suit in suits for card in suit_cards(suit)]
    return Deck([*cards, *[KING] * 6, *[FIASCO] * 6])


FULL_DECK = deck_of(SUITS)


def four_suit_deck(claimed: Iterable[str]) -> Deck:
    """The two-player ``suits: four`` deck: the claimed suits and the first unclaimed ones."""
    kept = list(claimed)
    for suit in SUITS:
        if len(kept) == 4:
            break
        if suit not in kept:
            kept.append(suit)
    return deck_of(sorted(kept, key=SUITS.index))
