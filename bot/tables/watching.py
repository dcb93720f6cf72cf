"""Beyond one table: the server's open tables (``/tables``) and who may watch a game.

A person not seated at a game may watch it: a private view of exactly what the table
message shows (:class:`~bot.tables.snapshots.TableSnapshot`), kept up to date by the
Discord layer. Watchers live in memory (:attr:`bot.tables.session.Session.watchers`); a
watcher's next click after a restart counts them again. A seated person has their hand
menu instead, a daily deal is one person's alone, and a table has at most
:data:`MAX_WATCHERS` at once (each watcher's view is an edit after every move).

Which tables a person may see is the Discord layer's to say (channel permissions): the
listing here is every open table of one server that anyone may be shown.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import games
from bot.models import StoredTable, TableStatus
from bot.tables.checks import require_game
from bot.tables.errors import TableClosed, TableError
from bot.tables.session import Session

MAX_WATCHERS = 25
"""People who may watch one table at once."""

PRIVATE = ("that is a daily deal, played by one person alone: nobody sees its cards before "
           "they have played them")
SEATED = ("you are playing at this table: Show my hand shows your cards and everything "
          "on the table")


def require_watchable(session: Session, user_id: int) -> None:
    """:class:`TableError` unless ``user_id`` may watch ``session``'s game now."""
    if session.table.private:
        raise TableError(PRIVATE)
    game = require_game(session)
    if game.over:
        raise TableClosed("this game is over")
    if session.seat_of(user_id) is not None:
        raise TableError(SEATED)
    if user_id not in session.watchers and len(session.watchers) >= MAX_WATCHERS:
        raise TableError(f"{MAX_WATCHERS} people are watching this table already, the most "
                         "one table may have; try again later")


def started_at(table: StoredTable) -> dt.datetime:
    """When the game started (its record says), or when the lobby opened."""
    stamp = (table.record or {}).get("meta", {}).get("started_at")
    if isinstance(stamp, str):
        try:
            return dt.datetime.fromisoformat(stamp)
        except ValueError:
            pass
    return table.created_at


@dataclass(frozen=True)
class TableSummary:
    """One open table as ``/tables`` lists it: where it is, who sits, what it waits for."""

    table_id: str
    game: str
    title: str
    guild_id: int | None
    channel_id: int
    message_id: int | None
    lobby: bool  # a lobby (Join) rather than a game under way (Watch)
    people: frozenset[int]  # the people seated
    computers: int
    free: int  # seats a person may still take (a lobby's; 0 in a game)
    turn: str | None  # whose turn it is, by name (a game's)
    since: dt.datetime  # the lobby opened, or the game started
    watching: int


def summary_of(session: Session) -> TableSummary:
    """``session`` as a line of ``/tables`` (an open, public table)."""
    table = session.table
    cls = games.get(table.game)
    lobby = table.status is TableStatus.LOBBY
    seat = session.to_act()
    return TableSummary(
        table_id=table.id, game=table.game, title=cls.title, guild_id=table.guild_id,
        channel_id=table.channel_id, message_id=table.message_id, lobby=lobby,
        people=frozenset(session.humans()),
        computers=sum(1 for s in table.seats if s.is_computer),
        free=max(0, cls.max_players - len(table.seats)) if lobby and table.fixed is None else 0,
        turn=None if seat is None else table.seats[seat].label,
        since=started_at(table), watching=len(session.watchers) if session.in_play else 0)


def listing(sessions: list[Session]) -> list[TableSummary]:
    """The public ones of ``sessions`` (open, not a daily deal, with a message), newest
    first; ``sessions`` in the order they were opened, which decides between two opened
    at the same moment of the clock."""
    public = [(opened, s) for opened, s in enumerate(sessions)
              if s.is_open and not s.table.private and s.table.message_id is not None]
    public.sort(key=lambda pair: (pair[1].table.created_at, pair[0]), reverse=True)
    return [summary_of(s) for _, s in public]


__all__ = ["MAX_WATCHERS", "PRIVATE", "SEATED", "TableSummary", "listing",
           "require_watchable", "started_at", "summary_of"]
