"""The computer player for now: a random legal action from a seeded generator.

A later issue makes computer players strong; they keep this signature.
"""

from __future__ import annotations

import random
from typing import Any

from games.core.actions import Action
from games.core.game import Game


def move_rng(seed: int | None, actions: int) -> random.Random:
    """The generator for one computer move: from the game's seed and the actions so far.

    Nothing else (no process state), so a table resumed after a restart makes the
    same computer moves as one that never stopped.
    """
    return random.Random(f"fivefold-computer:{seed}:{actions}")


def choose_action(game: Game[Any], seat: int, rng: random.Random) -> Action:
    """A legal action for ``seat``, who is to act; ValueError when there is none."""
    legal = game.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    return rng.choice(legal)
