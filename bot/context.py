"""What the application passes to a game beyond its record: per-game context providers.

The rules core takes such context as keyword arguments of ``games.new_game``
(Fizzbin's clock, for example). Each provider maps the settings to those
arguments; games without an entry get none.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable
from typing import Any

from bot.settings import Settings

DAY_STARTS = dt.time(6, 0)
NIGHT_STARTS = dt.time(18, 0)


def night_clock(timezone: str) -> Callable[[], bool]:
    """A callable telling whether it is night now (18:00 to 05:59) in ``timezone``."""
    zone = zoneinfo.ZoneInfo(timezone)

    def is_night() -> bool:
        now = dt.datetime.now(zone).time()
        return not DAY_STARTS <= now < NIGHT_STARTS

    return is_night


_PROVIDERS: dict[str, Callable[[Settings], dict[str, Any]]] = {
    "fizzbin": lambda settings: {"is_night": night_clock(settings.timezone)},
}


def game_context(game: str, settings: Settings) -> dict[str, Any]:
    """The keyword arguments ``game`` takes from the application (often none)."""
    provider = _PROVIDERS.get(game)
    return provider(settings) if provider is not None else {}
