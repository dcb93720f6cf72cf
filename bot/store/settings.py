"""Server settings on any backend: one row per server, one column per setting.

:class:`ColumnSettings` implements :class:`bot.store.api.ServerSettings` in terms of two
methods a backend gives, reading one column of ``guild_settings`` and upserting one
(:func:`bot.store.rows.setting_upsert`); the SQLite and PostgreSQL stores both inherit it.
"""

from __future__ import annotations

from typing import Any

from bot.store.rows import check_timer


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


__all__ = ["ColumnSettings"]
