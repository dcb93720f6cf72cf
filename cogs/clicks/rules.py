"""The rules, answered privately: ``/rules`` and every ``Rules`` button (the lobby's, the
table's and a rules message's own, which edit that message instead of adding one)."""

from __future__ import annotations

from typing import Any

import discord

import games
from cogs.render.rules import rules_page


async def show_rules(interaction: discord.Interaction[Any], game: str,
                     section: str = "overview", *, edit: bool = False) -> None:
    """Answer with a section of ``game``'s rules: a new private message, or (``edit``, a
    click on a rules message's own buttons) that message shows the section instead."""
    if game not in games.names():
        await interaction.response.send_message(
            "I know no such game; /rules lists the games I know.", ephemeral=True)
        return
    text, view = rules_page(game, section)
    if edit:
        await interaction.response.edit_message(content=text, view=view)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)


__all__ = ["show_rules"]
