"""What the computer players' tests share: every game's player counts and option variants.

Generic over ``games.names()``: a sixth game is covered the day it is registered.
Option variants come from the options model itself (each ``Literal`` value, both
booleans, an integer's bounds), one option changed at a time from the defaults.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Iterator
from typing import Any

import annotated_types

import games
from games.core.errors import SetupError
from games.core.game import Game, make_options
from games.players import Player, perspective
from games.players.hard import HardPlayer
from games.players.levels import player

#: A hard budget small enough for tests, big enough to search (several worlds).
TEST_BUDGET = 150


def option_values(annotation: Any, metadata: list[Any]) -> list[Any]:
    """Values worth trying for one option: its literals, both booleans, an int's bounds."""
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if annotation is bool:
        return [False, True]
    if annotation is int:
        bounds = [m.ge for m in metadata if isinstance(m, annotated_types.Ge)]
        bounds += [m.le for m in metadata if isinstance(m, annotated_types.Le)]
        return bounds
    return []


def variants(name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(players, options) for every player count at the defaults, then each option
    value alone at every player count it fits."""
    cls = games.get(name)
    counts = range(cls.min_players, cls.max_players + 1)
    for count in counts:
        yield count, {}
    for key, field in cls.options_model.model_fields.items():
        for value in option_values(field.annotation, field.metadata):
            if value == field.default:
                continue
            for count in counts:
                try:
                    make_options(cls, count, {key: value})
                except SetupError:
                    continue
                yield count, {key: value}
                break


def all_variants() -> list[tuple[str, int, dict[str, Any]]]:
    return [(name, count, opts) for name in games.names() for count, opts in variants(name)]


def make(level: str) -> Player:
    """A player of ``level`` (hard with the test budget)."""
    return HardPlayer(budget=TEST_BUDGET) if level == "hard" else player(level)


def play_mixed(game: Game[Any], levels: list[str], seed: int, limit: int) -> int:
    """Play up to ``limit`` actions, seat ``s`` at ``levels[s % len(levels)]``, checking
    every choice is legal; the actions played."""
    players = {level: make(level) for level in set(levels)}
    rng = random.Random(seed)
    played = 0
    while not game.over and played < limit:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        decision = players[levels[seat % len(levels)]].decide(perspective(game, seat), rng)
        assert decision.action in legal, f"{decision.action} is not legal: {legal}"
        assert decision.reason
        game.apply(seat, decision.action)
        played += 1
    return played
