"""A server's time zone: the zone names the bot knows, day and night there, and what a
game takes from it beyond its record (per-game context providers; the clock itself is
:mod:`bot.clock`).

The rules core takes such context as keyword arguments of ``games.new_game``
(Fizzbin's clock, for example). Each provider maps the table's context (its
server's time zone and the bot's clock) to those arguments; games without an
entry get none.

Fizzbin's day and night follow the clock in the server's time zone (set with
``/timezone``; the ``TIMEZONE`` setting for a server that set none). The zone
is fixed when a game starts, so every deal of one game reads the same zone.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import zoneinfo
from collections.abc import Callable
from typing import Any

from bot.clock import Clock, utc_now
from bot.settings import Settings

log = logging.getLogger(__name__)

DAY_STARTS = dt.time(6, 0)
NIGHT_STARTS = dt.time(18, 0)

def local_time(moment: dt.datetime, timezone: str) -> dt.datetime:
    """``moment`` (naive means UTC) on the wall clock of ``timezone``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(zoneinfo.ZoneInfo(timezone))


def is_night_at(moment: dt.datetime, timezone: str) -> bool:
    """Whether ``moment`` is night (18:00 to 05:59) in ``timezone``."""
    return not DAY_STARTS <= local_time(moment, timezone).time() < NIGHT_STARTS


def night_clock(timezone: str, clock: Clock | None = None) -> Callable[[], bool]:
    """A callable telling whether it is night now (18:00 to 05:59) in ``timezone``.

    The zone is checked here (``zoneinfo.ZoneInfoNotFoundError`` if unknown), so a
    game never meets a bad zone in the middle of play.
    """
    zoneinfo.ZoneInfo(timezone)
    read = clock or utc_now

    def is_night() -> bool:
        return is_night_at(read(), timezone)

    return is_night


Provider = Callable[[str, Clock | None], dict[str, Any]]

_PROVIDERS: dict[str, Provider] = {
    "fizzbin": lambda zone, clock: {"is_night": night_clock(zone, clock)},
}


def game_context(game: str, settings: Settings, *, timezone: str | None = None,
                 clock: Clock | None = None) -> dict[str, Any]:
    """The keyword arguments ``game`` takes from the application (often none).

    ``timezone`` is the server's zone (``settings.timezone`` when None); ``clock``
    the bot's clock (the real one when None).
    """
    provider = _PROVIDERS.get(game)
    if provider is None:
        return {}
    return provider(timezone or settings.timezone, clock)


def usable_zone(zone: str | None, settings: Settings, whose: str) -> str:
    """``zone`` if zoneinfo loads it here, else (with a warning naming ``whose`` zone it is)
    the TIMEZONE setting."""
    if zone is None:
        return settings.timezone
    if not loads(zone):
        log.warning("%s has the unknown time zone %r; using %s", whose, zone, settings.timezone)
        return settings.timezone
    return zone


def known_zone(name: str) -> str | None:
    """The IANA zone ``name`` names, spelled canonically (``europe/paris`` gives
    ``Europe/Paris``), or None if it is not one of this machine's zone names."""
    name = name.strip()
    zones = zone_names()
    if not name:
        return None
    if name in zones:
        return name
    folded = _folded_zone_names().get(name.casefold())
    if folded is not None:
        return folded
    if not zones and loads(name):  # no list of names here: whatever zoneinfo loads
        return name
    return None


def loads(zone: str) -> bool:
    """Whether :mod:`zoneinfo` loads ``zone`` (any name or path it accepts)."""
    try:
        zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


@functools.cache
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (``zoneinfo.available_timezones()``, read once)."""
    return frozenset(zoneinfo.available_timezones())


@functools.cache
def _folded_zone_names() -> dict[str, str]:
    return {zone.casefold(): zone for zone in zone_names()}
