"""Seats and turn order: seats 0..n-1, clockwise is seat + 1.

>>> left_of(3, 4)
0
>>> list(clockwise_from(2, 4))
[2, 3, 0, 1]
"""

from __future__ import annotations

from collections.abc import Iterator


def left_of(seat: int, players: int) -> int:
    """The next seat clockwise (the player on ``seat``'s left)."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The next seat counter-clockwise."""
    return (seat - 1) % players


def clockwise_from(start: int, players: int) -> Iterator[int]:
    """Every seat once, clockwise, starting with ``start``."""
    for i in range(players):
        yield (start + i) % players


def players_text(low: int, high: int, *, dash: str = "-") -> str:
    """How many players a game takes, as people say it.

    >>> players_text(2, 6), players_text(3, 8, dash=" to "), players_text(3, 3)
    ('2-6 players', '3 to 8 players', 'exactly 3 players')
    """
    return f"exactly {low} players" if low == high else f"{low}{dash}{high} players"
