"""Unit tests of the Settings and Help cogs' helpers (the server clock they read is
``tests/bot/tables/test_timezones.py``).

Autocomplete cannot be simulated by the fake Discord, so the autocomplete
callback is called here directly, with a stand-in for the bot.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any, get_args

from discord import app_commands

import games
from bot.tables.timers import SERVER_CHOICES
from bot.tables.timezones import known_zone, zone_names
from cogs.commands.help import PHONE_CHARS, render_help, slash_commands, usage
from cogs.commands.settings import (
    COMMON_ZONES,
    DEFAULT,
    MAX_CHOICES,
    SettingsCommands,
    TimerSetting,
    resolve_zone,
    zone_suggestions,
)
from games.core.seats import players_text

MOMENT = dt.datetime(2025, 1, 15, 9, 0, tzinfo=dt.UTC)  # 22:00 in Auckland


# --------------------------------------------------------------------------- /timezone


def test_resolve_zone_also_takes_a_city_alone() -> None:
    assert resolve_zone("auckland") == "Pacific/Auckland"
    assert resolve_zone("New York") == "America/New_York"
    assert resolve_zone("Louisville") is None  # America/ and America/Kentucky/: ambiguous
    assert resolve_zone("Atlantis") is None


# --------------------------------------------------------------------------- autocomplete


def test_zone_suggestions() -> None:
    assert zone_suggestions("") == [z for z in COMMON_ZONES if z in zone_names()]
    assert zone_suggestions("europe/pa") == ["Europe/Paris"]
    assert zone_suggestions("auck") == ["Pacific/Auckland"]
    assert zone_suggestions("new york")[0] == "America/New_York"
    assert zone_suggestions("YORK")[0] == "America/New_York"
    assert zone_suggestions("Mars/Olympus") == []
    # Prefix matches first, and regional names before legacy aliases.
    london = zone_suggestions("london")
    assert london[0] == "Europe/London"
    # "pacific" starts more than 25 regional names: the alias US/Pacific comes after them.
    pacific = zone_suggestions("pacific")
    assert len(pacific) == MAX_CHOICES and all(z.startswith("Pacific/") for z in pacific)
    assert "US/Pacific" in zone_suggestions("pacific", 1000)
    assert zone_suggestions("us/pac") == ["US/Pacific"]
    # Never more than Discord shows, every one a real zone.
    for typed in ("a", "america", "e", "gmt", "/"):
        found = zone_suggestions(typed)
        assert 0 < len(found) <= MAX_CHOICES, typed
        assert all(known_zone(z) == z for z in found)
    assert len(zone_suggestions("america", 5)) == 5


def cog_with_clock() -> SettingsCommands:
    """The cog on a stand-in bot with a fixed clock and TIMEZONE=UTC."""
    bot: Any = SimpleNamespace(
        tables=SimpleNamespace(clock=lambda: MOMENT),
        settings=SimpleNamespace(timezone="UTC"),
        ledger=None,
    )
    return SettingsCommands(bot)


async def autocomplete(current: str) -> list[app_commands.Choice[str]]:
    cog = cog_with_clock()
    # The callback as discord.py calls it: the bound method with (interaction, current).
    return await cog.zone_autocomplete(SimpleNamespace(), current)  # type: ignore[arg-type]


async def test_autocomplete_choices() -> None:
    empty = await autocomplete("")
    assert len(empty) == MAX_CHOICES
    assert [c.value for c in empty][:-1] == zone_suggestions("", MAX_CHOICES - 1)
    assert empty[-1].value == DEFAULT and "UTC" in empty[-1].name

    auck = await autocomplete("auck")
    assert [(c.name, c.value) for c in auck] == [("Pacific/Auckland (22:00)", "Pacific/Auckland")]

    many = await autocomplete("america")
    assert len(many) == MAX_CHOICES and all(c.value.startswith("America/") for c in many)
    assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in many)

    assert [c.value for c in await autocomplete("def")] == [DEFAULT]
    assert await autocomplete("Mars/Olympus") == []


def test_settings_offers_exactly_the_server_timers_and_default() -> None:
    assert get_args(TimerSetting) == (*SERVER_CHOICES, "default")


def test_the_timezone_command_is_registered_with_autocomplete() -> None:
    command = SettingsCommands.timezone
    assert command.default_permissions is not None and command.default_permissions.manage_guild
    (zone,) = command.parameters
    assert zone.name == "zone" and not zone.required and zone.autocomplete


# --------------------------------------------------------------------------- /help


def test_help_card() -> None:
    @app_commands.command(name="alpha", description="First")
    async def alpha(interaction: Any, target: str, extra: int | None = None) -> None: ...

    group = app_commands.Group(name="grp", description="A group")

    @group.command(name="sub", description="A subcommand")
    async def sub(interaction: Any) -> None: ...

    listed = slash_commands([alpha, group, alpha])
    assert [c.qualified_name for c in listed] == ["alpha", "grp sub"]
    assert usage(listed[0]) == "/alpha target [extra]"
    assert players_text(3, 3) == "exactly 3 players" and players_text(2, 6) == "2-6 players"

    embed = render_help(listed, every=True)
    text = "\n".join([embed.description or ""] + [f"{f.name}\n{f.value}" for f in embed.fields])
    assert "`/alpha target [extra]`: First" in text and "`/grp sub`: A subcommand" in text
    assert len(embed) <= 6000


def test_the_short_help_fits_a_phone_screen_and_names_every_game() -> None:
    """The first /help a player sees is a phone screen: how to start, the games, the few
    commands of a first evening, and where the rest is."""
    embed = render_help([], every=False)
    text = "\n".join([embed.description or ""] + [f"{f.name}\n{f.value}" for f in embed.fields])
    assert len(text) <= PHONE_CHARS and text.count("\n") <= 15
    for name in games.names():
        assert f"**{games.get(name).title}**" in text
    for command in ("/play <game>", "/rules <game>", "/hand", "/help all:true"):
        assert f"`{command}`" in text
    assert "Show my hand" in text and "Join" in text and "Start" in text


def test_help_splits_long_command_lists_into_fields() -> None:
    many = []
    for number in range(40):
        @app_commands.command(name=f"c{number:02d}", description="x" * 90)
        async def command(interaction: Any) -> None: ...
        many.append(command)
    embed = render_help(slash_commands(many), every=True)
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    assert len(embed) <= 6000
    assert sum(f.name.startswith("Commands") for f in embed.fields) >= 2
