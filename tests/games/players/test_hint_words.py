"""Hints are said to the player: their cards as people read them, no search figures.

The Hint button shows ``hint_words(label, reason)``: the move as its button says it, then
the computer's reason, addressed to the player. Whatever the level decides in any game,
that sentence writes no card in record notation and carries no sample count or
percentage (those stay in ``Decision.odds``, for the command line and the benchmarks).
"""

from __future__ import annotations

import random
import re

import pytest

import games
from games.players.base import hint_words, perspective
from games.players.levels import Level, decide
from games.players.match import make_player
from tests.voice import card_codes

FIGURES = re.compile(r"\d+%|sampled|searched|scored ")
THIRD_PERSON = re.compile(r"\b(its own|it must|it cannot|sheds its|throws its)\b")


@pytest.mark.parametrize("name", games.names())
def test_every_hint_is_said_to_the_player_in_the_games_words(name):
    cls = games.get(name)
    game = games.new_game(name, cls.min_players + 1 if cls.max_players > 3 else 3, seed=5)
    names = [f"P{i}" for i in range(game.players)]
    rng = random.Random(name)
    hard = make_player(Level.HARD, 60)
    said = 0
    while not game.over and said < 25:
        seat = game.to_act
        assert seat is not None
        view = perspective(game, seat)
        for decision in (hard.decide(view, random.Random(said)),
                         decide(Level.EASY, view, random.Random(said))):
            words = hint_words(game.action_label(decision.action, names), decision.reason)
            assert decision.reason, (name, decision)
            assert card_codes(name, words) == [], words
            assert not FIGURES.search(words), words
            assert not THIRD_PERSON.search(words), words
            assert words.count(": ") == 1, words  # the move, then why: one colon
        said += 1
        game.apply(seat, rng.choice(game.legal_actions()))
    assert said >= 10
