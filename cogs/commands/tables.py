"""The TableCommands cog: the slash commands of a table and the wiring of clicks and
messages.

``/play`` (built in :mod:`cogs.commands.play`) opens a lobby; ``/join``, ``/start``,
``/hand``, ``/table``, ``/leave``, ``/kick`` and ``/end`` do what the buttons do for
people who prefer typing, through the same handlers (:class:`cogs.clicks.handlers.Clicks`).
Clicks are routed by the dynamic items of :mod:`cogs.clicks.router`; anything else is
answered by :meth:`TableCommands.on_interaction`. ``/rules`` is its own cog
(:mod:`cogs.commands.rules`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.tables.errors import TableError
from bot.tables.lobby import validate_options
from bot.tables.service import TableService
from bot.tables.session import Session
from cogs.answers import say
from cogs.clicks import router
from cogs.clicks.deadline import Gate, not_shed
from cogs.clicks.handlers import Clicks
from cogs.commands.play import PLAY, check_timer
from cogs.options import to_model_values
from cogs.render.lobby import render_lobby
from cogs.render.pictures.painter import PAINTER
from cogs.render.text import display_name, jump_url, sentence
from cogs.upkeep.cooldowns import Throttle, writes
from cogs.upkeep.ending import Endings
from cogs.upkeep.live_menus import FollowingListener, LiveMenus
from cogs.upkeep.permissions import missing_permissions, missing_text
from cogs.upkeep.publisher import Publisher, painted, render_message, take_down
from games.core.errors import SetupError

if TYPE_CHECKING:
    from bot.app import FivefoldBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
REPOST_SECONDS = 10.0
"""``/table`` posts a table anew at most this often; sooner, it says where the table is."""
REPOSTS_KEPT = 1024


class TableCommands(commands.Cog):
    """Card tables in channels and threads."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot
        self.tables: TableService = bot.tables
        self.live = LiveMenus()
        self.publisher = Publisher(bot, moved=self.tables.set_message,
                                   gone=self.tables.close_gone,
                                   quiet=self.live.needs_no_ping,
                                   min_interval=bot.settings.table_edit_interval)
        self.live.lost = self.publisher.table_changed  # no menu left: the ping brings them back
        # Opening tables (/play, whatever the game, and Play again) and taking or leaving
        # seats (Join, Leave) count against COMMANDS_PER_MINUTE a person, each its own.
        self.opening = Throttle(bot.settings.commands_per_minute)
        self.seating = Throttle(bot.settings.commands_per_minute)
        self.clicks = Clicks(self.tables, self.live, table=self.publisher, seating=self.seating)
        self.endings = Endings(self.tables, opening=self.opening)
        self._reposting: set[str] = set()  # tables being posted anew by /table
        self._reposted: dict[str, float] = {}  # when /table last posted each table
        self._warming: asyncio.Task[None] | None = None
        self.gate = Gate(bot)

    async def cog_load(self) -> None:
        self.tables.listener = FollowingListener(self.live, self.publisher)
        self.bot.add_dynamic_items(*router.ITEMS)
        self.bot.tree.add_command(PLAY)
        self._warming = asyncio.create_task(PAINTER.warm(), name="picture-workers")
        # A slash command too late to run in time is answered "busy" (cogs.clicks.deadline),
        # as clicks are; discord.py asks the tree's interaction_check before every command.
        self.bot.tree.interaction_check = not_shed  # type: ignore[method-assign]
        self.gate.install()  # and the same refused before discord.py's work, when it can be

    async def cog_unload(self) -> None:
        vars(self.bot.tree).pop("interaction_check", None)  # the tree's own check again
        self.gate.remove()
        if self._warming is not None:
            self._warming.cancel()
        self.bot.tree.remove_command(PLAY.name)
        self.bot.remove_dynamic_items(*router.ITEMS)
        await self.tables.shutdown()
        self.publisher.cancel()
        self.live.cancel()
        PAINTER.close()  # the picture workers: started again if the cog is loaded again
        self.tables.listener = None

    # --- opening a table ----------------------------------------------------------------

    def _link(self, session: Session) -> str:
        table = session.table
        return jump_url(table.guild_id, table.channel_id, table.message_id)

    async def open_table(self, interaction: Interaction, game: str, *, thread: bool,
                         options: dict[str, Any], pictures: bool | None = None,
                         hints: bool = False, timer: str | None = None) -> None:
        """``/play <game>``: a lobby here, or in a new thread named after the game.

        ``timer``: one of :data:`bot.tables.timers.CHOICES` that ``game`` has (checked by
        :func:`cogs.commands.play.check_timer`); None for the server's default.
        """
        channel = interaction.channel
        if interaction.guild_id is None or channel is None:
            await say(interaction, "Tables live in a server's channels.")
            return
        too_soon = self.opening.refusal(interaction)
        if too_soon is not None:
            await say(interaction, sentence(too_soon))
            return
        try:
            values = validate_options(game, to_model_values(game, options))
            check_timer(game, timer)  # refused here, before a thread is opened for it
        except SetupError as exc:
            await say(interaction, sentence(exc.message))
            return
        missing = missing_permissions(interaction.app_permissions,
                                      in_thread=isinstance(channel, discord.Thread),
                                      new_thread=thread)
        if missing:
            await say(interaction, missing_text(missing))
            return
        existing = None if thread else self.tables.registry.in_channel(channel.id)
        if existing is not None:
            await say(interaction, f"There is already a table here: {self._link(existing)}")
            return
        try:
            self.tables.check_open(interaction.guild_id, interaction.user.id)
        except TableError as exc:
            await say(interaction, sentence(exc.message))
            return
        if thread:
            await self._open_in_thread(interaction, game, values, pictures, hints=hints,
                                       timer=timer)
            return
        try:
            session = await self.tables.lobby.open(
                guild_id=interaction.guild_id, channel_id=channel.id,
                host_id=interaction.user.id, host_name=display_name(interaction),
                game=game, options=values, pictures=pictures, hints=hints, timer=timer)
        except TableError as exc:
            await say(interaction, sentence(exc.message))
            return
        embed, view = render_lobby(session)
        sent = await interaction.response.send_message(embed=embed, view=view)
        message_id = sent.message_id if sent is not None else None
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.tables.set_message(session, message_id)

    async def _open_in_thread(self, interaction: Interaction, game: str,
                              values: dict[str, Any], pictures: bool | None, *,
                              hints: bool, timer: str | None) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await say(interaction, "A thread can only be opened from a text channel; "
                                   "use /play without thread here.")
            return
        title = games.get(game).title
        await interaction.response.defer(thinking=True)
        try:
            new = await channel.create_thread(name=f"{title} table",
                                              type=discord.ChannelType.public_thread,
                                              auto_archive_duration=1440)
        except discord.HTTPException:
            await interaction.followup.send("I could not open a thread here (I need the "
                                            "Create Public Threads permission).")
            return
        try:
            session = await self.tables.lobby.open(
                guild_id=interaction.guild_id, channel_id=new.id, host_id=interaction.user.id,
                host_name=display_name(interaction), game=game, options=values,
                pictures=pictures, hints=hints, timer=timer)
        except TableError as exc:  # a limit reached meanwhile (another /play at once)
            with contextlib.suppress(discord.HTTPException):
                await new.delete()
            await interaction.followup.send(sentence(exc.message))
            return
        embed, view = render_lobby(session)
        message = await new.send(embed=embed, view=view)
        await self.tables.set_message(session, message.id)
        await interaction.followup.send(
            f"{display_name(interaction)} opened a {title} table in {new.mention}.",
            allowed_mentions=discord.AllowedMentions.none())

    # --- typed commands: each does what its button does, through the same handler ------

    @app_commands.command(name="join",
                          description="Join the table in this channel, or take your seat back")
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        await self.clicks.lobby(interaction, None, "join")

    @app_commands.command(name="start", description="Start the game (the host)")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction) -> None:
        await self.clicks.lobby(interaction, None, "start")

    @app_commands.command(name="hand", description="Show your cards at the table here")
    @app_commands.guild_only()
    async def hand(self, interaction: Interaction) -> None:
        await self.clicks.show_hand(interaction, None)

    @app_commands.command(name="table", description="Post the table message again at the bottom")
    @app_commands.guild_only()
    @writes()  # a few a minute per person at most
    async def table(self, interaction: Interaction) -> None:
        """The table message posted anew at the bottom, the old one taken down.

        One post at a time per table, and at most one every :data:`REPOST_SECONDS`: a
        second ``/table`` meanwhile (several people at once) is told where it is instead,
        so a channel never fills with copies and the table keeps one live message.
        """
        async with self.clicks.refusing(interaction, typed=True):
            session = self.tables.registry.here(interaction.channel_id or 0)
            loop = asyncio.get_running_loop()
            last = self._reposted.get(session.id)
            if session.id in self._reposting or (
                    last is not None and loop.time() - last < REPOST_SECONDS):
                await say(interaction, f"The table was just posted again: {self._link(session)}")
                return
            self._reposting.add(session.id)
            try:
                await self._repost(interaction, session)
            finally:
                self._reposting.discard(session.id)
                self._reposted.pop(session.id, None)  # the latest last: the oldest go first
                self._reposted[session.id] = loop.time()
                while len(self._reposted) > REPOSTS_KEPT:
                    del self._reposted[next(iter(self._reposted))]

    async def _repost(self, interaction: Interaction, session: Session) -> None:
        shown = await painted(render_message(session), urgent=True)
        sent = await interaction.response.send_message(
            content=shown.content, embed=shown.embed, files=shown.files(),
            view=shown.view or discord.utils.MISSING, allowed_mentions=shown.mentions)
        message_id = sent.message_id if sent is not None else None
        if message_id is None:
            message_id = (await interaction.original_response()).id
        old = await self.tables.set_message(session, message_id)
        if old is not None:
            await take_down(self.bot.get_partial_messageable(session.channel_id)
                            .get_partial_message(old))

    @app_commands.command(name="leave", description="Leave the table; a computer takes your seat")
    @app_commands.guild_only()
    async def leave(self, interaction: Interaction) -> None:
        await self.clicks.lobby(interaction, None, "leave")

    @app_commands.command(name="kick",
                          description="Remove a player or a computer from the table (the host)")
    @app_commands.describe(player="The player to remove: a computer takes their seat in a game",
                           seat="Or a seat by its number in the lobby (a computer player)")
    @app_commands.guild_only()
    async def kick(self, interaction: Interaction, player: discord.User | None = None,
                   seat: app_commands.Range[int, 1, 8] | None = None) -> None:
        await self.clicks.lobby(interaction, None, "kick",
                                target=None if player is None else player.id, seat=seat)

    @app_commands.command(name="end", description="End the table here (host or Manage Messages)")
    @app_commands.guild_only()
    async def end(self, interaction: Interaction) -> None:
        await self.clicks.lobby(interaction, None, "end")

    # --- routing and resuming -----------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        if interaction.type is discord.InteractionType.component \
                and not router.is_routed(interaction):
            await router.route_unrouted(interaction)

    @commands.Cog.listener()
    async def on_tables_resumed(self, sessions: list[Session]) -> None:
        """After a restart: check each table's message, then let its turns run again."""
        await self.bot.wait_until_ready()
        for session in sessions:
            await self._check_message(session)
            if session.is_open:
                await self.publisher.tidy_pings(session)
                self.tables.resume(session)
                self.publisher.table_changed(session)

    async def _check_message(self, session: Session) -> None:
        channel = self.bot.get_partial_messageable(session.channel_id)
        if session.table.message_id is not None:
            try:
                await channel.fetch_message(session.table.message_id)
                return
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("table %s: its message could not be checked", session.id)
                return
        try:
            shown = await painted(render_message(session))
            message = await channel.send(content=shown.content, embed=shown.embed,
                                         files=shown.files(),
                                         view=shown.view or discord.utils.MISSING,
                                         allowed_mentions=shown.mentions)
        except discord.HTTPException:
            await self.tables.close_gone(session)
            return
        await self.tables.set_message(session, message.id)


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(TableCommands(bot))
