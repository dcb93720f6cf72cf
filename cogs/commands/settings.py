"""The Settings cog: ``/timezone``, the server's clock for Fizzbin's day and night, and
``/settings``, the server's other settings for new tables (``pictures:on|off``, and
``timer:off|30s|1m|2m|5m|default``, the turn timer; ``default`` is the bot's
``TURN_TIMEOUT``).

``/timezone`` alone shows (privately) the server's zone, the time there and
whether new Fizzbin hands are dealt by day or by night. ``/timezone zone:<name>``
sets it: the command is hidden by default from members without Manage Server
(``default_permissions``), and since a server's admins can change who sees a
command, the permission is checked again here. ``zone:default`` goes back to
the bot's ``TIMEZONE`` setting. Zones are IANA names (``Europe/Paris``, in any
case, or a city alone such as ``auckland`` when only one zone ends with it),
checked against :mod:`zoneinfo`'s names, stored as IANA spells them, and offered
by autocomplete with the time there now.

New games read the zone when they start; a table already playing keeps the zone
it started with (see :meth:`bot.tables.lobby.Lobby.start`).
"""

from __future__ import annotations

import datetime as dt
import difflib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.ledger import Ledger
from bot.tables.timers import choice_words, seconds_for
from bot.tables.timezones import is_night_at, known_zone, local_time, zone_names
from cogs.answers import APOLOGY, answered_on_failure, say
from cogs.upkeep.cooldowns import writes

if TYPE_CHECKING:
    from bot.app import FivefoldBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete suggestions."""
DEFAULT = "default"
"""The ``zone`` value that removes the server's zone (back to the TIMEZONE setting)."""
SHOWN_LENGTH = 64
"""A zone typed by someone is echoed back at most this long."""

COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome",
    "Europe/Warsaw", "Europe/Helsinki", "Europe/Moscow", "Africa/Lagos", "Africa/Johannesburg",
    "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
    "America/Toronto", "America/Mexico_City", "America/Sao_Paulo", "Asia/Kolkata",
    "Asia/Shanghai", "Asia/Tokyo", "Asia/Singapore", "Australia/Sydney", "Pacific/Auckland",
)
"""Offered before anything is typed (24, leaving room for ``default``)."""

REGIONS = frozenset({"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic",
                     "Australia", "Europe", "Indian", "Pacific"})
"""The areas of the IANA names people use; legacy aliases (``US/Pacific``, ``NZ``,
``Etc/GMT+5``) still match but come after them."""

SETTINGS_HELP = ("Members with Manage Server change them, e.g. `/settings pictures:off` or "
                 "`/settings timer:5m`; one table can choose with `/play ... pictures:` and "
                 "`/play ... timer:`.")
TimerSetting = Literal["off", "30s", "1m", "2m", "5m", "default"]
"""``/settings timer:``: :data:`bot.tables.timers.SERVER_CHOICES`, or back to the bot's default."""

FIZZBIN_DAY = "by **day** (K and 2 are special; Q and 4 are forced)"
FIZZBIN_NIGHT = "by **night** (Q and 4 are special; K and 2 are forced)"


# --------------------------------------------------------------------------- zones


def _words(text: str) -> str:
    """``text`` folded for matching: case-insensitive, spaces as underscores."""
    return text.strip().casefold().replace(" ", "_")


def zone_suggestions(current: str, limit: int = MAX_CHOICES) -> list[str]:
    """The IANA zone names best matching what has been typed, at most ``limit``.

    Nothing typed: common zones. Otherwise names starting with the text first
    (``europe/pa``), then names with a part starting with it (``auck`` finds
    ``Pacific/Auckland``, ``york`` ``America/New_York``), then names containing
    it; within each, the regional names before legacy aliases, then by name.
    Case and spaces do not matter (``new york``).
    """
    wanted = _words(current)
    zones = zone_names()
    if not wanted:
        return [zone for zone in COMMON_ZONES if zone in zones][:limit]
    ranked: list[tuple[int, int, str]] = []
    for zone in zones:
        name = zone.casefold()
        if name.startswith(wanted):
            rank = 0
        elif any(part.startswith(wanted) for part in _parts(name)):
            rank = 1
        elif wanted in name:
            rank = 2
        else:
            continue
        legacy = 0 if zone.split("/", 1)[0] in REGIONS or zone == "UTC" else 1
        ranked.append((rank, legacy, zone))
    ranked.sort()
    return [zone for _, _, zone in ranked[:limit]]


def _parts(name: str) -> list[str]:
    """The pieces of a zone name a word may start: after each ``/``, ``_`` or ``-``."""
    parts = [name]
    for index, char in enumerate(name):
        if char in "/_-" and index + 1 < len(name):
            parts.append(name[index + 1:])
    return parts


def resolve_zone(typed: str) -> str | None:
    """The zone ``typed`` means, spelled as IANA does, or None.

    An IANA name in any case (``europe/paris``), or a city alone when exactly one
    regional name ends with it (``auckland``, ``new york``).
    """
    zone = known_zone(typed)
    if zone is not None:
        return zone
    city = _words(typed)
    if not city or "/" in city:
        return None
    matches = [z for z in zone_names()
               if z.split("/", 1)[0] in REGIONS and z.rsplit("/", 1)[-1].casefold() == city]
    return matches[0] if len(matches) == 1 else None


def shown(text: str) -> str:
    """Something typed by someone, safe to quote back in code formatting."""
    text = " ".join(text.split()).replace("`", "'")
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 1] + "…"


def clock_line(zone: str, moment: dt.datetime) -> str:
    """The time in ``zone`` at ``moment``, and Fizzbin's day or night there."""
    local = local_time(moment, zone)
    when = FIZZBIN_NIGHT if is_night_at(moment, zone) else FIZZBIN_DAY
    return (f"It is {local:%H:%M} ({local:%a}, {local.tzname()}) there, so new Fizzbin "
            f"hands are dealt {when}. Day is 06:00-17:59.")


# --------------------------------------------------------------------------- the cog


@dataclass(frozen=True)
class Refusals:
    """What a setting command says where it cannot serve: outside a server, and to a member
    without Manage Server asking for a change."""

    elsewhere: str
    not_allowed: str


TIMEZONE_REFUSALS = Refusals(
    "Time zones are set per server; use this in one.",
    "Only members with the **Manage Server** permission can change the time zone. "
    "`/timezone` alone shows it.")
SETTINGS_REFUSALS = Refusals(
    "Settings are per server; use this in one.",
    "Only members with the **Manage Server** permission can change the settings. "
    "`/settings` alone shows them.")
SettingText = Callable[[int], Awaitable[str]]
"""What a setting command says in a server (its id given): a description, or a change made."""


class SettingsCommands(commands.Cog):
    """Per-server settings: the time zone, pictures on or off, the turn timer."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot
        self.ledger: Ledger = bot.ledger

    def now(self) -> dt.datetime:
        """The bot's clock (the one games read; tests fix it)."""
        return self.bot.tables.clock()

    async def answer(self, interaction: Interaction, command: str, refusals: Refusals, *,
                     show: SettingText, change: SettingText | None) -> None:
        """The one course of ``/timezone`` and ``/settings``: in a server only; nothing asked
        shows the settings to anyone; a ``change`` needs Manage Server, checked here again
        since a server's admins can show the command to others; a failure says that nothing
        was changed."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await say(interaction, refusals.elsewhere)
            return
        async with answered_on_failure(interaction, command,
                                       apology=f"{APOLOGY} Nothing was changed."):
            if change is None:
                text = await show(guild_id)
            elif not interaction.permissions.manage_guild:
                text = refusals.not_allowed
            else:
                text = await change(guild_id)
            await say(interaction, text)

    @app_commands.command(
        name="timezone",
        description="This server's time zone for Fizzbin's day and night; set it (Manage Server)")
    @app_commands.describe(zone="An IANA time zone such as Europe/Paris or America/New_York; "
                                "'default' for the bot's default")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @writes()
    async def timezone(self, interaction: Interaction,
                       zone: app_commands.Range[str, 1, 100] | None = None) -> None:
        by = interaction.user.id
        await self.answer(interaction, "/timezone", TIMEZONE_REFUSALS, show=self.describe,
                          change=None if zone is None
                          else lambda guild_id: self.set_zone(guild_id, zone, by=by))

    async def describe(self, guild_id: int) -> str:
        """The answer of ``/timezone`` alone: the zone, whose it is, and the clock there."""
        own = await self.ledger.timezone(guild_id)
        zone = await self.bot.tables.lobby.timezone_of(guild_id)
        if own is None:
            whose = (f"This server uses the bot's default time zone, `{zone}` "
                     "(it has not set its own).")
        elif zone != own:
            whose = (f"This server's time zone `{shown(own)}` is unknown to me now, so the "
                     f"bot's default `{zone}` is used.")
        else:
            whose = f"This server's time zone is `{zone}`."
        return (f"{whose}\n{clock_line(zone, self.now())}\n"
                "Members with Manage Server change it with `/timezone zone:<name>`.")

    async def set_zone(self, guild_id: int, typed: str, *, by: int) -> str:
        """``/timezone zone:...`` by a member allowed to: checked, stored and confirmed, or
        refused with the reason."""
        if _words(typed) == DEFAULT:
            await self.ledger.set_timezone(guild_id, None)
            log.info("server %s: time zone reset to the default by %s", guild_id, by)
            fallback = self.bot.settings.timezone
            return (f"This server now uses the bot's default time zone, "
                    f"`{fallback}`.\n{clock_line(fallback, self.now())}")
        zone = resolve_zone(typed)
        if zone is None:
            return unknown_zone_text(typed)
        await self.ledger.set_timezone(guild_id, zone)
        log.info("server %s: time zone set to %s by %s", guild_id, zone, by)
        return (f"This server's time zone is now `{zone}`.\n"
                f"{clock_line(zone, self.now())}\n"
                "New Fizzbin games use it; tables already playing keep the zone they started "
                "with.")

    @app_commands.command(
        name="settings",
        description="This server's Fivefold settings; change them (Manage Server)")
    @app_commands.describe(pictures="Draw the cards of new tables as pictures (on) or show text "
                                    "only (off)",
                           timer="Time for each turn at new tables before a computer plays it; "
                                 "default: the bot's")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @writes()
    async def settings(self, interaction: Interaction,
                       pictures: Literal["on", "off"] | None = None,
                       timer: TimerSetting | None = None) -> None:
        by = interaction.user.id
        await self.answer(interaction, "/settings", SETTINGS_REFUSALS, show=self.settings_text,
                          change=None if pictures is None and timer is None
                          else lambda guild_id: self.set_choices(guild_id, pictures, timer, by=by))

    async def set_choices(self, guild_id: int, pictures: Literal["on", "off"] | None,
                          timer: TimerSetting | None, *, by: int) -> str:
        """``/settings`` with a choice, by a member allowed to: stored, then confirmed."""
        said = []
        if pictures is not None:
            await self.ledger.set_pictures(guild_id, pictures == "on")
            log.info("server %s: pictures %s by %s", guild_id, pictures, by)
            said.append(f"Pictures are now **{pictures}** for new tables here.")
        if timer is not None:
            choice = None if timer == DEFAULT else timer
            await self.ledger.set_timer(guild_id, choice)
            log.info("server %s: timer %s by %s", guild_id, timer, by)
            said.append("The turn timer of new tables here is now **"
                        f"{choice_words(choice, self.bot.settings.turn_timeout)}**.")
        said.append("Tables already open keep theirs; `/play ... pictures:` and "
                    "`/play ... timer:` choose for one table.")
        return " ".join(said)

    async def settings_text(self, guild_id: int) -> str:
        """The answer of ``/settings`` alone: every setting of the server, and how to change."""
        on = await self.ledger.pictures(guild_id)
        timer = await self.ledger.timer(guild_id)
        seconds = self.bot.settings.turn_timeout if timer is None else seconds_for(timer)
        return (f"Pictures: **{'on' if on else 'off'}**: new tables "
                + ("draw the table and each hand as pictures, the text staying below."
                   if on else "show their cards as text only.")
                + "\nTurn timer: **"
                + choice_words(timer, self.bot.settings.turn_timeout)
                + ("** for each person's turn at new tables, then a computer plays it."
                   if seconds > 0 else "**: new tables time nobody's turn.")
                + f"\nTime zone: see `/timezone`.\n{SETTINGS_HELP}")

    @timezone.autocomplete("zone")
    async def zone_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """Zone names matching what is typed, each with the time there now."""
        moment = self.now()
        offer_default = DEFAULT.startswith(_words(current)) if current.strip() else True
        names = zone_suggestions(current, MAX_CHOICES - (1 if offer_default else 0))
        choices = [app_commands.Choice(name=f"{zone} ({local_time(moment, zone):%H:%M})",
                                       value=zone) for zone in names]
        if offer_default:
            fallback = self.bot.settings.timezone
            choices.append(app_commands.Choice(
                name=f"default (the bot's default, {fallback})", value=DEFAULT))
        return choices


def unknown_zone_text(typed: str) -> str:
    """Why ``typed`` is refused, with the closest zone names if any."""
    text = (f"I do not know the time zone `{shown(typed)}`. Use an IANA name such as "
            "`Europe/Paris`, `America/New_York` or `UTC` (pick one from the suggestions, or see "
            "<https://en.wikipedia.org/wiki/List_of_tz_database_time_zones>). "
            "Nothing was changed.")
    close = zone_suggestions(typed, 3) or difflib.get_close_matches(
        typed.strip(), sorted(zone_names()), n=3, cutoff=0.8)
    if close:
        text += " Did you mean " + ", ".join(f"`{zone}`" for zone in close) + "?"
    return text


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(SettingsCommands(bot))
