"""The Help cog: ``/help``, a private overview of the bot.

What Fivefold is, the games with their player counts (from the game registry),
how to start a table, and one line per slash command. The command list is read
from the bot's command tree when ``/help`` runs, so a new command shows up here
by itself, with the description it was registered with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from cogs.render.lobby import players_text
from cogs.ui import EMBED_COLOUR, FIELD_LIMIT, answered_on_failure, fit

if TYPE_CHECKING:
    from bot.app import FivefoldBot

Interaction = discord.Interaction[Any]
SlashCommand = app_commands.Command[Any, ..., Any]

MAX_OPTIONAL_SHOWN = 2
"""A command with more optional parameters than this shows them as ``[options…]``."""

ABOUT = (
    "Fivefold is a bot on which friends play card games together right here in the "
    "channel. It keeps one table message up to date and shows each player their own "
    "hand privately; empty seats can go to computer players."
)
HOW_TO_START = (
    "`/play <game>` opens a lobby in this channel, with that game's options (for example "
    "`/play fazes fazes:1,2 timer:1m`; add `thread:true` for a new thread). People press "
    "**Join**, the host can **Add computer player**, then **Start**. During the game, "
    "**Show my hand** shows your cards and your moves; at the end, **Play again** opens "
    "the same table and **Same cards** deals the same hand again. `/tables` lists the "
    "server's tables to join or watch, `/daily <game>` plays today's deal, the same for "
    "everyone. `/rules` explains a game in short sections."
)


def games_text() -> str:
    """One line per registered game with its player range."""
    lines = []
    for name in games.names():
        cls = games.get(name)
        lines.append(f"**{cls.title}**: {players_text(cls.min_players, cls.max_players)}")
    return "\n".join(lines)


def usage(command: SlashCommand) -> str:
    """``/kick player``, ``/timezone [zone]``, ``/play fazes [options…]``."""
    required = [p.display_name for p in command.parameters if p.required]
    optional = [p.display_name for p in command.parameters if not p.required]
    words = [f"/{command.qualified_name}", *required]
    if len(optional) > MAX_OPTIONAL_SHOWN:
        words.append("[options…]")
    else:
        words += [f"[{name}]" for name in optional]
    return " ".join(words)


def slash_commands(commands_: Iterable[app_commands.Command[Any, ..., Any]
                                       | app_commands.Group
                                       | app_commands.ContextMenu]) -> list[SlashCommand]:
    """Every slash command (subcommands of groups included), by name, without repeats."""
    found: dict[str, SlashCommand] = {}
    for command in commands_:
        if isinstance(command, app_commands.Group):
            for sub in command.walk_commands():
                if isinstance(sub, app_commands.Command):
                    found.setdefault(sub.qualified_name, sub)
        elif isinstance(command, app_commands.Command):
            found.setdefault(command.qualified_name, command)
    return [found[name] for name in sorted(found)]


def command_lines(listed: list[SlashCommand]) -> list[str]:
    return [f"`{usage(command)}`: {command.description}" for command in listed]


def fields_of(lines: list[str], title: str) -> list[tuple[str, str]]:
    """``lines`` split into embed fields of at most 1,024 characters each."""
    fields: list[tuple[str, str]] = []
    current: list[str] = []
    for line in lines:
        line = line[:FIELD_LIMIT]
        if current and len("\n".join([*current, line])) > FIELD_LIMIT:
            fields.append((title if not fields else f"{title} (more)", "\n".join(current)))
            current = []
        current.append(line)
    if current:
        fields.append((title if not fields else f"{title} (more)", "\n".join(current)))
    return fields


def render_help(listed: list[SlashCommand]) -> discord.Embed:
    """The ``/help`` card: about, games, how to start, commands."""
    embed = discord.Embed(title="Fivefold", description=ABOUT, colour=EMBED_COLOUR)
    embed.add_field(name="Games", value=games_text(), inline=False)
    embed.add_field(name="How to start", value=HOW_TO_START, inline=False)
    for name, value in fields_of(command_lines(listed), "Commands"):
        embed.add_field(name=name, value=value, inline=False)
    return fit(embed)


class Help(commands.Cog):
    """``/help``."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot

    def listed(self, guild: discord.abc.Snowflake | None) -> list[SlashCommand]:
        """The slash commands of the tree: the global ones, and ``guild``'s own."""
        registered = list(self.bot.tree.get_commands())
        if guild is not None:
            registered += self.bot.tree.get_commands(guild=guild)
        return slash_commands(registered)

    @app_commands.command(name="help", description="What Fivefold is, its games and commands")
    async def help(self, interaction: Interaction) -> None:
        async with answered_on_failure(interaction, "/help"):
            embed = render_help(self.listed(interaction.guild))
            await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Help(bot))
