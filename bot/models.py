"""The data the application keeps about a table, shared by the session manager and the store.

A table is one lobby-then-game in one Discord channel or thread. Everything
needed to rebuild it after a restart is in :class:`StoredTable`: who sits where,
the options, and the game's record (options, seed, deals, actions).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from games.levels import Level


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


DEFAULT_LEVEL = Level.HARD
"""The level ``Add computer player`` offers first."""
TAKEOVER_LEVEL = Level.HARD
"""The level of a computer that plays for a person: after /leave or /kick, or when their
turn timed out. The strongest, so nobody's seat is thrown away."""


SeatLoss = Literal["left", "kicked", "timeouts", "saved"]
"""Why a person's seat passed to a computer. ``saved``: a Same cards lobby keeps their seat
of the game it replays until they join; if they have not when it starts, a computer plays it
until they take it back."""

ServerTimer = Literal["off", "30s", "1m", "2m", "5m"]
"""A server's default turn timer as ``/settings`` names it (the tournament rule is Fiasco's,
a table's alone): the store keeps one per server (``guild_settings.timer``)."""

SERVER_CHOICES: tuple[ServerTimer, ...] = get_args(ServerTimer)

SERVER_SECONDS: dict[ServerTimer, float] = {"off": 0.0, "30s": 30.0, "1m": 60.0, "2m": 120.0,
                                            "5m": 300.0}
"""The seconds each server timer gives a turn (0: no timer); :mod:`bot.tables.timers` adds
the tournament timer, a table's alone."""

DEFAULT_TIMER: ServerTimer = "2m"
"""What ``TURN_TIMEOUT`` defaults to (120 seconds): timers are on unless turned off."""

TAKEN_OVER = " (computer)"
"""The end of the name of a seat a computer took over from a person ("Ana (computer)")."""


class Seat(BaseModel):
    """One seat: a Discord user, or a computer player (``user_id`` None)."""

    user_id: int | None = None
    name: str
    # A computer seat's level. None for a person, and for computer seats stored before
    # levels existed: those keep playing as they did (``random``), so old tables resume
    # with the same moves.
    level: Level | None = None
    # The user who held this seat before a computer took it over (left or kicked).
    replaced_user_id: int | None = None
    # The table's version right after this seat's last action: a hand menu drawn
    # before it is out of date (a double click), one drawn after it is still good
    # even if other seats have played since.
    acted_version: int = 0
    # This seat's person let their turn time out so many times in a row (bot.timers);
    # their own move sets it back to 0, nothing else does (not leaving and coming back).
    timeouts: int = 0
    # Why a computer holds this seat of a person (``replaced_user_id``): they left, the
    # host kicked them, or they timed out too often. Who may take it back depends on it.
    replaced_because: SeatLoss | None = None
    # The seat's decisions so far in this game, and how many of them its person made
    # (the rest a computer made: a computer seat's own, or for its person after /leave,
    # a kick or a timeout). Kept with the seat whoever holds it: a person is rated only
    # if they made at least half of them (bot.tables.results).
    moves: int = 0
    own_moves: int = 0

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def computer_level(self) -> Level:
        """The level this seat plays at when a computer plays it."""
        return self.level or Level.RANDOM

    @property
    def label(self) -> str:
        """The name as the lobby and the table show it: a computer's says its level,
        "Computer 2 (hard)", "Ana (computer, hard)"."""
        if not self.is_computer:
            return self.name
        if self.name.endswith(TAKEN_OVER):
            return f"{self.name.removesuffix(TAKEN_OVER)} (computer, {self.computer_level})"
        return f"{self.name} ({self.computer_level})"


class FixedDeal(BaseModel):
    """The cards a table deals instead of fresh ones: a finished game's (``Same cards``), or
    today's deal (``/daily``). The same seed, options and seat count deal the same cards."""

    seed: int
    players: int  # the seats the deal is for: the table starts only with exactly as many
    dealer: int | None = None  # the first dealer, when the finished game's record names one
    # The deals to play first, as the finished game's record has them (Fizzbin's day or night
    # included); the deals after them come from the seed, as they did in that game.
    deals: list[dict[str, Any]] = Field(default_factory=list)
    source: str | None = None  # the finished table whose cards these are (Same cards)


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
    # Set when the table could not be rebuilt after a restart and was closed for it: what
    # went wrong, in a few words. Its buttons then say so, after later restarts too.
    unresumable: str | None = None
    # The table option ``hints``: the hand menu's Hint button shows what the hard computer
    # would play. Such a game counts in /stats but is not rated.
    hints: bool = False
    # Whether the table message and hand menus carry pictures of the cards (the text
    # stays either way): /play's pictures option, else the server's /settings.
    pictures: bool = True
    # When a person last acted in the game (computers' moves do not count): an abandoned
    # game expires from it (bot.expiry). None: nobody has acted since the start.
    last_person_at: datetime | None = None
    # The people the host removed from this table (/kick): they may not join it again,
    # nor take back a seat in it.
    kicked: list[int] = Field(default_factory=list)
    # The table's turn timer (bot.timers): seconds a person has for each turn, 0 for none.
    # None only in tables stored before timers were a table option: those keep the bot's
    # TURN_TIMEOUT, as they had then. ``tournament``: Fiasco's rule (10 s, a random card).
    turn_seconds: float | None = None
    tournament: bool = False
    # When the person to act times out (on the bot's clock), saved with the move that gave
    # them the turn so a restart keeps it; None when nobody's turn is timed.
    deadline: datetime | None = None
    # The seat to act timed out and has more to do in the same turn (draw, then discard):
    # its computer finishes the turn at once, and the rest counts as no new timeout.
    overtime: bool = False
    # The deal this table plays when it is not a fresh one (Same cards, the daily deal): such a
    # game is not rated, as everyone at it may know the cards.
    fixed: FixedDeal | None = None
    # The day (``YYYY-MM-DD``, UTC) whose deal this table plays, for one person against hard
    # computers (``/daily``); its result goes to the server's daily board.
    daily: str | None = None
    # The table lives in a direct message with its one person (a daily deal where the bot
    # could open no private thread): links to it name no server.
    in_dm: bool = False
    created_at: datetime
    updated_at: datetime

    @property
    def rated(self) -> bool:
        """Whether the game's result moves ratings: not with hints, nor with known cards."""
        return not self.hints and self.fixed is None

    @property
    def private(self) -> bool:
        """Whether the table is one person's alone (a daily deal): not listed, not watched."""
        return self.daily is not None


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
    # False for a game played with hints: counted (games, wins, places), never rated.
    rated: bool = True
    # The day whose deal this game played (``/daily``): the result also goes to the daily
    # board, in the same transaction.
    daily: str | None = None


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


def season_of(moment: datetime) -> str:
    """The season (``YYYY-MM``: the calendar month in UTC) a game ending at ``moment`` is in;
    a naive moment is taken as UTC. The store rates each result in it, the leaderboard
    shows it."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m")


class SeasonStanding(BaseModel):
    """Where a player finished a season (a calendar month) of a game's board in a server."""

    season: str  # YYYY-MM, UTC
    game: str
    place: int
    players: int  # rated players on that season's board
    rating: float  # their season rating at its end
    games: int
    wins: int


class RecentGame(BaseModel):
    table_id: str
    game: str
    finished_at: datetime
    place: int
    score: int
    players: int


class DailyTry(BaseModel):
    """One person's try at a day's deal of a game (``/daily``): one per person, game and day.

    ``score`` and ``place`` (at their table, the computers included) once the game has
    ended; a try whose game never finished keeps neither, and counts as played.
    """

    day: str  # YYYY-MM-DD, UTC
    game: str
    user_id: int
    guild_id: int | None  # the server whose daily board it counts on
    table_id: str
    started_at: datetime
    finished_at: datetime | None = None
    score: int | None = None
    place: int | None = None

    @property
    def finished(self) -> bool:
        return self.score is not None
