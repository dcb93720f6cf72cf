"""The bot: ``create_bot(settings)`` builds it; ``setup_hook`` wires everything at start.

Start-up order: open the store, load the cogs (which register the dynamic
items that route every button by custom id), rebuild every open table from
its record, then sync the slash commands (to ``DEV_GUILD_ID`` at once, or
globally).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

import discord
from discord.ext import commands

from bot import health, rest
from bot.load import LOAD
from bot.settings import Settings
from bot.store.api import Store
from bot.store.connect import open_store
from bot.store.url import parse_database_url
from bot.tables.context import Clock
from bot.tables.ledger import Ledger
from bot.tables.service import TableService

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.commands.tables", "cogs.commands.browse", "cogs.commands.daily",
              "cogs.commands.rules", "cogs.commands.stats", "cogs.commands.settings",
              "cogs.commands.help", "cogs.upkeep.guard")

INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, create_private_threads=True, embed_links=True,
    attach_files=True, read_message_history=True,
)
"""The bot permissions the README's invite step lists, and no more."""
INVITE_SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The OAuth2 URL that adds this bot to a server with :data:`INVITE_PERMISSIONS`."""
    return discord.utils.oauth_url(application_id, permissions=INVITE_PERMISSIONS,
                                   scopes=INVITE_SCOPES)


def intents() -> discord.Intents:
    """Guilds only: no privileged intent (message content, members, presences)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def shard_options(settings: Settings) -> dict[str, object]:
    """``shard_count`` and ``shard_ids`` for :class:`~discord.ext.commands.AutoShardedBot`.

    Neither set: discord.py asks Discord for its recommended count and connects all
    of them. ``SHARD_COUNT`` alone: that many, all here; with ``SHARD_IDS``: only those.
    """
    options: dict[str, object] = {}
    if settings.shard_count is not None:
        options["shard_count"] = settings.shard_count
    if settings.shard_ids is not None:
        options["shard_ids"] = list(settings.shard_ids)
    return options


class FivefoldBot(commands.AutoShardedBot):
    """The Fivefold bot. ``store`` may be given (tests); otherwise the one DATABASE_URL names.

    Always auto-sharded: one process holds Discord's recommended shards, or those of
    ``SHARD_IDS`` when several processes split them (:mod:`bot.shards`).
    """

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 seed_source: Callable[[], int] | None = None, clock: Clock | None = None,
                 **options: object) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None,
                         **(shard_options(settings) | options))  # type: ignore[arg-type]
        self.settings = settings
        self._given_store = store
        self.store: Store | None = store
        self._seed_source = seed_source
        self._clock = clock
        self._tables: TableService | None = None
        self._ledger: Ledger | None = None
        self._resumed = 0
        self._synced: int | None = None
        self._said_ready = False
        self._heartbeat: asyncio.Task[None] | None = None

    @property
    def tables(self) -> TableService:
        """The table service (:class:`bot.tables.service.TableService`): every table here."""
        if self._tables is None:
            raise RuntimeError("the bot is not set up yet")
        return self._tables

    @property
    def ledger(self) -> Ledger:
        """The table service's read side: results, ratings and server settings (the cogs'
        only way to them; they never hold the store)."""
        if self._ledger is None:
            raise RuntimeError("the bot is not set up yet")
        return self._ledger

    async def setup_hook(self) -> None:
        # discord.py has logged in (its session exists): its REST calls go on kept
        # connections from here (bot/rest.py)
        log.info("REST calls: %s", rest.install(self.http))
        LOAD.start()  # how far behind the loop is: background work waits when it is
        if self.store is None:
            self.store = await open_store(self.settings.store_url)
        self._tables = TableService(self.store, self.settings, seed_source=self._seed_source,
                                   clock=self._clock)
        self._ledger = Ledger(self.store)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        resumed = await self.tables.restart.resume_all()
        self._resumed = len(resumed)
        self.dispatch("tables_resumed", resumed)
        self.tables.sweeper.start(self.settings.expiry_check_seconds)
        await self.sync_commands()
        if self.settings.health_file:
            self._heartbeat = asyncio.create_task(
                self.heartbeat(Path(self.settings.health_file)), name="heartbeat")

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        self._synced = len(synced)

    async def on_ready(self) -> None:
        """Say once, when first connected, who the bot is and where, and how to invite it.

        discord.py calls this again after every reconnect; one line at start-up is enough.
        Each time, the heartbeat (if any) is touched at once rather than at its next beat.
        """
        if self.settings.health_file:
            with contextlib.suppress(OSError):  # the heartbeat task logs it
                health.beat(Path(self.settings.health_file))
        if self._said_ready or self.user is None:
            return
        self._said_ready = True
        scope = (f"to server {self.settings.dev_guild_id}" if self.settings.dev_guild_id
                 else "globally")
        log.info("%s (id %s) is ready: %d server(s), %d table(s) resumed, %s command(s) synced "
                 "%s, database %s, %s. Invite it: %s", self.user, self.user.id, len(self.guilds),
                 self._resumed, "no" if self._synced is None else self._synced, scope,
                 parse_database_url(self.settings.store_url), self.shard_words(),
                 invite_url(self.application_id or self.user.id))

    def shard_words(self) -> str:
        """This process's shards in words: the plan, with the count discord.py settled on."""
        if self.settings.shard_count is None:
            return f"shards: all {self.shard_count} Discord recommends"
        return self.settings.shards.describe()

    async def heartbeat(self, path: Path) -> None:
        """Touch ``path`` every :data:`bot.health.BEAT_SECONDS` while connected to Discord."""
        while not self.is_closed():
            if self.is_ready() and not self.ws_closed():
                try:
                    health.beat(path)
                except OSError as exc:
                    log.warning("cannot write the heartbeat %s: %s", path, exc)
            await asyncio.sleep(health.BEAT_SECONDS)

    def ws_closed(self) -> bool:
        """Whether a gateway connection of this process is down (reconnecting, or never up)."""
        shards = self.shards.values()
        return not shards or any(shard.is_closed() for shard in shards)

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self._tables is not None:
            await self._tables.shutdown()
        await super().close()
        if self.store is not None and self._given_store is None:
            await self.store.close()
            self.store = None
        LOAD.stop()


def create_bot(settings: Settings, *, store: Store | None = None,
               seed_source: Callable[[], int] | None = None, clock: Clock | None = None,
               **options: object) -> FivefoldBot:
    """The bot, built but not started.

    Tests pass ``guild_ready_timeout``, a store, a ``seed_source`` giving each new
    game's seed (by default a fresh random one) to make games reproducible, and a
    ``clock`` (by default the real one, in UTC) to fix Fizzbin's day and night.
    """
    return FivefoldBot(settings, store=store, seed_source=seed_source, clock=clock, **options)
