"""Cards as players read them on buttons: a suit emoji and the rank as it is said.

Only standard Unicode emoji (no custom emoji, so every server shows them): the
colour or suit first, then the rank as people say it (``10``, not ``T``; ``A``,
``K``, ``Q``, ``J``). The words ("Queen of hearts") stay for screen readers; see
:meth:`games.core.game.Game.card_name`.
"""

from __future__ import annotations

from games.core.cards import Card

STANDARD = {"S": "♠️", "H": "♥️", "D": "♦️", "C": "♣️"}
COLOURS = {"R": "🟥", "Y": "🟨", "G": "🟩", "B": "⬛"}
FIASCO = {"S": "🗡️", "R": "🌹", "B": "📚", "T": "💰", "M": "🎸", "H": "🐎"}
FIASCO_SPECIAL = {"K": "👑", "F": "💥"}
SPICY = "🌶️"
FACE_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def card_label(game: str, card: Card) -> str:
    """``card`` of ``game`` for a button: ``♥️10``, ``🟥7``, ``🗡️4``, ``👑K``, ``🌶️2``."""
    if game == "fiasco":
        if card.text in FIASCO_SPECIAL:
            return f"{FIASCO_SPECIAL[card.text]}{card.text}"
        return f"{FIASCO[card.suit]}{card.rank}"
    if game in ("fazes", "fibonachos"):
        if not card.suit:
            return f"{SPICY}{card.rank}"
        return f"{COLOURS[card.suit]}{card.rank}"
    return f"{STANDARD[card.suit]}{FACE_RANKS.get(card.rank, str(card.rank))}"


def cards_label(game: str, cards: list[Card] | tuple[Card, ...]) -> str:
    """Several cards, each as on its button, separated by spaces."""
    return " ".join(card_label(game, c) for c in cards)


__all__ = ["card_label", "cards_label"]
