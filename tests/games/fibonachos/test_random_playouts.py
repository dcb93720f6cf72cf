"""Seeded random playouts of Fibonachos for every player count and option, checking the
shared invariants after every action, and records of finished games that replay."""

from __future__ import annotations

import json

import pytest

from games.core.records import Record
from games.core.registry import new_game
from games.core.replay import replay, summarize
from games.fibonachos import Fibonachos
from tests.invariants import random_playout

PLAYERS = (2, 3, 4, 5)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_default_options(players, seed):
    g = random_playout(Fibonachos.new(players, seed=seed), seed)
    assert len(g.rounds) == 3
    assert len(g.tricks) == 3 * g.tricks_per_round
    assert g.scores == [sum(r[p] for r in g.rounds) for p in range(players)]
    assert g.winners and all(g.scores[w] == max(g.scores) for w in g.winners)


@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5])
def test_random_playout_each_rounds_option(rounds):
    players = PLAYERS[rounds % len(PLAYERS)]
    g = random_playout(Fibonachos.new(players, {"rounds": rounds}, seed=10 + rounds), rounds)
    assert len(g.rounds) == rounds
    assert len(g.record().deals) == rounds
    # The deal passes one seat clockwise each round.
    assert g.dealer == (g.first_dealer + rounds - 1) % players


@pytest.mark.parametrize("players", PLAYERS)
def test_a_finished_random_game_record_replays_to_the_same_summary(players):
    g = random_playout(new_game("fibonachos", players, seed=40 + players), players)
    data = json.loads(g.record().model_dump_json())  # through JSON, as the bot stores it
    again = replay(Record.from_data(data))
    assert again.error is None
    assert again.summary() == summarize(g)
    assert again.game.record() == g.record()


def test_the_same_seed_gives_the_same_deals_and_another_seed_others():
    first = new_game("fibonachos", 4, seed=7).record()
    assert new_game("fibonachos", 4, seed=7).record() == first
    assert new_game("fibonachos", 4, seed=8).record().deals != first.deals


def test_a_clone_is_independent():
    g = Fibonachos.new(3, seed=5)
    copy = g.clone()
    copy.apply(copy.to_act or 0, copy.legal_actions()[0])
    assert len(g.history) == 0 and sum(map(len, g.hands)) == 51
    assert len(copy.history) == 1 and sum(map(len, copy.hands)) == 50
