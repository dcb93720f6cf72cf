"""Who sits where: Fizzbin's players change seats but keep their index.

Turn order is by seats; everything else (hands, piles, actions, scores) is by
player. ``Seating`` keeps both directions as plain lists, cheap to copy.

>>> s = Seating(4)
>>> s.swap(1, 3)
>>> s.player_at(1), s.seat_of(1), s.player_at(s.left_of(0))
(3, 3, 3)
>>> s.order_from(s.left_of(0), clockwise=False)
[3, 0, 1, 2]
"""

from __future__ import annotations

from games.core.seats import left_of, right_of


class Seating:
    """Seat -> player and player -> seat for one table."""

    __slots__ = ("_player_at", "_seat_of")

    def __init__(self, players: int) -> None:
        self._player_at = list(range(players))
        self._seat_of = list(range(players))

    def copy(self) -> Seating:
        """An independent copy."""
        new = Seating.__new__(Seating)
        new._player_at = self._player_at[:]
        new._seat_of = self._seat_of[:]
        return new

    def __len__(self) -> int:
        return len(self._player_at)

    def player_at(self, seat: int) -> int:
        """The player sitting in ``seat``."""
        return self._player_at[seat]

    def seat_of(self, player: int) -> int:
        """The seat ``player`` sits in."""
        return self._seat_of[player]

    def left_of(self, seat: int) -> int:
        """The next seat clockwise."""
        return left_of(seat, len(self))

    def right_of(self, seat: int) -> int:
        """The next seat counter-clockwise."""
        return right_of(seat, len(self))

    def swap(self, a: int, b: int) -> None:
        """Players ``a`` and ``b`` change seats."""
        sa, sb = self._seat_of[a], self._seat_of[b]
        self._player_at[sa], self._player_at[sb] = b, a
        self._seat_of[a], self._seat_of[b] = sb, sa

    def order_from(self, seat: int, *, clockwise: bool) -> list[int]:
        """Every player once, starting with the one in ``seat``."""
        step = 1 if clockwise else -1
        n = len(self)
        return [self._player_at[(seat + step * i) % n] for i in range(n)]

    def players_by_seat(self) -> list[int]:
        """The players in seat order (seat 0 first)."""
        return list(self._player_at)
