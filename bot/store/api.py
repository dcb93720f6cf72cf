"""The store's interface: what the application asks of persistence, and how it fails.

Two implementations: :class:`bot.store.sqlite.store.SqliteStore` (the default, one process)
and :class:`bot.store.postgres.store.PostgresStore` (several processes sharing one
database); :func:`bot.store.connect.open_store` opens the one ``DATABASE_URL`` names.

What every implementation owes its callers:

- a write is durable when its await returns, and a write that raises left
  nothing behind (the callers in :mod:`bot.tables.turns` and :mod:`bot.tables.sessions`
  change memory only after a save returns);
- saving a table costs the same at its 1,000th action as at its first (store
  the new actions, not the whole record again);
- a finished game's record is kept once;
- saving a table compares versions (compare and set): a table of version ``n``
  is written only over the stored version ``n - 1`` (or as a new table), so a
  stale copy can never overwrite a newer move; it raises :class:`StaleTable`
  and writes nothing. The callers bump ``version`` on every change;
- at most one table per channel is open (lobby or playing): the schema says
  so, and opening a second raises :class:`ChannelTaken`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.models import GameResult, GameStats, LeaderRow, RecentGame, StoredTable


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


class Store(Protocol):
    async def close(self) -> None: ...

    async def save_table(self, table: StoredTable) -> None:
        """Insert or update a table, in one transaction, durable when this returns.

        The record's actions are taken to grow by appending: only those not
        stored yet are written (a record that is not an extension of the
        stored one is rewritten whole). Raises :class:`StaleTable` unless the
        stored version is ``table.version - 1`` (or there is none), and
        :class:`ChannelTaken` for a second open table in one channel; either
        way nothing is written.
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

    async def record_result(self, result: GameResult, *, table: StoredTable | None = None) -> bool:
        """Write a finished game and its rating updates in one transaction.

        With ``table``, the finished table (its record holding the final action) is
        saved in the same transaction; its record must be ``result.record``
        (ValueError otherwise), which is stored once, and it is compared like
        :meth:`save_table` (:class:`StaleTable`). Exactly once per table: a
        second call for the same ``table_id`` writes nothing and returns False.
        """

    async def leaderboard(
        self, guild_id: int | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[LeaderRow], int]:
        """A page of the server's players of ``game`` by rating, and how many there are."""

    async def stats(self, guild_id: int | None, user_id: int) -> list[GameStats]:
        """The player's games, wins and rating per game in this server."""

    async def recent_games(
        self, guild_id: int | None, user_id: int, *, limit: int = 5
    ) -> list[RecentGame]:
        """The player's latest finished games in this server, newest first."""

    async def get_timezone(self, guild_id: int) -> str | None:
        """The server's time zone (an IANA name), or None if it set none."""

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """Set the server's time zone (a known IANA name); None goes back to the default."""

    async def get_pictures(self, guild_id: int) -> bool:
        """Whether new tables of the server draw their cards (True unless turned off)."""

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn pictures on or off for the server's new tables."""

    async def get_timer(self, guild_id: int) -> str | None:
        """The server's turn timer for new tables (``bot.tables.timers.SERVER_CHOICES``), or None
        when it chose none (the bot's TURN_TIMEOUT then applies)."""

    async def set_timer(self, guild_id: int, choice: str | None) -> None:
        """Set the server's turn timer for new tables; None goes back to the bot's default.
        ValueError for a choice not in ``bot.tables.timers.SERVER_CHOICES``."""
