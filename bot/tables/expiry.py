"""When an open table has been left alone too long, decided from stored timestamps only.

A lobby nobody touched for ``LOBBY_IDLE_MINUTES`` closes; a game in which no person
acted for ``GAME_IDLE_HOURS`` ends unrated (computers' moves do not count). Because
the decision reads only what the store keeps (``updated_at`` of a lobby, the last
person's action of a game), it is the same after a restart: an expired table is
closed instead of resumed.
"""

from __future__ import annotations

import datetime as dt

from bot.models import StoredTable, TableStatus
from bot.settings import Settings


def last_person_activity(table: StoredTable) -> dt.datetime:
    """When a person last did something at ``table`` (its opening, at the latest)."""
    if table.status is TableStatus.LOBBY:
        return table.updated_at  # every lobby change is a person's
    return table.last_person_at or table.created_at


def expiry_reason(table: StoredTable, now: dt.datetime, settings: Settings) -> str | None:
    """Why ``table`` expires at ``now``, in words for the table; None while it lives."""
    idle = now - last_person_activity(table)
    if table.status is TableStatus.LOBBY:
        limit = dt.timedelta(minutes=settings.lobby_idle_minutes)
        if idle >= limit:
            return (f"the lobby closed after {settings.lobby_idle_minutes} minutes without "
                    "anyone joining or starting")
    elif table.status is TableStatus.PLAYING:
        limit = dt.timedelta(hours=settings.game_idle_hours)
        if idle >= limit:
            return (f"the game ended unrated after {settings.game_idle_hours:g} hours without "
                    "a move by a person")
    return None


__all__ = ["expiry_reason", "last_person_activity"]
