"""The bot: ``create_bot(settings)`` builds it; ``setup_hook`` wires everything at start.

Start-up order: open the store, load the cogs (which register the dynamic
items that route every button by custom id), rebuild every open table from
its record, then sync the slash commands (to ``DEV_GUILD_ID`` at once, or
globally).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord.ext import commands

from bot.context import Clock
from bot.sessions import SessionManager
from bot.settings import Settings
from bot.store_api import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.stats", "cogs.settings", "cogs.help", "cogs.guard")


def intents() -> discord.Intents:
    """Guilds only: no privileged intent (message content, members, presences)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class FivefoldBot(commands.Bot):
    """The Fivefold bot. ``store`` may be given (tests); otherwise SQLite at DATABASE_PATH."""

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 seed_source: Callable[[], int] | None = None, clock: Clock | None = None,
                 **options: object) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, **options)  # type: ignore[arg-type]
        self.settings = settings
        self._given_store = store
        self.store: Store | None = store
        self._seed_source = seed_source
        self._clock = clock
        self._sessions: SessionManager | None = None

    @property
    def sessions(self) -> SessionManager:
        if self._sessions is None:
            raise RuntimeError("the bot is not set up yet")
        return self._sessions

    async def setup_hook(self) -> None:
        if self.store is None:
            from bot.store import SqliteStore

            self.store = await SqliteStore.open(self.settings.database_path)
        self._sessions = SessionManager(self.store, self.settings,
                                        seed_source=self._seed_source, clock=self._clock)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        resumed = await self.sessions.resume_all()
        if resumed:
            log.info("resumed %d open table(s)", len(resumed))
        self.dispatch("tables_resumed", resumed)
        self.sessions.start_sweeping(self.settings.expiry_check_seconds)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        if self._sessions is not None:
            await self._sessions.shutdown()
        await super().close()
        if self.store is not None and self._given_store is None:
            await self.store.close()
            self.store = None


def create_bot(settings: Settings, *, store: Store | None = None,
               seed_source: Callable[[], int] | None = None, clock: Clock | None = None,
               **options: object) -> FivefoldBot:
    """The bot, built but not started.

    Tests pass ``guild_ready_timeout``, a store, a ``seed_source`` giving each new
    game's seed (by default a fresh random one) to make games reproducible, and a
    ``clock`` (by default the real one, in UTC) to fix Fizzbin's day and night.
    """
    return FivefoldBot(settings, store=store, seed_source=seed_source, clock=clock, **options)
