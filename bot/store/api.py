"""The store's interface: what the application asks of persistence, and how it fails.

Four protocols, one per concern: :class:`TablesInPlay` (the tables to resume, written as
they change), :class:`ResultsAndRatings` (finished games, the leaderboard and stats),
:class:`ServerSettings` (each server's choices) and :class:`DailyDeals` (the tries at each
day's deal); :class:`Store` is the four and ``close``.
Two implementations: :class:`bot.store.sqlite.store.SqliteStore` (the default, one
process) and :class:`bot.store.postgres.store.PostgresStore` (several processes sharing
one database); :func:`bot.store.connect.open_store` opens the one a URL names. A third
backend implements the three protocols and registers its scheme there.

What every implementation owes its callers:

- a write is durable when its await returns, and a write that raises left
  nothing behind (the callers in :mod:`bot.tables.actions` and :mod:`bot.tables.changes`
  change memory only after a write returns);
- every write says what changed, and the store writes that, never comparing records:
  :meth:`TablesInPlay.append_action` stores one action (a table at its 1,000th action
  costs what it cost at its first), :meth:`TablesInPlay.save_head` the table without
  a new action, :meth:`TablesInPlay.create_table` a new table;
- a finished game's record is kept once (its result's);
- a change of a table compares versions (compare and set): a table of version ``n``
  is written only over the stored version ``n - 1``, so a stale copy can never
  overwrite a newer move; it raises :class:`StaleTable` and writes nothing. The
  callers bump ``version`` on every change;
- at most one table per channel is open (lobby or playing): the schema says
  so, and opening a second raises :class:`ChannelTaken`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.models import (
    DailyTry,
    GameResult,
    GameStats,
    LeaderRow,
    RecentGame,
    SeasonStanding,
    StoredTable,
)


class StoreError(RuntimeError):
    """The database cannot be used as it is, or refused a write; nothing was written."""


class StaleTable(StoreError):
    """A table was saved from a copy older than the stored one: the write was refused.

    Another process (or a resumed copy) saved a newer version first. The caller
    reloads the table from the store instead of overwriting that newer move.
    """

    def __init__(self, table_id: str, version: int, stored: int | None) -> None:
        super().__init__(f"table {table_id} was saved at version {version} over stored "
                         f"version {stored} (expected {version - 1}): a stale copy")
        self.table_id = table_id
        self.version = version
        self.stored = stored


class ChannelTaken(StoreError):
    """A new open table in a channel that already has one (the schema allows one)."""

    def __init__(self, table_id: str, channel_id: int) -> None:
        super().__init__(f"table {table_id} cannot open in channel {channel_id}: "
                         "another table is open there")
        self.table_id = table_id
        self.channel_id = channel_id


class DailyTaken(StoreError):
    """A daily table for a person who already has a try at that day's deal of that game."""

    def __init__(self, day: str, game: str, user_id: int) -> None:
        super().__init__(f"user {user_id} has a try at the {game} deal of {day} already")
        self.day = day
        self.game = game
        self.user_id = user_id


class TablesInPlay(Protocol):
    """The tables of this bot, written as they change and read back after a restart."""

    async def create_table(self, table: StoredTable) -> None:
        """Insert a new table (usually a lobby), with its record's actions if it has any.

        A daily table (``table.daily``) claims its host's try at that day's deal in the same
        transaction (:class:`DailyDeals`).

        Raises :class:`StaleTable` if the id is stored already,
        :class:`ChannelTaken` for a second open table in one channel and
        :class:`DailyTaken` for a second try at a daily deal; either way nothing is written.
        """

    async def save_head(self, table: StoredTable) -> None:
        """Save a change that adds no action (seats, lobby, message id, timers, start, close).

        The table replaces the stored version ``table.version - 1``
        (:class:`StaleTable` otherwise). Its record's actions are the stored ones and
        are not written (ValueError, nothing written, if their count differs); a finished
        table's record is its result's, so its head keeps none.
        """

    async def append_action(self, table: StoredTable, action: str) -> None:
        """Save ``table``, in play, whose record's last action is ``action`` (its notation),
        one action on from the stored version: the head and that one action row.

        :class:`StaleTable` unless the stored version is ``table.version - 1``; ValueError
        unless ``action`` ends the record and comes right after the stored actions.
        Either way nothing is written.
        """

    async def open_tables(self) -> list[StoredTable]:
        """Every table in the lobby or playing, to resume at start-up."""

    async def get_table(self, table_id: str) -> StoredTable | None: ...

    async def prune_tables(self, before: datetime) -> int:
        """Delete the finished and cancelled tables last changed before ``before``, with
        their actions, in one transaction; how many were deleted.

        What stays: every result (a finished game's record is its result's), the
        ratings, and every open table whatever its age. The expiry sweep calls this
        with now less ``TABLE_RETENTION_DAYS``.
        """


class ResultsAndRatings(Protocol):
    """Finished games, written once with their rating updates, and what is read of them."""

    async def record_result(self, result: GameResult, *, table: StoredTable | None = None) -> bool:
        """Write a finished game and its rating updates in one transaction.

        With ``table``, the finished table (its record holding the final action) is
        saved in the same transaction; its record must be ``result.record``
        (ValueError otherwise), which is stored once (the table's head keeps
        none, its action rows go), and it is compared like :meth:`TablesInPlay.save_head`
        (:class:`StaleTable`; a table not stored yet is inserted). Without it, the stored
        table (if any) is marked finished. A daily deal's result (``result.daily``) also
        gives its person's try their score and place. Exactly once per table: a second
        call for the same ``table_id`` writes nothing and returns False.
        """

    async def leaderboard(
        self, guild_id: int | None, game: str, *, offset: int = 0, limit: int = 10,
        season: str | None = None,
    ) -> tuple[list[LeaderRow], int]:
        """A page of the server's players of ``game`` by rating, and how many there are: all
        time, or in ``season`` (a calendar month, ``YYYY-MM``, UTC; every finished game
        counts and rates in the season it ended in, with the same maths as all time)."""

    async def season_standings(self, guild_id: int | None, user_id: int, *, before: str,
                               limit: int = 4) -> list[SeasonStanding]:
        """Where the player finished each rated season before ``before`` (``YYYY-MM``),
        latest first: their place, how many were rated, their rating."""

    async def stats(self, guild_id: int | None, user_id: int) -> list[GameStats]:
        """The player's games, wins and rating per game in this server."""

    async def recent_games(
        self, guild_id: int | None, user_id: int, *, limit: int = 5
    ) -> list[RecentGame]:
        """The player's latest finished games in this server, newest first."""


class ServerSettings(Protocol):
    """What each server chose with ``/settings``: its time zone, pictures, turn timer."""

    async def get_timezone(self, guild_id: int) -> str | None:
        """The server's time zone (an IANA name), or None if it set none."""

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """Set the server's time zone (a known IANA name); None goes back to the default."""

    async def get_pictures(self, guild_id: int) -> bool:
        """Whether new tables of the server draw their cards (True unless turned off)."""

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn pictures on or off for the server's new tables."""

    async def get_timer(self, guild_id: int) -> str | None:
        """The server's turn timer for new tables (``bot.models.SERVER_CHOICES``), or None
        when it chose none (the bot's TURN_TIMEOUT then applies)."""

    async def set_timer(self, guild_id: int, choice: str | None) -> None:
        """Set the server's turn timer for new tables; None goes back to the bot's default.
        ValueError for a choice not in ``bot.models.SERVER_CHOICES``."""


class DailyDeals(Protocol):
    """The tries at each day's deal (``/daily``): claimed with their table, scored with their
    result, read by the daily boards and the streaks."""

    async def daily_try(self, day: str, game: str, user_id: int) -> DailyTry | None:
        """``user_id``'s try at ``game``'s deal of ``day``, wherever they played it."""

    async def daily_board(self, guild_id: int | None, game: str, day: str) -> list[DailyTry]:
        """Every try at ``game``'s deal of ``day`` counted on the server's board, in the
        order they were started."""

    async def daily_days(self, game: str, user_ids: Sequence[int], *, until: str,
                         limit: int = 400) -> dict[int, list[str]]:
        """The days up to ``until`` on which each of ``user_ids`` finished a try at
        ``game``'s deal, latest first, at most ``limit`` each (their streaks)."""


class Store(TablesInPlay, ResultsAndRatings, ServerSettings, DailyDeals, Protocol):
    """Everything the bot keeps: the four concerns, on one database."""

    async def close(self) -> None:
        """Wait for the writes under way, then let the database go; later calls refuse."""


__all__ = ["ChannelTaken", "DailyDeals", "DailyTaken", "ResultsAndRatings", "ServerSettings",
           "StaleTable", "Store", "StoreError", "TablesInPlay"]
