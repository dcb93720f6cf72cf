"""Decisions are pure: the same perspective and generator give the same decision in any
process; ``random`` is the first wave's computer player bit for bit."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import games
from bot.tables.computers import move_rng
from games.players import decide, perspective
from games.players.match import decision_rng
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


@pytest.mark.parametrize("name", games.names())
def test_random_is_the_first_waves_choice_bit_for_bit(name):
    game = midgame(name, actions=0)
    seed = game.seed
    while not game.over:
        seat, actions = game.to_act, len(game.history)
        first_wave = move_rng(seed, actions).choice(game.legal_actions(seat))
        now = decide("random", perspective(game, seat), decision_rng("random", seed, actions, seat))
        assert now.action == first_wave
        game.apply(seat, now.action)
