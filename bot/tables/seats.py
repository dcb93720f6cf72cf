"""A person's seat passing to a computer in play, and taken back by that person.

A seat passes to a (hard) computer when its person leaves, is kicked by the host, or
lets :data:`bot.tables.timers.MAX_TIMEOUTS` turns in a row time out. The computer's seat
remembers who held it and why (:attr:`bot.models.Seat.replaced_user_id`,
``replaced_because``), so that person can take it back with ``/join`` or the
``Take my seat back`` button: after leaving or timing out, at any time. A kicked
person cannot: the host handed the seat away on purpose, and letting the kicked
person undo it alone would make the kick pointless. The seat stays the computer's
for the rest of that game.

These functions change the table they are given (a copy the caller is about to save).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.models import TAKEN_OVER, Seat, SeatLoss, StoredTable, TableStatus
from bot.tables.checks import require_holder
from bot.tables.computers import TAKEOVER_LEVEL

LOSS_WORDS: dict[SeatLoss, str] = {
    "left": "you left the table",
    "kicked": "the host handed your seat to a computer",
    "timeouts": "your turn timed out three times in a row",
    "saved": "you had not joined when the game started",
}


KEPT_WITH_THE_SEAT = ("moves", "own_moves", "timeouts", "acted_version")
"""What a seat keeps whoever holds it: its decisions and how many its person made (the
rating rule), its timeouts in a row (leaving and coming back does not clear them), and
the version of its last action (menus drawn before it stay out of date)."""


def _kept(old: Seat) -> dict[str, Any]:
    return {field: getattr(old, field) for field in KEPT_WITH_THE_SEAT}


def hand_to_computer(table: StoredTable, seat: int, because: SeatLoss) -> None:
    """Seat ``seat`` of ``table`` passes to a computer, remembering who held it and why."""
    old = table.seats[seat]
    table.seats[seat] = Seat(name=f"{old.name}{TAKEN_OVER}", replaced_user_id=old.user_id,
                             level=TAKEOVER_LEVEL, replaced_because=because
                             ).model_copy(update=_kept(old))


def held_seat(table: StoredTable, user_id: int) -> int | None:
    """The seat a computer holds for ``user_id`` (who held it before), or None."""
    for index, seat in enumerate(table.seats):
        if seat.is_computer and seat.replaced_user_id == user_id:
            return index
    return None


def take_back_refusal(table: StoredTable, seat: int) -> str | None:
    """Why the person who held ``seat`` may not take it back; None if they may."""
    if table.seats[seat].replaced_because == "kicked":
        return ("the host handed your seat to a computer, so it stays the computer's for the "
                "rest of this game")
    return None


@dataclass(frozen=True, slots=True)
class LostSeat:
    """A person whose seat a computer holds: why, and why they may not take it back (None:
    they may)."""

    table_id: str
    why: str
    refusal: str | None


def lost_seat(table: StoredTable, user_id: int) -> LostSeat | None:
    """Why a computer holds the seat ``user_id`` had in ``table``'s game; None if none does."""
    seat = held_seat(table, user_id)
    if seat is None or table.status is not TableStatus.PLAYING:
        return None
    because = table.seats[seat].replaced_because or "left"  # seats lost before reasons
    return LostSeat(table.id, LOSS_WORDS[because], take_back_refusal(table, seat))


def give_back(table: StoredTable, seat: int, user_id: int) -> str:
    """The computer holding ``seat`` hands it back to ``user_id``; their name.

    Menus the person kept from before are out of date: their seat counts as having
    acted at the version the caller's save gives the table (one more than now). The
    seat's count of timeouts and of decisions goes on (:data:`KEPT_WITH_THE_SEAT`).
    """
    old = table.seats[seat]
    name = old.name.removesuffix(TAKEN_OVER)
    table.seats[seat] = Seat(user_id=user_id, name=name).model_copy(
        update=_kept(old) | {"acted_version": table.version + 1})
    return name


# require_holder is the checks' (bot.tables.checks), named here for whatever shows a hand
# outside the service: the seat it shows may have passed on (a kick, a leave).
__all__ = ["KEPT_WITH_THE_SEAT", "LOSS_WORDS", "LostSeat", "give_back", "hand_to_computer",
           "held_seat", "lost_seat", "require_holder", "take_back_refusal"]
