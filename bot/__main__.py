"""``python -m bot`` / ``fivefold``: run the bot until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import logging
import signal
import sqlite3
import sys
from collections.abc import Callable

import aiohttp
import discord
from pydantic import ValidationError

from bot import gctune, logs
from bot.app import FivefoldBot, create_bot
from bot.settings import Settings
from bot.store.api import StoreError
from bot.store.url import parse_database_url

HOW_TO_GET_A_TOKEN = (
    "Create an application at https://discord.com/developers/applications, open its Bot tab "
    "and press Reset Token; then cp .env.example .env (if there is no .env yet) and put the "
    "token after DISCORD_TOKEN="
)
USAGE = """\
usage: python -m bot [migrate-db SQLITE_URL POSTGRES_URL]

Runs the Fivefold Discord bot until SIGINT or SIGTERM, with the settings of .env or the
environment (DISCORD_TOKEN at least; docs/operating.md lists them all).
  migrate-db SQLITE_URL POSTGRES_URL   copy a SQLite database into PostgreSQL, then stop"""
log = logging.getLogger("bot")
EXIT_CONFIG = 2
EXIT_UNREACHABLE = 1


def fail(message: str) -> int:
    print(f"fivefold: {message}", file=sys.stderr)
    return EXIT_CONFIG


LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def event_loop() -> tuple[LoopFactory | None, str]:
    """The event loop to run on, and its name for the start-up log: uvloop where it is
    installed (its loop and sockets are C, so each interaction costs the bot less CPU:
    docs/performance.md), asyncio's standard loop elsewhere (uvloop does not install on
    Windows)."""
    try:
        import uvloop
    except ImportError:
        return None, "asyncio's standard loop (uvloop is not installed here)"
    return uvloop.new_event_loop, f"uvloop {importlib.metadata.version('uvloop')}"


def log_collections() -> None:
    """The garbage collections since start-up: how many, the longest pause, and the CPU
    each generation's collections took in all."""
    meter = gctune.METER
    log.info("garbage collection: %d collections, the longest %.1f ms (%.1f ms of CPU); "
             "by generation %s collections, %s ms of CPU in all",
             meter.collections, meter.longest * 1000, meter.longest_cpu * 1000,
             "/".join(str(n) for n in meter.by_generation),
             "/".join(f"{cpu * 1000:.0f}" for cpu in meter.cpu_by_generation))


async def freeze_when_ready(bot: FivefoldBot) -> None:
    """Once connected (tables resumed, caches filled): start-up's objects leave the GC's scans."""
    await bot.wait_until_ready()
    log.info("%d objects alive after start-up frozen out of garbage collection",
             gctune.freeze_after_start())


def report_failure(task: asyncio.Task[None]) -> None:
    """Log why a background task of this module ended, if it failed (not for a cancel)."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.error("%s failed", task.get_name(), exc_info=exc)


async def run(settings: Settings, *, bot: FivefoldBot | None = None,
              tune_gc: bool = False) -> int:
    """Run the bot until it stops or SIGINT/SIGTERM arrives; the exit status.

    ``tune_gc`` (``python -m bot`` only) freezes start-up's objects once ready.
    """
    bot = bot or create_bot(settings)
    async with bot:  # discord.py's loop and ready event exist from here (wait_until_ready)
        return await serve(bot, settings, tune_gc=tune_gc)


async def serve(bot: FivefoldBot, settings: Settings, *, tune_gc: bool) -> int:
    """:func:`run` once discord.py has set the bot up (``async with bot``)."""
    freezer = None
    if tune_gc:
        freezer = asyncio.create_task(freeze_when_ready(bot), name="gc-freezer")
        freezer.add_done_callback(report_failure)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(settings.token))
    stopper = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
        if freezer is not None:
            freezer.cancel()
            log_collections()  # while running: closing frees everything at once
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)
        if not bot.is_closed():
            await bot.close()
    if runner.done() and not runner.cancelled() and runner.exception() is not None:
        exc = runner.exception()
        if isinstance(exc, discord.LoginFailure):
            return fail(f"Discord rejected the token. {HOW_TO_GET_A_TOKEN}")
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            return fail("Discord refused an intent this bot should not ask for.")
        if isinstance(exc, StoreError | sqlite3.Error):
            where = parse_database_url(settings.store_url)
            return fail(f"cannot use the database {where}: {exc}")
        if isinstance(exc, aiohttp.ClientError | OSError):
            print(f"fivefold: cannot reach Discord ({exc}); check the network and try again.",
                  file=sys.stderr)
            return EXIT_UNREACHABLE
        raise exc  # type: ignore[misc]
    runner.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await runner
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the bot; ``argv`` (``python -m bot``'s arguments) may name another command:
    ``migrate-db SQLITE_URL POSTGRES_URL`` (:mod:`bot.store.migrate`)."""
    if argv:
        if argv[0] in ("-h", "--help"):
            print(USAGE)
            return 0
        if argv[0] == "migrate-db":
            from bot.store import migrate

            return migrate.main(argv[1:])
        return fail(f"unknown command {argv[0]!r}; the bot runs without one, and "
                    "`python -m bot migrate-db SQLITE_URL POSTGRES_URL` copies a database")
    try:
        settings = Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])).upper()
        message = first["msg"].removeprefix("Value error, ")
        # A rule between settings (SHARD_IDS needs SHARD_COUNT) has no one field to name.
        return fail(f"bad setting {where}: {message}" if where else f"bad settings: {message}")
    if not settings.token:
        return fail(f"DISCORD_TOKEN is not set. {HOW_TO_GET_A_TOKEN}")
    logs.configure(settings.log_level, settings.log_format, secrets=[settings.token])
    gctune.tune()
    meter = gctune.METER
    meter.install()
    factory, loop_name = event_loop()
    log.info("event loop: %s", loop_name)
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(run(settings, tune_gc=True))
    except KeyboardInterrupt:
        return 130
    finally:
        meter.uninstall()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
