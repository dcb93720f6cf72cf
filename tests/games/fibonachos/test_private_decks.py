"""A two-player game's private decks are dealt face down: nobody sees their cards, their
owner included, who knows only how many are left (``docs/rules/README.md``, Hidden
information). Checked here in the rules core's views; what the bot renders of them is
``tests/cogs/render/test_private_decks.py``."""

from __future__ import annotations

import random

from games.fibonachos import Fibonachos


def two_player_game(seed: int) -> Fibonachos:
    game = Fibonachos.new(2, seed=seed)
    return game


def test_no_view_of_a_two_player_game_ever_shows_a_private_deck():
    game = two_player_game(3)
    rng = random.Random(3)
    seen_decks = 0
    while not game.over:
        for viewer in (0, 1, None):
            decks = [z for z in game.view_for(viewer).zones if z.name.startswith("deck:")]
            assert [z.owner for z in decks] == [0, 1]
            for zone in decks:
                assert zone.hidden, (viewer, zone)
                assert zone.count == len(game.decks[zone.owner])
                seen_decks += zone.count
        seat = game.to_act
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen_decks > 0
