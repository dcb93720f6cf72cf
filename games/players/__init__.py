"""Computer players: levels (random, easy, hard) behind one protocol, and per-game knowledge.

Pure and typed, no Discord, no asyncio. Importing this package registers every level
(and ``hard-2026-12``, the frozen yardstick of :mod:`games.players.frozen`) and every
game's knowledge (``games/<game>/computer/knowledge.py`` of each registered game); a
game's advice to the hard search (``advice.py`` beside it) is imported when first asked
for (:func:`games.players.advice.advice_for`).

>>> import random, games
>>> from games.players import decide, perspective
>>> game = games.new_game("fazes", 4, seed=1)
>>> decide("random", perspective(game, game.to_act), random.Random(0)).action
Action('play G2')
"""

import importlib
import importlib.util

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
from games.players.levels import Level, Player, decide, levels, player, register_level


def _register_all() -> None:
    for module in sorted(_LEVEL_MODULES):
        importlib.import_module(f"{__name__}.{module}")
    for name in games.names():
        # A game's computer knowledge lives in its own package: games/<game>/computer/.
        if importlib.util.find_spec(f"games.{name}.computer") is not None:
            importlib.import_module(f"games.{name}.computer.knowledge")


# Modules holding levels beyond random (each calls register_level on import).
_LEVEL_MODULES = frozenset({"easy", "frozen", "hard"})

_register_all()

__all__ = [
    "Decision",
    "Knowledge",
    "Level",
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
