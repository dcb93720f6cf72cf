"""Computer players: levels (random, easy, hard) behind one protocol, and per-game knowledge.

Pure and typed, no Discord, no asyncio. Importing this package registers every level
and every game's knowledge (a module here named after a registered game).

>>> import random, games
>>> from games.players import decide, perspective
>>> game = games.new_game("fazes", 4, seed=1)
>>> decide("random", perspective(game, game.to_act), random.Random(0)).action
Action('play G2')
"""

import importlib
import pkgutil

import games
from games.players.base import (
    Decision,
    Knowledge,
    Perspective,
    SearchState,
    knowledge_for,
    perspective,
    register_knowledge,
)
from games.players.levels import Player, decide, levels, player, register_level


def _register_all() -> None:
    game_names = set(games.names())
    for module in pkgutil.iter_modules(__path__):
        if module.name in game_names or module.name in _LEVEL_MODULES:
            importlib.import_module(f"{__name__}.{module.name}")


# Modules holding levels beyond random (each calls register_level on import).
_LEVEL_MODULES = frozenset({"easy", "hard"})

_register_all()

__all__ = [
    "Decision",
    "Knowledge",
    "Perspective",
    "Player",
    "SearchState",
    "decide",
    "knowledge_for",
    "levels",
    "perspective",
    "player",
    "register_knowledge",
    "register_level",
]
