"""The checks a request meets at a table, each made in this one place.

Whatever asks (a button, a command, a hint), the table service runs these under the
table's lock before it changes anything, and refuses with the one wording kept here
and in :mod:`bot.tables.errors`.
"""

from __future__ import annotations

from typing import Any

from bot.models import TableStatus
from bot.shards import ShardPlan, shard_of
from bot.tables.errors import (
    NOT_SEATED,
    NOT_STARTED,
    OTHER_SHARD,
    SEAT_GONE,
    NotOurShard,
    TableClosed,
    TableError,
)
from bot.tables.session import Session
from games.core.game import Game


def require_shard(plan: ShardPlan, guild_id: int | None) -> None:
    """:class:`NotOurShard` unless this process plays ``guild_id``'s tables."""
    if not plan.owns(guild_id):
        assert plan.count is not None
        raise NotOurShard(OTHER_SHARD.format(shard=shard_of(guild_id, plan.count),
                                             count=plan.count))


def require_open(session: Session) -> None:
    """:class:`TableClosed` unless the table is a lobby or a game under way."""
    if not session.is_open:
        raise TableClosed("this table is closed")


def require_lobby(session: Session) -> None:
    """:class:`TableError` unless the table is an open lobby."""
    require_open(session)
    if session.status is not TableStatus.LOBBY:
        raise TableError("the game has already started")


def require_game(session: Session) -> Game[Any]:
    """The running (or just finished) game, or the reason there is none."""
    if session.table.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
        raise TableClosed("this game is over" if session.table.status is TableStatus.FINISHED
                          else "this table was closed")
    if session.game is None:
        raise TableError(NOT_STARTED)
    return session.game


def require_seat(session: Session, user_id: int) -> int:
    """The seat ``user_id`` holds, or :class:`TableError` saying they hold none."""
    seat = session.seat_of(user_id)
    if seat is None:
        raise TableError(NOT_SEATED)
    return seat


def require_holder(session: Session, user_id: int, seat: int) -> None:
    """:class:`TableError` unless ``user_id`` still holds ``seat``.

    Whatever shows a hand checks this again after each wait (a search, a drawing): the
    seat may have passed to a computer meanwhile (a kick, a leave), and its cards are then
    no longer theirs to see.
    """
    if session.seat_of(user_id) != seat:
        raise TableError(SEAT_GONE)


def not_your_turn(session: Session) -> str:
    """Why a seat may not act now: whose turn it is instead."""
    seat = session.to_act()
    if seat is None:
        return "it is not your turn"
    return f"it is not your turn: waiting for {session.seats[seat].name}"


def require_turn(session: Session, seat: int) -> None:
    """:class:`TableError` unless ``seat`` is the one to act."""
    if session.to_act() != seat:
        raise TableError(not_your_turn(session))


__all__ = ["not_your_turn", "require_game", "require_holder", "require_lobby", "require_open",
           "require_seat", "require_turn"]
