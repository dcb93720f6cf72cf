"""The Help cog: ``/help``, a private overview of the bot that fits a phone screen.

What Fivefold is in a sentence, how to start a table, the games with their player
counts (from the game registry) in one line, and the few commands a player needs on
their first evening. ``/help all:true`` lists every slash command instead, one line
each, read from the bot's command tree when it runs, so a new command shows up there
by itself, with the description it was registered with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from cogs.answers import answered_on_failure
from cogs.render.embeds import EMBED_COLOUR, FIELD_LIMIT, fit
from games.core.seats import players_text

if TYPE_CHECKING:
    from bot.app import FivefoldBot

Interaction = discord.Interaction[Any]
SlashCommand = app_commands.Command[Any, ..., Any]

MAX_OPTIONAL_SHOWN = 2
"""A command with more optional parameters than this shows them as ``[options…]``."""

PHONE_CHARS = 900
"""The most the short ``/help`` may say: about a phone screen."""
ABOUT = (
    "Card games with friends, right here: one table message everyone sees, your own hand "
    "shown to you alone, computer players for empty seats."
)
HOW_TO_START = (
    "`/play <game>` opens a lobby here. Friends press **Join**, the host may **Add "
    "computer player**, then **Start**. **Show my hand** shows your cards and your moves."
)
FIRST_EVENING = (
    "`/rules <game>` the rules, page by page\n"
    "`/hand` your hand again · `/leave` a computer takes your seat\n"
    "`/end` ends the table (the host)\n"
    "`/tables` the server's tables, to join or watch\n"
    "`/daily <game>` today's deal, the same for everyone\n"
    "`/help all:true` every command"
)


def games_text() -> str:
    """The registered games with their player ranges, in a line or two."""
    return " · ".join(f"**{games.get(name).title}** "
                      f"{players_text(games.get(name).min_players, games.get(name).max_players)}"
                      for name in games.names())


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


def render_help(listed: list[SlashCommand], *, every: bool = False) -> discord.Embed:
    """The ``/help`` card: about, how to start, the games and the first commands, a phone
    screen's worth; with ``every``, every command instead."""
    embed = discord.Embed(title="Fivefold", description=ABOUT, colour=EMBED_COLOUR)
    if every:
        for name, value in fields_of(command_lines(listed), "Commands"):
            embed.add_field(name=name, value=value, inline=False)
        return fit(embed)
    embed.add_field(name="Start a game", value=HOW_TO_START, inline=False)
    embed.add_field(name="Games", value=games_text(), inline=False)
    embed.add_field(name="Good to know", value=FIRST_EVENING, inline=False)
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

    @app_commands.command(name="help", description="What Fivefold is, how to start, its games")
    @app_commands.describe(all="List every command instead (default: the first ones)")
    async def help(self, interaction: Interaction, all: bool = False) -> None:
        async with answered_on_failure(interaction, "/help"):
            embed = render_help(self.listed(interaction.guild), every=all)
            await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Help(bot))
