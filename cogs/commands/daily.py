"""The Daily cog: ``/daily <game>``, today's deal, and ``/daily board``, its board here.

``/daily <game>`` (one subcommand per game, like ``/play``) plays today's deal of that game
(:mod:`bot.tables.daily`) where nobody else sees its cards: a private thread of this
channel holding only the person and the bot, when the bot may create one (*Create Private
Threads* and *Send Messages in Threads* here); otherwise a direct message, announced
first so that a person whose messages are closed is told before their try is used (with
several processes, only the one holding shard 0, which Discord sends direct messages' clicks
to, falls back to them). The
table starts at once, its turns untimed; the person plays it through ``Show my hand`` as
any table. One try per person, game and day; the command has the cooldown of every
command that writes.

``/daily board game:<game> [day:today|yesterday]`` answers privately. Today's board only
to a person whose own try is over (others see how many have played); yesterday's to
anyone, with the record of the best game on it, unless their own try of yesterday is
still being played.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.models import DailyTry
from bot.tables.daily import (
    ALREADY,
    BOARD_HINT,
    DailyBoard,
    daily_seats,
    day_before,
    day_of,
    next_deal_at,
)
from bot.tables.errors import TABLE_HERE, TableError
from cogs.answers import NO_MENTIONS, answered_on_failure, say
from cogs.commands.play import game_choices
from cogs.render.daily import render_board, render_closed_board
from cogs.render.export import finished_record_file
from cogs.render.text import display_name, jump_url, sentence
from cogs.upkeep.cooldowns import writes
from cogs.upkeep.permissions import PRIVATE_THREAD
from cogs.upkeep.publisher import painted, render_message

if TYPE_CHECKING:
    from bot.app import FivefoldBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

NO_PLACE = ("I can neither open a private thread here (I need **Create Private Threads** and "
            "**Send Messages in Threads**) nor send you a direct message (your privacy "
            "settings may refuse them). Try in another channel, or allow direct messages "
            "from this server's members; your try is still yours.")
DM_BUSY = ("your other daily deal is still open in our direct messages; finish it there "
           "first (or play this one from a channel where I may open a private thread)")


@dataclass(frozen=True)
class Place:
    """Where a daily deal is played: a private thread, or a direct message."""

    channel: discord.Thread | discord.DMChannel
    in_dm: bool

    @property
    def words(self) -> str:
        return "in our direct messages" if self.in_dm else f"in <#{self.channel.id}>"

    async def give_up(self) -> None:
        """The deal could not be opened there after all: a thread is deleted (a direct
        message says nothing more)."""
        if isinstance(self.channel, discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                await self.channel.delete()


class Daily(commands.Cog):
    """Today's deal of each game, the same for everyone, and its board per server."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.ledger = bot.ledger

    async def cog_load(self) -> None:
        self.bot.tree.add_command(DAILY)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(DAILY.name)

    def today(self) -> str:
        return day_of(self.tables.clock())

    # --- /daily <game> ---------------------------------------------------------------------

    async def play(self, interaction: Interaction, game: str) -> None:
        """Today's deal of ``game`` for the person who asks, somewhere only they see it."""
        if interaction.guild_id is None:
            await say(interaction, "Daily deals are played from a server; use this in one.")
            return
        async with answered_on_failure(interaction, "/daily"):
            title = games.get(game).title
            mine = await self.ledger.daily_try(self.today(), game, interaction.user.id)
            if mine is not None:
                await say(interaction, sentence(ALREADY.format(title=title, board=BOARD_HINT)))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            place = await self._place(interaction, title)
            if place is None:
                await say(interaction, NO_PLACE)
                return
            try:
                session = await self.tables.lobby.open_daily(
                    guild_id=interaction.guild_id, channel_id=place.channel.id,
                    user_id=interaction.user.id, name=display_name(interaction), game=game,
                    in_dm=place.in_dm)
            except TableError as exc:
                await place.give_up()
                busy = place.in_dm and exc.message == TABLE_HERE
                await say(interaction, sentence(DM_BUSY if busy else exc.message))
                return
            shown = await painted(render_message(session), urgent=True)
            message = await place.channel.send(
                content=shown.content, embed=shown.embed, files=shown.files(),
                view=shown.view or discord.utils.MISSING, allowed_mentions=shown.mentions)
            await self.tables.set_message(session, message.id)
            table_commands: Any = self.bot.get_cog("TableCommands")
            if table_commands is not None:  # a computer may have moved while it was posted
                table_commands.publisher.table_changed(session)
            link = jump_url(None if place.in_dm else interaction.guild_id, place.channel.id,
                            message.id)
            await say(interaction, (
                f"Today's {title} deal is ready {place.words}: {link}\nThe same cards for "
                f"everyone today, you against {daily_seats(game) - 1} hard computers; take your "
                "time (no turn timer). Your score goes to this server's board: "
                f"`/daily board game:{game}`."))

    async def _place(self, interaction: Interaction, title: str) -> Place | None:
        """A private thread of this channel with the person in it, else a direct message
        (announced, so a closed one is known now); None when neither can be had."""
        channel, permissions = interaction.channel, interaction.app_permissions
        name = f"{title} daily deal, {self.today()}: {display_name(interaction)}"[:100]
        if isinstance(channel, discord.TextChannel) and all(
                getattr(permissions, flag) for flag in PRIVATE_THREAD):
            try:
                thread = await channel.create_thread(
                    name=name, type=discord.ChannelType.private_thread, invitable=False,
                    auto_archive_duration=1440)
                await thread.add_user(interaction.user)
                return Place(thread, in_dm=False)
            except discord.HTTPException as exc:
                log.warning("could not open a private thread for a daily deal: %s", exc)
        if not self.bot.settings.shards.owns(None):
            return None  # direct messages' clicks reach the process of shard 0, not this one
        try:
            direct = await interaction.user.create_dm()
            await direct.send(f"Today's {title} deal, dealt for you alone: your table follows.",
                              allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            return None
        return Place(direct, in_dm=True)

    # --- /daily board ----------------------------------------------------------------------

    async def board(self, interaction: Interaction, game: str, day: str) -> None:
        """The server's board of today's or yesterday's deal of ``game``, for the asker."""
        if interaction.guild_id is None:
            await say(interaction, "Daily boards belong to a server; use this in one.")
            return
        if game not in games.names():
            await say(interaction, "I do not know that game.")
            return
        async with answered_on_failure(interaction, "/daily board"):
            today = self.today()
            when = today if day == "today" else day_before(today)
            shown = await self.ledger.daily_board(interaction.guild_id, game, when,
                                                  asker=interaction.user.id, today=today)
            why = self._closed_because(shown, today=day == "today")
            next_at = next_deal_at(today)
            if why is not None:
                await interaction.response.send_message(
                    embed=render_closed_board(shown, today=day == "today", next_at=next_at,
                                              why=why), ephemeral=True)
                return
            embed = render_board(shown, seats=daily_seats(game), today=day == "today",
                                 next_at=next_at)
            record = None if day == "today" else await self._best_record(shown)
            await interaction.response.send_message(
                embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS,
                file=record or discord.utils.MISSING)

    def _closed_because(self, shown: DailyBoard, *, today: bool) -> str | None:
        """Why the asker may not see ``shown`` yet; None if they may."""
        mine = shown.mine
        title = games.get(shown.game).title
        if mine is not None and self._playing(mine):
            return (f"You are still playing this {title} deal: finish it, then the board is "
                    "yours to see.")
        if today and mine is None:
            return (f"Play today's {title} deal first (`/daily {shown.game}`): then you see "
                    "everyone's scores here. Yesterday's board is open to all "
                    "(`day:yesterday`).")
        return None

    def _playing(self, mine: DailyTry) -> bool:
        """Whether the asker's try is still being played (its table is open)."""
        if mine.finished:
            return False
        with contextlib.suppress(TableError):
            return self.tables.registry.get(mine.table_id).is_open
        return False

    async def _best_record(self, shown: DailyBoard) -> discord.File | None:
        """The record of the best finished game on ``shown`` (yesterday's, so every deal
        of it may be seen), if its table is still kept."""
        best = next((line for line in shown.lines if line.place is not None), None)
        if best is None:
            return None
        found = await self.ledger.daily_try(shown.day, shown.game, best.user_id)
        if found is None:
            return None
        try:
            return finished_record_file(await self.tables.registry.finished_table(found.table_id))
        except TableError:
            return None


def _play_command(game: str) -> app_commands.Command[Any, ..., None]:
    """``/daily <game>``."""
    async def play(interaction: discord.Interaction[Any]) -> None:
        cog: Any = interaction.client.get_cog("Daily")
        await cog.play(interaction, game)

    title = games.get(game).title
    return app_commands.Command(
        name=game, description=f"Play today's {title} deal: the same cards for everyone today",
        callback=writes()(play))


@app_commands.describe(game="The game", day="Today's board (once you have played it) or "
                                            "yesterday's (open to all)")
@app_commands.choices(game=game_choices())
async def _board(interaction: discord.Interaction[Any], game: str,
                 day: Literal["today", "yesterday"] = "today") -> None:
    cog: Any = interaction.client.get_cog("Daily")
    await cog.board(interaction, game, day)


def daily_group() -> app_commands.Group:
    """``/daily`` with one subcommand per registered game, and ``board``."""
    group = app_commands.Group(name="daily", description="Today's deal, the same for everyone",
                               guild_only=True)
    for game in games.names():
        group.add_command(_play_command(game))
    group.add_command(app_commands.Command(
        name="board", description="This server's scores on a daily deal", callback=_board))
    return group


DAILY = daily_group()


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Daily(bot))
