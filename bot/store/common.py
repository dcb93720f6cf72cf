"""What every backend's store does the same way above its SQL, written once.

:class:`ColumnSettings` implements :class:`bot.store.api.ServerSettings` in terms of two
methods a backend gives, reading one column of ``guild_settings`` and upserting one
(:func:`bot.store.rows.setting_upsert`). :class:`ResultQueries` implements the reading
half of :class:`bot.store.api.ResultsAndRatings` in terms of three queries a backend gives,
rows in, models out (:mod:`bot.store.rows`). The SQLite and PostgreSQL stores both inherit
them; a third backend would too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.models import GameStats, LeaderRow, RecentGame, SeasonStanding
from bot.store.rows import (
    check_page,
    check_timer,
    game_stats,
    guild_key,
    leader_row,
    recent_game,
    season_standing,
)


class ResultQueries:
    """``/leaderboard`` and ``/stats``: a backend's rows made into the models."""

    async def _board_rows(self, key: tuple[int, str], offset: int, limit: int
                          ) -> tuple[Sequence[Any], int]:
        """The rows of one page of the board ``key`` (server, game) and the board's size.
        Any page must cost about what the first does (the rating buckets find it)."""
        raise NotImplementedError

    async def _season_rows(self, key: tuple[int, str], season: str, offset: int, limit: int
                           ) -> tuple[Sequence[Any], int]:
        """The rows of one page of ``season``'s board ``key`` (server, game), and its size."""
        raise NotImplementedError

    async def _standing_rows(self, guild: int, user_id: int, before: str, limit: int
                             ) -> Sequence[Any]:
        """The player's rated seasons in the server before ``before``, latest first, each
        with its place and how many were rated (:func:`bot.store.rows.season_standing`)."""
        raise NotImplementedError

    async def _stats_rows(self, guild: int, user_id: int) -> Sequence[Any]:
        """The player's rows of ``ratings`` in the server with a game or more, most played
        first, then by game."""
        raise NotImplementedError

    async def _recent_rows(self, guild: int, user_id: int, limit: int) -> Sequence[Any]:
        """The player's latest ``limit`` results in the server, newest first: table id, game,
        end, their best place, score, and how many played."""
        raise NotImplementedError

    async def leaderboard(
        self, guild_id: int | None, game: str, *, offset: int = 0, limit: int = 10,
        season: str | None = None,
    ) -> tuple[list[LeaderRow], int]:
        """A page of the server's rated players of ``game``, and how many there are: all
        time, or in ``season`` (``YYYY-MM``).

        Ordered by the rating's ordinal (best first), then wins, then games,
        then user id so pages never overlap or skip a player. Only players with
        at least one rated game are listed.
        """
        check_page(offset, limit)
        key = (guild_key(guild_id), game)
        rows, total = await (self._board_rows(key, offset, limit) if season is None
                             else self._season_rows(key, season, offset, limit))
        return [leader_row(row) for row in rows], total

    async def season_standings(self, guild_id: int | None, user_id: int, *, before: str,
                               limit: int = 4) -> list[SeasonStanding]:
        """How the player's rated seasons before ``before`` ended, latest first."""
        check_page(0, limit)
        rows = await self._standing_rows(guild_key(guild_id), user_id, before, limit)
        return [season_standing(row) for row in rows]

    async def stats(self, guild_id: int | None, user_id: int) -> list[GameStats]:
        """The player's games, wins and rating per game played in this server.

        Most played game first. ``rating`` is None for a game the player has
        only played without another human.
        """
        return [game_stats(row) for row in await self._stats_rows(guild_key(guild_id), user_id)]

    async def recent_games(
        self, guild_id: int | None, user_id: int, *, limit: int = 5
    ) -> list[RecentGame]:
        """The player's latest finished games in this server, newest first."""
        check_page(0, limit)
        rows = await self._recent_rows(guild_key(guild_id), user_id, limit)
        return [recent_game(row) for row in rows]


class ColumnSettings:
    """``/settings`` kept in ``guild_settings``: time zone, pictures, turn timer."""

    async def _setting(self, guild_id: int, column: str) -> Any:
        """One column of the server's row (None without a row); ``column`` is ours."""
        raise NotImplementedError

    async def _set(self, guild_id: int, column: str, value: object) -> None:
        """Upsert one column of the server's row, durable when this returns."""
        raise NotImplementedError

    async def get_timezone(self, guild_id: int) -> str | None:
        """The server's time zone (an IANA name), or None if it set none."""
        zone = await self._setting(guild_id, "timezone")
        return None if zone is None else str(zone)

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """Set the server's time zone; None goes back to the bot's default.

        The zone is stored as given: the caller checks it is a known IANA name.
        """
        await self._set(guild_id, "timezone", zone)

    async def get_pictures(self, guild_id: int) -> bool:
        """Whether the server's new tables draw their cards (True unless turned off)."""
        on = await self._setting(guild_id, "pictures")
        return True if on is None else bool(on)

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn pictures on or off for the server's new tables."""
        await self._set(guild_id, "pictures", on)

    async def get_timer(self, guild_id: int) -> str | None:
        """The server's turn timer for new tables (one of ``bot.models.SERVER_CHOICES``), or
        None if it chose none (the bot's TURN_TIMEOUT applies)."""
        timer = await self._setting(guild_id, "timer")
        return None if timer is None else str(timer)

    async def set_timer(self, guild_id: int, choice: str | None) -> None:
        """Set the server's turn timer for new tables; None goes back to the bot's default.

        ValueError for a choice that is not one of ``bot.models.SERVER_CHOICES`` (the
        schema refuses it too).
        """
        check_timer(choice)
        await self._set(guild_id, "timer", choice)


__all__ = ["ColumnSettings", "ResultQueries"]
