"""The Browse cog: ``/tables``, the server's open tables, and the Watch buttons' routing.

``/tables`` answers privately with the tables of the asker's server in channels they can
see, newest first, ten a page: ``Join`` on a lobby with a free seat, ``Watch`` on a game.
It reads and writes nothing but the answer, so it has no cooldown (as ``/leaderboard``).
Its buttons, and Watch on every table message, are handled in :mod:`cogs.clicks.browsing`
with the live views of the TableCommands cog (:class:`cogs.upkeep.live_menus.LiveMenus`), which
loads first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import answered_on_failure, say
from cogs.clicks import browsing, router
from cogs.clicks.browsing import Watching

if TYPE_CHECKING:
    from bot.app import FivefoldBot

Interaction = discord.Interaction[Any]


class Browse(commands.Cog):
    """Every open table of a server, and watching a game."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot
        table_commands: Any = bot.get_cog("TableCommands")
        if table_commands is None:
            raise RuntimeError("the Browse cog needs the TableCommands cog (its live views)")
        self.watching = Watching(bot.tables, table_commands.live)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*browsing.ITEMS)
        for item, template in browsing.TEMPLATES.items():
            router.add_route(template, browsing.fallback(item))

    async def cog_unload(self) -> None:
        for template in browsing.TEMPLATES.values():
            router.remove_route(template)
        self.bot.remove_dynamic_items(*browsing.ITEMS)

    @app_commands.command(name="tables",
                          description="This server's open tables: join a lobby or watch a game")
    @app_commands.guild_only()
    async def tables(self, interaction: Interaction) -> None:
        if interaction.guild_id is None:
            await say(interaction, "Tables live in a server's channels; use this in one.")
            return
        async with answered_on_failure(interaction, "/tables"):
            embed, view = self.watching.listing_page(interaction, 0)
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Browse(bot))
