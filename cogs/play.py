"""``/play <game>``: one subcommand per registered game, built at import time.

Slash parameters must be declared before the bot starts, so each subcommand's
signature is assembled here from its game's options model (:mod:`cogs.options`),
followed by the table options every game shares: ``thread``, ``pictures``,
``hints`` and ``timer``. A game's subcommand shows only its own options, each
described with its meaning, range and default, so ``/play fazes fazes:1,2
timer:1m`` reads as it is typed. The callback hands everything to the Tables cog.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands

import games
from cogs.guard import writes
from cogs.options import OptionSpec, game_specs
from cogs.rules import player_range
from cogs.ui import clip
from games.core.errors import SetupError
from games.core.option_words import refusal, shown

TIMERS: dict[str, str] = {
    "off": "Off: wait for each player",
    "30s": "30 seconds",
    "1m": "1 minute",
    "2m": "2 minutes",
    "5m": "5 minutes",
}
"""The per-table turn timers, by the value ``Tables.open_table(timer=...)`` takes.

The agreed interface with the turn timers (``bot/timers.py`` on the ``timers``
branch, which owns their meaning): the merge may import the choices from there.
"""
TOURNAMENT = ("tournament", "Tournament: 10 seconds, then a random card")
TOURNAMENT_GAMES = frozenset({"fiasco"})
"""The games whose rules have a tournament timer (Fiasco's 10-second rule)."""

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
    chosen = dict(TIMERS)
    if game in TOURNAMENT_GAMES:
        chosen[TOURNAMENT[0]] = TOURNAMENT[1]
    return [app_commands.Choice(name=label, value=value) for value, label in chosen.items()]


def check_timer(game: str, timer: str | None) -> None:
    """SetupError unless ``timer`` is one of ``game``'s choices (or None, the default).

    Discord offers only the choices, but an old or forged client may send anything.
    """
    choices = [choice.value for choice in timer_choices(game)]
    if timer is not None and timer not in choices:
        title = games.get(game).title
        raise SetupError(refusal(title, f"`timer` was given {shown(timer)}; a {title} "
                                        f"table's timer must be one of {', '.join(choices)}"))


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
        cog: Any = interaction.client.get_cog("Tables")
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
    callback: Any = writes()(_callback(game))  # a few lobbies a minute per person at most
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
