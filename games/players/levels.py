"""The computer players' levels behind one protocol, registered by :class:`Level`.

A level is an object with :meth:`Player.decide`; :func:`decide` looks one up by its
:class:`Level`. ``random`` is the first wave's computer player, bit for bit: a uniformly
random legal action from the generator it is given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import StrEnum
from typing import Protocol

from games.players.base import Decision, Perspective


class Level(StrEnum):
    """The computer players' levels, by the names the command line and the bot use."""

    RANDOM = "random"
    EASY = "easy"
    HARD = "hard"
    HARD_2026_12 = "hard-2026-12"  # hard as it played in December 2026, frozen


class Player(Protocol):
    """A computer player: a pure function of a perspective and a generator."""

    level: Level

    def decide(self, p: Perspective, rng: random.Random) -> Decision:
        """A legal action for ``p.seat`` (who is to act), and why in a few words."""
        ...


_LEVELS: dict[Level | str, Callable[[], Player]] = {}


def register_level(level: Level | str, factory: Callable[[], Player]) -> None:
    """Make ``factory`` the maker of the players of ``level``."""
    _LEVELS[level] = factory


def levels() -> list[Level | str]:
    """Every registered level, sorted by name (with any other name registered beside them)."""
    return sorted(_LEVELS)


def player(level: Level | str) -> Player:
    """A player of ``level``; :class:`KeyError` naming the levels when there is none."""
    try:
        factory = _LEVELS[level]
    except KeyError:
        raise KeyError(f"no level {str(level)!r}; the levels are {', '.join(levels())}") from None
    return factory()


def decide(level: Level, p: Perspective, rng: random.Random) -> Decision:
    """The choice of a ``level`` player for ``p``; ValueError when ``p`` has no legal action."""
    if not p.legal:
        raise ValueError(f"seat {p.seat} has no legal action")
    return player(level).decide(p, rng)


class RandomPlayer:
    """A uniformly random legal action: ``rng.choice`` over the legal actions in order."""

    level = Level.RANDOM

    def decide(self, p: Perspective, rng: random.Random) -> Decision:
        return Decision(rng.choice(p.legal), "any legal move will do")


register_level(Level.RANDOM, RandomPlayer)

__all__ = ["Level", "Player", "RandomPlayer", "decide", "levels", "player", "register_level"]
