"""Decisions are pure: the same perspective and generator give the same decision in any
process. (That ``random`` is the bot's first-wave computer player bit for bit is
``tests/bot/tables/test_computers.py``.)"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import games
from games.players import perspective
from tests.games.players.helpers import make

LEVELS = ("random", "easy", "hard")


def midgame(name: str, actions: int = 9):
    """A game of ``name`` a few actions in, on a fixed seed, played at random."""
    cls = games.get(name)
    game = games.new_game(name, max(cls.min_players, min(4, cls.max_players)), seed=2024)
    rng = random.Random(5)
    for _ in range(actions):
        if game.over:
            break
        game.apply(game.to_act, rng.choice(game.legal_actions()))
    return game


def decisions() -> dict[str, str]:
    """Every game's choice of every level at its midgame, as text."""
    out = {}
    for name in games.names():
        game = midgame(name)
        view = perspective(game, game.to_act)
        for level in LEVELS:
            decision = make(level).decide(view, random.Random(f"t:{name}:{level}"))
            out[f"{name}/{level}"] = f"{decision.action}|{decision.reason}"
    return out


def test_the_same_decision_in_another_process():
    code = ("import json; from tests.games.players.test_determinism import decisions; "
            "print(json.dumps(decisions()))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert json.loads(run.stdout) == decisions()
