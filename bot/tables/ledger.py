"""The table service's read side: what has been played here, and the server's settings.

``/leaderboard``, ``/stats``, ``/settings`` and ``/timezone`` come here, never to the
store: the cogs see one table service (this ledger beside the session manager), so a
change of store (its protocol split by concern, a third backend) touches this file and
none of theirs. It reads the finished games' results and ratings (the leaderboards, a
player's statistics and latest games), and reads and writes the per-server settings that
new tables take (time zone, pictures, turn timer). Every answer is the store's, as it is
when the await returns: nothing is cached, so several processes sharing one database
agree.
"""

from __future__ import annotations

import games
from bot.models import DailyTry, GameStats, LeaderRow, RecentGame, SeasonStanding
from bot.store.api import Store
from bot.tables.daily import DailyBoard, board, streak


class Ledger:
    """Results, ratings and server settings, for the commands that show or change them."""

    def __init__(self, store: Store) -> None:
        self._store = store

    # --- what has been played ----------------------------------------------------------

    async def leaderboard(self, guild_id: int, game: str, *, offset: int, limit: int,
                          season: str | None = None) -> tuple[list[LeaderRow], int]:
        """A page of the server's players of ``game`` by rating, and how many there are:
        all time, or in ``season`` (``YYYY-MM``)."""
        return await self._store.leaderboard(guild_id, game, offset=offset, limit=limit,
                                             season=season)

    async def season_standings(self, guild_id: int, user_id: int, *, before: str,
                               limit: int) -> list[SeasonStanding]:
        """Where the player finished their rated seasons before ``before``, latest first."""
        return await self._store.season_standings(guild_id, user_id, before=before,
                                                  limit=limit)

    async def stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        """The player's games, wins and rating per game in the server."""
        return await self._store.stats(guild_id, user_id)

    async def recent_games(self, guild_id: int, user_id: int, *, limit: int
                           ) -> list[RecentGame]:
        """The player's latest finished games in the server, newest first."""
        return await self._store.recent_games(guild_id, user_id, limit=limit)

    # --- the daily deals -------------------------------------------------------------------

    async def daily_try(self, day: str, game: str, user_id: int) -> DailyTry | None:
        """``user_id``'s try at ``game``'s deal of ``day``, wherever they played it."""
        return await self._store.daily_try(day, game, user_id)

    async def daily_board(self, guild_id: int, game: str, day: str, *, asker: int,
                          today: str) -> DailyBoard:
        """The server's board of ``game``'s deal of ``day``, with streaks up to ``today``,
        and the asker's own try (who may see what is the caller's to decide)."""
        tries = await self._store.daily_board(guild_id, game, day)
        days = await self._store.daily_days(game, [t.user_id for t in tries], until=today)
        streaks = {user_id: streak(found, today) for user_id, found in days.items()}
        lines = board(tries, lower_is_better=games.get(game).lower_is_better, streaks=streaks)
        return DailyBoard(game, day, lines, await self._store.daily_try(day, game, asker))

    # --- the server's settings for new tables -------------------------------------------

    async def timezone(self, guild_id: int) -> str | None:
        """The zone the server chose (``/timezone``), or None: the bot's TIMEZONE applies.

        As stored, even a zone this machine no longer knows; the zone a new game really
        uses is :meth:`bot.tables.lobby.Lobby.timezone_of`.
        """
        return await self._store.get_timezone(guild_id)

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """Keep ``zone`` (a known IANA name) for the server; None goes back to the default."""
        await self._store.set_timezone(guild_id, zone)

    async def pictures(self, guild_id: int) -> bool:
        """Whether the server's new tables draw their cards (True unless turned off)."""
        return await self._store.get_pictures(guild_id)

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        await self._store.set_pictures(guild_id, on)

    async def timer(self, guild_id: int) -> str | None:
        """The server's turn timer for new tables, or None: the bot's TURN_TIMEOUT applies."""
        return await self._store.get_timer(guild_id)

    async def set_timer(self, guild_id: int, choice: str | None) -> None:
        """Keep one of :data:`bot.tables.timers.SERVER_CHOICES` (None: back to the default)."""
        await self._store.set_timer(guild_id, choice)


__all__ = ["Ledger"]
