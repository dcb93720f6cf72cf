"""Scoring a faze (``rules/fazes.md``, "Scoring per faze" and "Shoot the moon").

>>> from games.fazes.cards import FULL_DECK
>>> r13, y13, y5 = (FULL_DECK.parse(t) for t in ("R13", "Y13", "Y5"))
>>> [card_points(6, c) for c in (r13, y13, y5)]
[30, 35, 10]
>>> [card_points(f, r13) for f in (1, 2, 3, 4, 5)]
[5, 0, 0, 25, 0]
>>> score_faze(5, [[r13], [y13]], [1, 0], last_winner=0).points
[-50, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.cards import Card
from games.fazes.cards import RED, YELLOW

FAZE_NAMES = {
    1: "Red Trump",
    2: "Tricks 'R Pointr",
    3: "Yellow Pointers",
    4: "13's",
    5: "Last Trick",
    6: "Madness",
}
FAZE_POINTS = {
    1: "each red card 5",
    2: "each trick 10",
    3: "each yellow card 10",
    4: "each 13 scores 25",
    5: "the last trick scores -50",
    6: "each trick 10, red 5, yellow 10, 13 25; the last trick -50",
}
TRUMP_FAZES = frozenset({1, 6})
SHOOTABLE_FAZES = frozenset({1, 2, 3, 4, 6})
LAST_TRICK_FAZES = frozenset({5, 6})

RED_POINTS = 5
YELLOW_POINTS = 10
THIRTEEN_POINTS = 25
TRICK_POINTS = 10
LAST_TRICK_POINTS = -50


def has_trump(faze: int) -> bool:
    """Whether red is trump in ``faze`` (fazes 1 and 6)."""
    return faze in TRUMP_FAZES


def card_points(faze: int, card: Card) -> int:
    """What ``card`` is worth to whoever takes it in ``faze``."""
    points = 0
    if card.suit == RED and faze in (1, 6):
        points += RED_POINTS
    if card.suit == YELLOW and faze in (3, 6):
        points += YELLOW_POINTS
    if card.rank == 13 and faze in (4, 6):
        points += THIRTEEN_POINTS
    return points


def trick_points(faze: int) -> int:
    """What each trick itself is worth in ``faze``."""
    return TRICK_POINTS if faze in (2, 6) else 0


def points_taken(faze: int, taken: Sequence[Sequence[Card]], won: Sequence[int]) -> list[int]:
    """Each player's points from the cards ``taken`` and the tricks ``won`` (no -50, no moon)."""
    per_trick = trick_points(faze)
    return [
        sum(card_points(faze, c) for c in cards) + per_trick * tricks
        for cards, tricks in zip(taken, won, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class FazeScore:
    """A scored faze: what each player scores, and who shot the moon (if anyone)."""

    points: list[int]
    shooter: int | None
    total: int  # the points of the faze (what every other player scores on a moon shot)


def score_faze(
    faze: int, taken: Sequence[Sequence[Card]], won: Sequence[int], *, last_winner: int
) -> FazeScore:
    """Score a finished faze: points taken, the moon, and the last trick's -50."""
    raw = points_taken(faze, taken, won)
    total = sum(raw)
    shooter = None
    if faze in SHOOTABLE_FAZES and total > 0:
        shooter = next((p for p, pts in enumerate(raw) if pts == total), None)
    if shooter is None:
        points = raw
    else:
        points = [0 if p == shooter else total for p in range(len(raw))]
    if faze in LAST_TRICK_FAZES:
        points[last_winner] += LAST_TRICK_POINTS
    return FazeScore(points, shooter, total)
