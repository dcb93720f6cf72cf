"""Tables that deal known cards: ``Same cards`` (a finished game's deal, its seats again).

``Same cards`` opens a lobby with the finished game's seed, options and deals
(:class:`~bot.models.FixedDeal`) and its seats in the same order: the person who asked
sits in their own seat, every computer in its own with its level, and every other
person's seat is *saved* for them (a hard computer holds it, ``replaced_because``
``"saved"``) until they join, which seats them in it. A saved seat still waiting when
the game starts is played by that computer until its person takes it back (``/join``,
or ``Show my hand``), as after ``/leave``. The seats never change in number, so
nobody else may join, no computer may be added, and a person who leaves the lobby gives
their seat back to being saved. Such a game is not rated (its players know the cards).

These functions change the table they are given (a copy the caller is about to save).
"""

from __future__ import annotations

from typing import Any

from bot.models import TAKEN_OVER, FixedDeal, Seat, StoredTable
from bot.tables.computers import TAKEOVER_LEVEL
from bot.tables.errors import TableError
from bot.tables.seats import hand_to_computer, held_seat
from games.core.deallog import deals_json

ONLY_ITS_PLAYERS = ("this table deals the cards of a finished game to the same seats: only "
                    "that game's players can join, each in their own seat")
NO_NEW_SEAT = "the same cards need the same seats: no seat can be added"


def players_at_start(finished: StoredTable) -> list[dict[str, Any]]:
    """The seats of ``finished`` as its game began (its record's ``meta``), by seat: each
    ``{"name", "user_id"}``, a computer's ``user_id`` None. The seats as they ended when
    the record is older than that."""
    meta = (finished.record or {}).get("meta", {}).get("players")
    if isinstance(meta, list) and len(meta) == len(finished.seats):
        return [dict(player) for player in meta]
    return [{"name": s.name.removesuffix(TAKEN_OVER),
             "user_id": s.user_id if s.user_id is not None else s.replaced_user_id}
            for s in finished.seats]


def kicked(finished: StoredTable) -> set[int]:
    """The people the host handed out of ``finished`` (``/kick``): their seat is not theirs."""
    return {s.replaced_user_id for s in finished.seats
            if s.replaced_because == "kicked" and s.replaced_user_id is not None}


def same_seats(finished: StoredTable, user_id: int, name: str) -> list[Seat]:
    """The seats of a Same cards lobby of ``finished`` asked by ``user_id``: theirs, the
    computers', and every other person's saved for them; TableError if they did not play it."""
    players = players_at_start(finished)
    if user_id not in {p["user_id"] for p in players} or user_id in kicked(finished):
        raise TableError("only the players of that game can deal its cards again; /play "
                         "opens a new table")
    seats = []
    for index, player in enumerate(players):
        person = player["user_id"]
        if person == user_id:
            seats.append(Seat(user_id=user_id, name=name))
        elif person is None:
            computer = finished.seats[index]
            seats.append(Seat(name=computer.name, level=computer.level))
        else:
            seats.append(Seat(name=f"{player['name']}{TAKEN_OVER}", level=TAKEOVER_LEVEL,
                              replaced_user_id=person, replaced_because="saved"))
    return seats


def deal_of(finished: StoredTable) -> FixedDeal:
    """The deal ``finished`` played: its seed, first dealer and deals, for as many seats."""
    record = finished.record or {}
    seed = record.get("seed")
    if not isinstance(seed, int):
        raise TableError("that game's record has no seed, so its cards cannot be dealt again")
    return FixedDeal(seed=seed, players=len(finished.seats), dealer=record.get("dealer"),
                     deals=deals_json(record.get("deals")), source=finished.id)


def saved_for(table: StoredTable, user_id: int) -> int | None:
    """The seat a Same cards lobby saves for ``user_id``, or None."""
    seat = held_seat(table, user_id)
    if seat is None or table.seats[seat].replaced_because != "saved":
        return None
    return seat


def waiting(table: StoredTable) -> list[str]:
    """The names of the people whose saved seats are still waiting for them."""
    return [s.name.removesuffix(TAKEN_OVER) for s in table.seats
            if s.is_computer and s.replaced_because == "saved"]


def save_seat(table: StoredTable, seat: int) -> None:
    """``seat``'s person leaves a Same cards lobby: the seat is saved for them again."""
    hand_to_computer(table, seat, "saved")


def require_new_seat(table: StoredTable) -> None:
    """TableError when ``table`` deals known cards to a fixed number of seats."""
    if table.fixed is not None:
        raise TableError(NO_NEW_SEAT)


__all__ = ["NO_NEW_SEAT", "ONLY_ITS_PLAYERS", "deal_of", "kicked", "players_at_start",
           "require_new_seat", "same_seats", "save_seat", "saved_for", "waiting"]
