"""The Guard cog: what keeps tables sound when the world around them changes.

- **Places that go away.** A deleted channel or thread, or the bot removed from a
  server (the gateway's delete events), closes every table there: cancelled, unrated,
  the record kept, never resumed. A deleted table message is posted anew by the
  publisher at the next change; if its channel is gone too, the table closes.
- **Permissions.** ``/status`` shows admins what the bot lacks in a channel
  (:mod:`cogs.upkeep.permissions`), with its version and uptime.
- **Command errors.** A command over its cooldown (:mod:`cogs.upkeep.cooldowns`) is told
  when to try again; every other command error is answered with an apology, never "This
  interaction failed".
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.metadata
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.models import TableStatus
from cogs.answers import APOLOGY, say
from cogs.render.text import sentence
from cogs.upkeep.cooldowns import slow_down
from cogs.upkeep.permissions import missing_permissions
from games.core.words import plural

if TYPE_CHECKING:
    from bot.app import FivefoldBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]


class Guard(commands.Cog):
    """Deleted places close their tables; command errors get a clear private answer."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot
        self.started = dt.datetime.now(dt.UTC)

    async def cog_load(self) -> None:
        self.bot.tree.error(self.on_command_error)

    async def cog_unload(self) -> None:
        with contextlib.suppress(AttributeError):  # back to the tree's own handler
            del self.bot.tree.on_error

    async def on_command_error(self, interaction: Interaction,
                               error: app_commands.AppCommandError) -> None:
        """A check refused a command, or it failed: answer privately, once."""
        if isinstance(error, app_commands.CommandOnCooldown):
            text = sentence(slow_down(error.retry_after, error.cooldown.rate))
        elif isinstance(error, app_commands.CheckFailure):
            text = "You cannot use that command here."
        else:
            log.error("command %s failed", getattr(interaction.command, "name", "?"),
                      exc_info=error)
            text = APOLOGY
        try:
            await say(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer a refused command")

    # --- places that go away --------------------------------------------------------

    async def close_where(self, predicate: Any, note: str) -> int:
        """Close every open table for which ``predicate(session)`` holds; how many."""
        closed = 0
        for session in self.bot.tables.registry.open_tables():
            if predicate(session):
                await self.bot.tables.close_gone(session, note)
                closed += 1
        return closed

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        def here(session: Any) -> bool:
            if session.channel_id == channel.id:
                return True
            thread = self.bot.get_channel(session.channel_id)
            return isinstance(thread, discord.Thread) and thread.parent_id == channel.id

        await self.close_where(here, "the channel was deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.close_where(lambda s: s.channel_id == payload.thread_id,
                               "the thread was deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        count = await self.close_where(lambda s: s.table.guild_id == guild.id,
                                       "Fivefold was removed from the server")
        log.info("removed from server %s: %d table(s) closed", guild.id, count)

    # --- /status ----------------------------------------------------------------------

    @app_commands.command(name="status",
                          description="Fivefold's version, uptime, tables and permissions here")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        if interaction.guild_id is None:  # a forged or old client: counts are per server
            await say(interaction, "/status is about a server and its channel; use it in one.")
            return
        try:
            version = importlib.metadata.version("fivefold")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
        up = dt.datetime.now(dt.UTC) - self.started
        hours, rest = divmod(int(up.total_seconds()), 3600)
        tables = self.bot.tables.registry.open_tables(guild_id=interaction.guild_id)
        playing = sum(1 for s in tables if s.status is TableStatus.PLAYING)
        in_thread = isinstance(interaction.channel, discord.Thread)
        missing = missing_permissions(interaction.app_permissions, in_thread=in_thread,
                                      new_thread=not in_thread)
        perms = ("every permission a table needs (new threads included)" if not missing
                 else "missing " + ", ".join(missing))
        here = (self.bot.tables.registry.in_channel(interaction.channel_id)
                if interaction.channel_id is not None else None)
        table = (f"\nThe table here is `{here.id}`: the log's lines about it say "
                 f"`[table {here.id}]`." if here is not None else "")
        await say(interaction, (
            f"**Fivefold {version}**, up {hours} h {rest // 60} min, "
            f"in {plural(len(self.bot.guilds), 'server')}.\n"
            f"Open tables in this server: {len(tables)} ({playing} playing, "
            f"{len(tables) - playing} in the lobby); at most "
            f"{self.bot.settings.max_tables_per_server} at once, "
            f"{self.bot.settings.max_tables_per_host} per host.\n"
            f"Here I have {perms}.{table}"))


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Guard(bot))


__all__ = ["Guard"]
