"""Fazes' trick rules: what may be played, and who wins (``rules/fazes.md``, "A faze").

>>> from games.fazes.cards import FULL_DECK
>>> hand = [FULL_DECK.parse(t) for t in ("Y4", "R9", "B3")]
>>> [c.text for c in playable(hand, "G", trump=True)], [c.text for c in playable(hand, "G")]
(['R9'], ['Y4', 'R9', 'B3'])
>>> plays = [(0, FULL_DECK.parse("G2")), (1, FULL_DECK.parse("R3")), (2, FULL_DECK.parse("G14"))]
>>> trick_winner(plays, trump=True), trick_winner(plays, trump=False)
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import Card
from games.fazes.cards import COLOUR_NAMES, RED, card_label

Play = tuple[int, Card]


def playable(hand: Sequence[Card], led: str | None, *, trump: bool = False) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led in ``led`` (``None``: leading).

    Follow the led colour if you can; when red is trump and you cannot follow, a red
    card if you have one; otherwise anything.
    """
    if led is None:
        return list(hand)
    same = [c for c in hand if c.suit == led]
    if same:
        return same
    if trump:
        reds = [c for c in hand if c.suit == RED]
        if reds:
            return reds
    return list(hand)


def why_not_playable(hand: Sequence[Card], led: str, card: Card, *, trump: bool = False) -> str:
    """Why ``card`` (held) may not be played to a trick led in ``led``, for the player."""
    if any(c.suit == led for c in hand):
        return f"you must follow {COLOUR_NAMES[led]}"
    if trump and card.suit != RED:
        return f"you have no {COLOUR_NAMES[led]}, so you must play a red card (red is trump)"
    return f"you cannot play {card_label(card)} now"  # pragma: no cover - all else is playable


def trick_winner(plays: Sequence[Play], *, trump: bool = False) -> int:
    """The seat that wins a finished trick: the highest red if red is trump and any was
    played, else the highest card of the led colour."""
    led = plays[0][1].suit
    best_seat, best = plays[0]
    best_is_trump = trump and best.suit == RED
    for seat, card in plays[1:]:
        if trump and card.suit == RED:
            if not best_is_trump or card.rank > best.rank:
                best_seat, best, best_is_trump = seat, card, True
        elif not best_is_trump and card.suit == led and card.rank > best.rank:
            best_seat, best = seat, card
    return best_seat
