"""``/play <game>``: one subcommand per registered game, built at import time.

Slash parameters must be declared before the bot starts, so each subcommand's
signature is assembled here from its game's options model (:mod:`cogs.options`),
followed by the table options every game shares: ``thread``, ``pictures``,
``hints`` and ``timer``. A game's subcommand shows only its own options, each
described with its meaning, range and default, so ``/play fazes fazes:1,2
timer:1m`` reads as it is typed. The callback hands everything to the TableCommands cog.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands

import games
from bot.tables.timers import (
    CHOICES,
    TOURNAMENT,
    TOURNAMENT_SECONDS,
    duration_words,
    has_tournament,
    seconds_for,
    tournament_titles,
)
from cogs.options import OptionSpec, game_specs
from cogs.render.lobby import player_range
from cogs.render.text import clip
from games.core.errors import SetupError
from games.core.option_words import refusal, shown


def timer_label(choice: str) -> str:
    """A timer choice as Discord lists it: ``2 minutes``, ``Off: wait for each player``."""
    if choice == "off":
        return "Off: wait for each player"
    if choice == TOURNAMENT:
        return f"Tournament: {duration_words(TOURNAMENT_SECONDS)}, then a random card"
    return duration_words(seconds_for(choice))


TABLE_OPTIONS: dict[str, str] = {
    "thread": "Open the table in a new thread named after the game (default no)",
    "pictures": "Draw the cards as pictures (default: the server's setting, on)",
    "hints": "A Hint button shows what the hard computer would play; not rated (default no)",
    "timer": "Time for each turn before a computer plays it (default: the server's setting)",
}
"""The options every ``/play`` subcommand has, after the game's own."""


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=games.get(n).title, value=n) for n in games.names()]


def timer_choices(game: str) -> list[app_commands.Choice[str]]:
    """The timers of :data:`bot.tables.timers.CHOICES` that ``game`` has (the tournament timer
    only if its rules have it)."""
    return [app_commands.Choice(name=timer_label(choice), value=choice) for choice in CHOICES
            if choice != TOURNAMENT or has_tournament(game)]


def check_timer(game: str, timer: str | None) -> None:
    """SetupError unless ``timer`` is one of ``game``'s choices (or None, the default).

    Discord offers only the choices, but an old or forged client may send anything.
    """
    choices = [choice.value for choice in timer_choices(game)]
    if timer is not None and timer not in choices:
        title = games.get(game).title
        why = (f" (the tournament timer, {duration_words(TOURNAMENT_SECONDS)} and then a random "
               f"card, is {tournament_titles()}'s rule)" if timer == TOURNAMENT
               else "")
        raise SetupError(refusal(title, f"`timer` was given {shown(timer)}; a {title} "
                                        f"table's timer must be one of {', '.join(choices)}"
                                        + why))


def _annotation(spec: OptionSpec) -> Any:
    if spec.kind == "bool":
        return bool
    if spec.kind == "int":
        return app_commands.Range[int, spec.minimum, spec.maximum]
    if spec.kind == "choice":
        return Literal[tuple(spec.choices)]
    return str


def _signature(specs: list[OptionSpec]) -> inspect.Signature:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("interaction", kind, annotation=discord.Interaction)]
    params += [inspect.Parameter(spec.name, kind, annotation=_annotation(spec), default=None)
               for spec in specs]
    params += [
        inspect.Parameter("thread", kind, annotation=bool, default=False),
        inspect.Parameter("pictures", kind, annotation=bool | None, default=None),
        inspect.Parameter("hints", kind, annotation=bool, default=False),
        inspect.Parameter("timer", kind, annotation=str | None, default=None),
    ]
    return inspect.Signature(params)


def _callback(game: str) -> Callable[..., Awaitable[None]]:
    async def play(interaction: discord.Interaction[Any], *, thread: bool = False,
                   pictures: bool | None = None, hints: bool = False, timer: str | None = None,
                   **options: Any) -> None:
        cog: Any = interaction.client.get_cog("TableCommands")
        given = {name: value for name, value in options.items() if value is not None}
        await cog.open_table(interaction, game, thread=thread, options=given,
                             pictures=pictures, hints=hints, timer=timer)

    return play


def subcommand(game: str) -> app_commands.Command[Any, ..., None]:
    """``/play <game>`` with ``game``'s options, then the table options."""
    cls = games.get(game)
    specs = game_specs(game)
    clash = {spec.name for spec in specs} & set(TABLE_OPTIONS)
    if clash:
        raise ValueError(f"{cls.title}'s options {sorted(clash)} shadow table options")
    # A few lobbies a minute per person at most: the TableCommands cog counts /play, whatever the
    # game, with Play again against one limit (COMMANDS_PER_MINUTE), so it is not here.
    callback: Any = _callback(game)
    callback.__signature__ = _signature(specs)
    callback.__discord_app_commands_param_description__ = {
        **{spec.name: spec.description() for spec in specs}, **TABLE_OPTIONS}
    callback.__discord_app_commands_param_choices__ = {"timer": timer_choices(game)}
    return app_commands.Command(
        name=game,
        description=clip(cls.pitch or cls.goal or f"{cls.title}, {player_range(cls)}", 100),
        callback=callback,
    )


def play_group() -> app_commands.Group:
    """``/play`` with one subcommand per registered game."""
    group = app_commands.Group(name="play", description="Open a table for a card game here",
                               guild_only=True)
    for game in games.names():
        group.add_command(subcommand(game))
    return group


PLAY = play_group()
