"""Run the real ``python -m bot`` entry point against a fake Discord on 127.0.0.1 (tests only).

``python -m tests.run_bot_against_fake PORT`` points discord.py's REST base and
gateway at the fake listening on PORT, as ``FakeDiscord.patch_discord()`` does in
process, and shortens the wait for guilds before ``on_ready``; then it runs
``bot.__main__.main()`` with the settings from the environment (DISCORD_TOKEN,
DATABASE_PATH, ...). Nothing of this is reachable from the bot's own configuration.
"""

from __future__ import annotations

import functools
import sys

import discord
import yarl

import bot.__main__ as entry
from bot.app import create_bot


def main(argv: list[str]) -> int:
    port = int(argv[0])
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    entry.create_bot = functools.partial(create_bot, guild_ready_timeout=0.05)
    return entry.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
