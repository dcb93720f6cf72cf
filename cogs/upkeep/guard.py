"""The Guard cog: what keeps tables sound when the world around them changes.

- **Places that go away.** A deleted channel or thread, or the bot removed from a
  server (the gateway's delete events), closes every table there: cancelled, unrated,
  the record kept, never resumed. A deleted table message is posted anew by the
  publisher at the next change; if its channel is gone too, the table closes.
- **Permissions.** :func:`missing_permissions` names what the bot lacks in a channel
  before a lobby opens there; ``/status`` shows it to admins.
- **Cooldowns.** Commands that write (``/play``, ``/table``, ``/timezone``, ``/settings``)
  are rate limited per person, and so are the buttons that write or ping (Play again
  with ``/play``, Join and Leave: :class:`Throttle`); a refusal says when to try again.
  Every other command error is answered with an apology, never "This interaction failed".
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.metadata
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.models import TableStatus
from cogs.answers import APOLOGY, say
from cogs.render.text import sentence
from games.core.words import plural

if TYPE_CHECKING:
    from bot.app import FivefoldBot

log = logging.getLogger(__name__)
T = TypeVar("T")
Interaction = discord.Interaction[Any]

NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}
"""What a table needs of the bot in its channel (the README's invite list)."""
IN_THREADS = {"send_messages_in_threads": "Send Messages in Threads"}
NEW_THREAD = {"create_public_threads": "Create Public Threads",
              "send_messages_in_threads": "Send Messages in Threads"}
PRIVATE_THREAD = {"create_private_threads": "Create Private Threads",
                  "send_messages_in_threads": "Send Messages in Threads"}
"""What ``/daily`` needs to play a deal in a private thread (else it uses a direct message)."""


def missing_permissions(permissions: discord.Permissions, *, in_thread: bool,
                        new_thread: bool) -> list[str]:
    """The names of the permissions a table here needs that ``permissions`` lacks."""
    needed = dict(NEEDED)
    if in_thread:
        needed.pop("send_messages")
        needed |= IN_THREADS
    if new_thread:
        needed |= NEW_THREAD
    return [name for flag, name in needed.items() if not getattr(permissions, flag)]


def missing_text(missing: list[str]) -> str:
    """The refusal naming what is missing."""
    return ("I cannot run a table here: I am missing the permission"
            + ("s " if len(missing) > 1 else " ") + ", ".join(f"**{m}**" for m in missing)
            + " in this channel. A server admin can grant them to Fivefold (channel settings, "
              "Permissions), then try again.")


def cooldown_key(interaction: Interaction) -> tuple[int | None, int]:
    """Cooldowns are per person and server."""
    return interaction.guild_id, interaction.user.id


def _cooldown(interaction: Interaction) -> app_commands.Cooldown | None:
    """``COMMANDS_PER_MINUTE`` uses a minute per person (0: no limit)."""
    rate = int(getattr(getattr(interaction.client, "settings", None), "commands_per_minute", 0))
    return app_commands.Cooldown(rate, 60.0) if rate > 0 else None


def writes() -> Callable[[T], T]:
    """The cooldown of a command that writes: ``COMMANDS_PER_MINUTE`` uses a minute each."""
    return app_commands.checks.dynamic_cooldown(_cooldown, key=cooldown_key)


def slow_down(retry_after: float, rate: int) -> str:
    """The refusal of a use over its limit: when to try again, and the limit."""
    return (f"not so fast: try that again in {max(1.0, retry_after):.0f} s "
            f"({plural(rate, 'use')} a minute each)")


class Throttle:
    """At most ``rate`` uses a minute per person and server, shared by every command and
    button that counts against it (0: no limit).

    One :class:`~discord.app_commands.Cooldown` per person, as the commands' own
    cooldowns; the people who have not used it for a minute are forgotten.
    """

    KEPT = 4096  # people remembered before the idle ones are forgotten

    def __init__(self, rate: int, per: float = 60.0) -> None:
        self.rate = rate
        self.per = per
        self._buckets: dict[tuple[int | None, int], app_commands.Cooldown] = {}

    def refusal(self, interaction: Interaction) -> str | None:
        """Count a use by ``interaction``'s person: None if allowed, else why not."""
        if self.rate <= 0:
            return None
        key = cooldown_key(interaction)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.KEPT:
                self._forget_idle()
            bucket = self._buckets[key] = app_commands.Cooldown(self.rate, self.per)
        retry = bucket.update_rate_limit()
        return None if retry is None else slow_down(retry, self.rate)

    def _forget_idle(self) -> None:
        """Forget the people whose limit is whole again (no use in the last minute)."""
        now = time.time()
        for key, bucket in list(self._buckets.items()):
            if bucket.get_tokens(now) >= self.rate:
                del self._buckets[key]


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


__all__ = ["Guard", "Throttle", "missing_permissions", "slow_down", "writes"]
