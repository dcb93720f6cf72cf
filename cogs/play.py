"""``/play``, built at import time from the game registry.

Slash parameters must be declared before the bot starts, so the command's
signature is assembled here: ``game`` (a choice of every registered game),
``thread``, ``hints`` (the table option adding the Hint button), ``timer`` (the turn
timer, :data:`bot.timers.CHOICES`; none given: the server's), then one optional
parameter per option name of any game (see :mod:`cogs.options`). The callback hands
everything to the Tables cog.
"""

from __future__ import annotations

import inspect
from typing import Any, Literal

import discord
from discord import app_commands

import games
from bot.timers import CHOICES, DESCRIPTION
from cogs.guard import writes
from cogs.options import OptionSpec, option_specs

RESERVED = {"interaction", "game", "thread", "pictures", "hints", "timer"}
SPECS = {name: spec for name, spec in option_specs().items() if name not in RESERVED}


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=games.get(n).title, value=n) for n in games.names()]


def _annotation(spec: OptionSpec) -> Any:
    if spec.kind == "bool":
        return bool
    if spec.kind == "int":
        return app_commands.Range[int, spec.minimum, spec.maximum]
    if spec.kind == "choice":
        return Literal[tuple(spec.choices)]
    return str


async def _play(interaction: discord.Interaction[Any], game: str, thread: bool = False,
                pictures: bool | None = None, hints: bool = False, timer: str | None = None,
                **options: Any) -> None:
    cog: Any = interaction.client.get_cog("Tables")
    given = {name: value for name, value in options.items() if value is not None}
    await cog.open_table(interaction, game, thread=thread, options=given, pictures=pictures,
                         hints=hints, timer=timer)


def _signature() -> inspect.Signature:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [
        inspect.Parameter("interaction", kind, annotation=discord.Interaction),
        inspect.Parameter("game", kind, annotation=str),
        inspect.Parameter("thread", kind, annotation=bool, default=False),
        inspect.Parameter("pictures", kind, annotation=bool | None, default=None),
        inspect.Parameter("hints", kind, annotation=bool, default=False),
        inspect.Parameter("timer", kind, annotation=Literal[CHOICES] | None, default=None),
    ]
    params += [inspect.Parameter(name, kind, annotation=_annotation(spec), default=None)
               for name, spec in SPECS.items()]
    return inspect.Signature(params)


_play = writes()(_play)  # a few lobbies a minute per person at most
_play.__signature__ = _signature()  # type: ignore[attr-defined]
_play.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
    "game": "The game to play",
    "thread": "Open the table in a new thread named after the game",
    "pictures": "Draw the cards as pictures (default: the server's setting, on)",
    "hints": "A Hint button shows what the hard computer would play (the game is not rated)",
    "timer": DESCRIPTION,
    **{name: spec.description() for name, spec in SPECS.items()},
}
_play.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
    "game": game_choices(),
}

PLAY: app_commands.Command[Any, ..., None] = app_commands.guild_only(app_commands.Command(
    name="play",
    description="Open a table for a card game in this channel",
    callback=_play,  # type: ignore[arg-type]  # its signature is the one assembled above
))
