"""The Rules cog: ``/rules``, a game's rules in short sections a phone can read, with
buttons between them.

``/rules`` and the lobby's and table's ``Rules`` buttons answer privately with one
section and a row of buttons to the others; a button edits that same message, so
reading the whole rules leaves one message behind, not one per section. Buttons
rather than only a ``section`` parameter because the ``Rules`` buttons cannot ask
for one (``/rules`` takes it too, to jump straight there). The sections and
their buttons are drawn by :mod:`cogs.render.rules`, and answered by
:func:`cogs.clicks.rules.show_rules`, which the buttons reach by their custom ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.clicks.rules import show_rules
from cogs.commands.play import game_choices
from cogs.render.rules import SECTION_LABELS

if TYPE_CHECKING:
    from bot.app import FivefoldBot


class Rules(commands.Cog):
    """``/rules``; the ``Rules`` buttons and the rules messages' own are routed by custom id
    (:mod:`cogs.clicks.router`) to :func:`show_rules`, so they need no cog."""

    @app_commands.command(name="rules", description="How a game is played, in short sections")
    @app_commands.describe(game="The game",
                           section="Where to start reading (default: the overview)")
    @app_commands.choices(game=game_choices(), section=[
        app_commands.Choice(name=label, value=value) for value, label in SECTION_LABELS.items()])
    async def rules(self, interaction: discord.Interaction[Any], game: str,
                    section: str = "overview") -> None:
        await show_rules(interaction, game, section)


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Rules())


__all__ = ["Rules"]
