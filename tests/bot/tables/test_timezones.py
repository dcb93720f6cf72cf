"""The server clock (``bot.tables.timezones``): day and night in a server's time zone, and
the context a game is given (Fizzbin reads whether it is night)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.tables.timezones import game_context, is_night_at, known_zone, night_clock
from tests.botdriver import settings_for

MOMENT = dt.datetime(2025, 1, 15, 9, 0, tzinfo=dt.UTC)  # 22:00 in Auckland


def test_day_and_night_follow_the_zone() -> None:
    assert not is_night_at(MOMENT, "UTC")
    assert is_night_at(MOMENT, "Pacific/Auckland")
    assert is_night_at(MOMENT.replace(tzinfo=None), "Pacific/Auckland")  # naive is UTC
    # The edges: 06:00 is day, 17:59 day, 18:00 night, 05:59 night.
    for hour, minute, night in ((6, 0, False), (17, 59, False), (18, 0, True), (5, 59, True)):
        assert is_night_at(MOMENT.replace(hour=hour, minute=minute), "UTC") is night


def test_night_clock_reads_the_given_clock_each_time() -> None:
    now = [MOMENT]
    is_night = night_clock("Pacific/Auckland", lambda: now[0])
    assert is_night()
    now[0] = MOMENT - dt.timedelta(hours=8)  # 01:00 UTC, 14:00 in Auckland
    assert not is_night()


def test_game_context_takes_the_server_zone_or_the_setting(tmp_path: Any) -> None:
    settings = settings_for(tmp_path, timezone="UTC")
    clock = lambda: MOMENT  # noqa: E731
    assert game_context("fiasco", settings, timezone="Pacific/Auckland", clock=clock) == {}
    assert game_context("fizzbin", settings, timezone="Pacific/Auckland",
                        clock=clock)["is_night"]() is True
    assert game_context("fizzbin", settings, clock=clock)["is_night"]() is False


def test_known_zone() -> None:
    assert known_zone("Pacific/Auckland") == "Pacific/Auckland"
    assert known_zone(" europe/paris ") == "Europe/Paris"
    assert known_zone("utc") == "UTC"
    for bad in ("", "  ", "Mars/Olympus", "../../etc/passwd", "/etc/passwd", "Europe",
                "zone.tab", "a\x00b", "x" * 500):
        assert known_zone(bad) is None, bad
