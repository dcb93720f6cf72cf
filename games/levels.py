"""The computer players' levels, by the names the command line, the bot and its database use.

One enum for all of them: :mod:`games.players` registers a player for each, and the bot
keeps a computer seat's level as its value (``bot.models.Seat.level``), so the values
never change. A level beside these (the frozen ``hard-2026-12`` of
:mod:`games.players.frozen`) is registered by its name alone, which the command line
accepts and the bot never offers. Imports nothing, so the bot's models
load it without the computer players.
"""

from __future__ import annotations

from enum import StrEnum


class Level(StrEnum):
    """How well a computer player plays."""

    RANDOM = "random"
    EASY = "easy"
    HARD = "hard"


__all__ = ["Level"]
