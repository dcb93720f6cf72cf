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

_LABELS: dict[tuple[str, str], str] = {}
"""Each card's label by game and card, as found: a game has a few dozen cards, and every
menu writes each card of a hand on its button. Bounded (:data:`KEPT_LABELS`), since a
card may come from a forged custom id."""
KEPT_LABELS = 4096


def card_label(game: str, card: Card) -> str:
    """``card`` of ``game`` as on its button: ``♥️10``, ``🟥7``, ``🗡️4``, ``👑K``, ``🌶️2``."""
    key = (game, card.text)
    label = _LABELS.get(key)
    if label is None:
        label = games.get(game).card_label(card)
        if len(_LABELS) < KEPT_LABELS:
            _LABELS[key] = label
    return label


def cards_label(game: str, cards: Iterable[Card]) -> str:
    """Several cards, each as on its button, separated by spaces."""
    return " ".join(card_label(game, card) for card in cards)


__all__ = ["card_label", "cards_label"]
