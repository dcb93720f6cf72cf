"""Helpers the trick-taking games share: following suit and finding the winner.

>>> from games.core.cards import Card
>>> hand = [Card("R3", "R", 3), Card("G5", "G", 5), Card("R9", "R", 9)]
>>> [c.text for c in must_follow(hand, "R")]
['R3', 'R9']
>>> [c.text for c in must_follow(hand, "Y")]
['R3', 'G5', 'R9']
>>> plays = [(0, Card("R3", "R", 3)), (1, Card("R9", "R", 9)), (2, Card("G5", "G", 5))]
>>> winning_play(plays, lambda c: c.rank if c.suit == "R" else -1)
(1, Card('R9'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from games.core.cards import Card

Play = tuple[int, Card]


def distinct(cards: Iterable[Card]) -> list[Card]:
    """The cards without repeats, in first-seen order (two ``K`` offer one choice)."""
    return list(dict.fromkeys(cards))


def must_follow(
    hand: Sequence[Card],
    led: str | None,
    suit_of: Callable[[Card], str] | None = None,
) -> list[Card]:
    """The cards of ``hand`` that may be played when ``led`` is the led suit.

    Cards of the led suit if the hand has any, else the whole hand; ``led`` of
    ``None`` (leading) allows anything. ``suit_of`` gives a card's effective suit
    (Fumblaroo's other 2 belongs to trump).
    """
    if led is None:
        return distinct(hand)
    of = suit_of or (lambda c: c.suit)
    same = [c for c in hand if of(c) == led]
    return distinct(same) if same else distinct(hand)


def winning_play(
    plays: Sequence[Play],
    strength: Callable[[Card], int],
    *,
    last_wins_ties: bool = False,
) -> Play:
    """The play with the greatest ``strength``; on equal strength the first (or last)."""
    best = plays[0]
    best_strength = strength(best[1])
    for play in plays[1:]:
        s = strength(play[1])
        if s > best_strength or (last_wins_ties and s == best_strength):
            best, best_strength = play, s
    return best
