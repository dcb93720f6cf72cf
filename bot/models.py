"""The data the application keeps about a table, shared by the session manager and the store.

A table is one lobby-then-game in one Discord channel or thread. Everything
needed to rebuild it after a restart is in :class:`StoredTable`: who sits where,
the options, and the game's record (options, seed, deals, actions).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Seat(BaseModel):
    """One seat: a Discord user, or a computer player (``user_id`` None)."""

    user_id: int | None = None
    name: str
    # The user who held this seat before a computer took it over (left or kicked).
    replaced_user_id: int | None = None
    # The table's version right after this seat's last action: a hand menu drawn
    # before it is out of date (a double click), one drawn after it is still good
    # even if other seats have played since.
    acted_version: int = 0

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


class StoredTable(BaseModel):
    """Everything needed to rebuild a table after a restart."""

    id: str  # the session id carried by custom ids (short, unique)
    guild_id: int | None
    channel_id: int  # the channel or thread the table lives in
    message_id: int | None = None  # the public lobby/table message
    host_id: int
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    status: TableStatus = TableStatus.LOBBY
    seats: list[Seat] = Field(default_factory=list)
    record: dict[str, Any] | None = None  # the game record once started
    # The server's time zone when the game started (Fizzbin's day and night); every
    # deal of the game, after a restart too, reads the clock in it. None: not started
    # yet, or started before servers had zones (the TIMEZONE setting then applies).
    timezone: str | None = None
    version: int = 0  # bumped by every accepted action; stale menus compare against it
    # Whether the table message and hand menus carry pictures of the cards (the text
    # stays either way): /play's pictures option, else the server's /settings.
    pictures: bool = True
    created_at: datetime
    updated_at: datetime


class ResultPlayer(BaseModel):
    seat: int
    user_id: int | None  # None for a computer player
    name: str
    score: int
    place: int  # 1 = best; tied players share a place
    winner: bool


class GameResult(BaseModel):
    """A finished game, written once with its rating updates."""

    table_id: str
    guild_id: int | None
    game: str
    finished_at: datetime
    players: list[ResultPlayer]
    record: dict[str, Any]


class LeaderRow(BaseModel):
    user_id: int
    rating: float  # the displayed rating (openskill ordinal, scaled)
    games: int
    wins: int


class GameStats(BaseModel):
    game: str
    games: int
    wins: int
    rating: float | None  # None when the player has no rated game of it


class RecentGame(BaseModel):
    table_id: str
    game: str
    finished_at: datetime
    place: int
    score: int
    players: int
