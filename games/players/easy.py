"""The easy level: each game's rules of thumb with a little seeded noise.

A beginner's opponent: it follows low, wins a trick cheaply, keeps its Kings out of
trouble, and now and then makes the kind of mistake a person makes. The rules live in
each game's :class:`~games.players.base.Knowledge`; a game without knowledge yet plays
at random.
"""

from __future__ import annotations

import random

from games.players.base import Decision, Perspective, knowledge_for
from games.players.levels import Level, RandomPlayer, register_level


class EasyPlayer:
    """The game's :meth:`Knowledge.easy`."""

    level = Level.EASY

    def decide(self, p: Perspective, rng: random.Random) -> Decision:
        know = knowledge_for(p.game)
        if know is None:
            return RandomPlayer().decide(p, rng)
        return know.easy(p, rng)


register_level(Level.EASY, EasyPlayer)

__all__ = ["EasyPlayer"]
