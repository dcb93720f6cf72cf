"""``/timezone`` and ``/help`` through the fake Discord.

The bot's clock is fixed (``clock=``) so day and night are certain: at 09:00 UTC
it is day in UTC and 22:00 (night) in Auckland, which is what the Fizzbin tests
below rely on.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

import games
from bot.tables.session import Session
from bot.tables.timezones import is_night_at
from cogs.commands.help import PHONE_CHARS
from tests.answers import answered_privately
from tests.botdriver import open_table, running_bot, wait_settled
from tests.fakediscord import FakeDiscord, InteractionResult
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeUser

MOMENT = dt.datetime(2025, 1, 15, 9, 0, tzinfo=dt.UTC)
"""09:00 UTC: day in UTC, 22:00 NZDT (night) in Auckland, 18:00 (night) in Tokyo."""
AUCKLAND = "Pacific/Auckland"
MANAGE_GUILD = discord.Permissions(manage_guild=True).value


def fixed_clock() -> dt.datetime:
    return MOMENT


@dataclass
class Servers:
    """The fixture world plus an admin, and a second server with its own member."""

    world: FakeWorld
    admin: FakeUser  # Manage Server in the first server
    other: FakeGuild
    other_channel: FakeChannel
    other_user: FakeUser  # Manage Server in the second server

    @property
    def fake(self) -> FakeDiscord:
        return self.world.fake


@pytest.fixture
def servers(fake_world: FakeWorld) -> Servers:
    fake = fake_world.fake
    admin = fake.add_user("dana", guild=fake_world.guild, permissions=MANAGE_GUILD)
    other = fake.add_guild("Other Guild")
    other_channel = fake.add_channel(other, "games")
    other_user = fake.add_user("olga", guild=other, permissions=MANAGE_GUILD)
    return Servers(fake_world, admin, other, other_channel, other_user)


async def timezone(fake: FakeDiscord, user: FakeUser, channel: FakeChannel,
                   zone: str | None = None) -> InteractionResult:
    """``/timezone`` (with ``zone`` if given); always answered privately."""
    result = await fake.slash(user, channel, "timezone", {} if zone is None else {"zone": zone})
    assert answered_privately(result), result

    return result


def first_night(session: Session) -> bool:
    record = session.table.record
    assert record is not None
    night = record["deals"][0]["night"]
    assert isinstance(night, bool)
    return night


# --------------------------------------------------------------------------- /timezone


async def test_timezone_needs_manage_server_to_set(servers: Servers, tmp_path: Path) -> None:
    world, fake = servers.world, servers.fake
    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        # Discord hides the command from members without Manage Server by default ...
        synced = fake.commands[None]["timezone"]
        assert int(synced["default_member_permissions"]) == MANAGE_GUILD
        # ... but admins can change that, so the bot checks again: nobody else sets it.
        for member in (world.alice, world.carol):  # carol has Manage Messages only
            refused = await timezone(fake, member, world.table, AUCKLAND)
            assert "Manage Server" in refused.text, refused.text
            assert AUCKLAND not in refused.text
        assert await bot.store.get_timezone(world.guild.id) is None
        shown = await timezone(fake, world.alice, world.table)
        assert "`UTC`" in shown.text and "default" in shown.text, shown.text


async def test_an_admin_sets_the_zone_and_timezone_shows_it(
    servers: Servers, tmp_path: Path
) -> None:
    world, fake = servers.world, servers.fake
    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        before = await timezone(fake, world.alice, world.table)
        assert "the bot's default time zone, `UTC`" in before.text, before.text
        assert "09:00" in before.text and "by **day**" in before.text, before.text

        done = await timezone(fake, servers.admin, world.table, AUCKLAND)
        assert f"time zone is now `{AUCKLAND}`" in done.text, done.text
        assert "22:00" in done.text and "by **night**" in done.text, done.text
        assert await bot.store.get_timezone(world.guild.id) == AUCKLAND

        shown = await timezone(fake, world.alice, world.table)
        assert f"This server's time zone is `{AUCKLAND}`" in shown.text, shown.text
        assert "22:00" in shown.text and "by **night**" in shown.text, shown.text
        assert "Q and 4 are special" in shown.text

        # A name in the wrong case is understood and stored as IANA spells it.
        await timezone(fake, servers.admin, world.table, "  europe/PARIS ")
        assert await bot.store.get_timezone(world.guild.id) == "Europe/Paris"

        # "default" goes back to the TIMEZONE setting.
        reset = await timezone(fake, servers.admin, world.table, "default")
        assert "default time zone, `UTC`" in reset.text, reset.text
        assert await bot.store.get_timezone(world.guild.id) is None


async def test_an_unknown_zone_is_refused_clearly(servers: Servers, tmp_path: Path) -> None:
    world, fake = servers.world, servers.fake
    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        await timezone(fake, servers.admin, world.table, AUCKLAND)
        for typed in ("Mars/Olympus_Mons", "Europe/Pariss", "../../etc/passwd", "GMT+25"):
            refused = await timezone(fake, servers.admin, world.table, typed)
            assert "I do not know the time zone" in refused.text, refused.text
            assert "Nothing was changed" in refused.text
            assert await bot.store.get_timezone(world.guild.id) == AUCKLAND
        typo = await timezone(fake, servers.admin, world.table, "Europe/Pariss")
        assert "Did you mean `Europe/Paris`" in typo.text, typo.text
        # A mention typed as a zone is quoted back without pinging anyone.
        ping = await timezone(fake, servers.admin, world.table, "@everyone")
        assert ping.message is not None
        assert (ping.message.allowed_mentions or {}).get("parse") == []


async def test_a_fizzbin_game_uses_its_server_zone(servers: Servers, tmp_path: Path) -> None:
    """Auckland's night at 09:00 UTC, where UTC would give day; the other server keeps UTC."""
    world, fake = servers.world, servers.fake
    assert is_night_at(MOMENT, AUCKLAND) and not is_night_at(MOMENT, "UTC")
    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        await timezone(fake, servers.admin, world.table, AUCKLAND)

        here = await open_table(fake, bot, world.alice, world.table, "fizzbin", computers=1)
        stored = await bot.store.get_table(here.id)
        assert stored is not None and stored.record is not None
        assert stored.record["deals"][0]["night"] is True
        assert stored.timezone == AUCKLAND

        there = await open_table(fake, bot, servers.other_user, servers.other_channel,
                                 "fizzbin", computers=1)
        assert first_night(there) is False
        assert there.table.timezone == "UTC"
        assert await bot.store.get_timezone(servers.other.id) is None
        shown = await timezone(fake, servers.other_user, servers.other_channel)
        assert "`UTC`" in shown.text and "by **day**" in shown.text, shown.text


async def test_a_game_keeps_its_zone_after_a_change_and_a_restart(
    servers: Servers, tmp_path: Path
) -> None:
    """Later deals read the zone the game started with, even after /timezone and a restart."""
    world, fake = servers.world, servers.fake
    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        await timezone(fake, servers.admin, world.table, AUCKLAND)
        session = await open_table(fake, bot, world.alice, world.table, "fizzbin",
                                   computers=1)
        assert first_night(session) is True
        table_id = session.id
        changed = await timezone(fake, servers.admin, world.table, "UTC")
        assert "tables already playing keep the zone they started with" in changed.text
        game = session.game
        assert game is not None
        assert game.is_night() is True  # type: ignore[attr-defined]  # the next deal's clock
        # A new game follows the new zone.
        newer = await open_table(fake, bot, world.alice, world.lobby, "fizzbin", computers=1)
        assert first_night(newer) is False

    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        resumed = bot.tables.registry.get(table_id)
        await wait_settled(bot, resumed)
        assert resumed.table.timezone == AUCKLAND
        assert resumed.game is not None
        assert resumed.game.is_night() is True  # type: ignore[attr-defined]


async def test_timezone_setting_is_the_default_for_servers_without_one(
    servers: Servers, tmp_path: Path
) -> None:
    world, fake = servers.world, servers.fake
    async with running_bot(fake, tmp_path, clock=fixed_clock, timezone="Asia/Tokyo") as bot:
        shown = await timezone(fake, world.alice, world.table)
        assert "the bot's default time zone, `Asia/Tokyo`" in shown.text, shown.text
        session = await open_table(fake, bot, world.alice, world.table, "fizzbin", computers=1)
        assert first_night(session) is True  # 18:00 in Tokyo
        assert session.table.timezone == "Asia/Tokyo"


# --------------------------------------------------------------------------- /help


async def test_help_lists_every_command_and_game(servers: Servers, tmp_path: Path) -> None:
    world, fake = servers.world, servers.fake
    async with running_bot(fake, tmp_path, clock=fixed_clock) as bot:
        short = await fake.slash(world.alice, world.table, "help")
        assert answered_privately(short), short
        assert len(short.text) <= PHONE_CHARS and "`/help all:true`" in short.text
        for name in games.names():
            assert f"**{games.get(name).title}**" in short.text
        assert "exactly 3 players" in short.text

        result = await fake.slash(world.alice, world.table, "help", {"all": True})
        assert answered_privately(result), result
        text = result.text
        registered = {c.name for c in bot.tree.get_commands()}
        synced = set(fake.commands[None])
        assert registered == synced
        assert {"help", "timezone", "play", "stats", "leaderboard", "rules"} <= registered
        for name in registered:
            assert f"`/{name}" in text, f"/{name} missing from /help:\n{text}"
        for name in games.names():
            assert f"`/play {name}" in text
        assert "`/kick [player] [seat]`" in text and "`/timezone [zone]`" in text
        assert len(text) < 6000
