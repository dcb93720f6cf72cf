"""Cards as players read them in Discord: each game's own way (``Game.card_label``).

The games library decides how a card is written for people (the suit's emoji, then the
rank as it is said: ``♥️10``, ``🟥7``, ``🗡️4``), so the table message, the buttons, the
events, the hints and the terminal all write a card the same way. Only standard Unicode
emoji (no custom emoji, so every server shows them). The words ("Queen of hearts") are
for screen readers and alt text: :meth:`games.core.game.Game.card_name`.
"""

from __future__ import annotations

from collections.abc import Iterable

import games
from games.core.cards import Card


def card_label(game: str, card: Card) -> str:
    """``card`` of ``game`` as on its button: ``♥️10``, ``🟥7``, ``🗡️4``, ``👑K``, ``🌶️2``."""
    return games.get(game).card_label(card)


def cards_label(game: str, cards: Iterable[Card]) -> str:
    """Several cards, each as on its button, separated by spaces."""
    return games.get(game).cards_label(cards)


__all__ = ["card_label", "cards_label"]
