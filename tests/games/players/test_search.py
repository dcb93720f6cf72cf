"""The hard level's search: it finds the best move, spends its budget and no more,
halves the candidates toward the good ones, and is a pure function of its generator.

Played on the toy game of ``toy.py``, whose best move is known.
"""

from __future__ import annotations

import importlib
import random
import sys
import types

import pytest

import games
from games.core.game import View
from games.players import base
from games.players.hard import DEFAULT_BUDGET, HardPlayer, budget_for
from games.players.search import halving_rounds, search
from tests.games.players.toy import CHOICES, ToyKnowledge

STRENGTHS = (0.2, 0.35, 0.9, 0.1, 0.3, 0.15)


def run(know: ToyKnowledge, budget: int, seed: int = 1):
    rng = random.Random(seed)
    candidates = CHOICES[: len(know.strengths)]
    return search(0, candidates, lambda: know.sample(None, rng), rng,  # type: ignore[arg-type]
                  budget=budget)


def test_search_finds_the_move_that_wins_most():
    found = run(ToyKnowledge(STRENGTHS), 3000)
    assert found.best == 2
    assert found.means[2] > 0.7


def test_the_budget_is_spent_and_overrun_by_less_than_one_world_per_round():
    know = ToyKnowledge(STRENGTHS, length=3)
    found = run(know, 1000)
    assert found.spent == know.counter.moves
    assert found.worlds == know.counter.worlds
    world_cost = len(STRENGTHS) * (know.length + 1)
    assert 1000 <= found.spent < 1000 + halving_rounds(len(STRENGTHS)) * world_cost


def test_a_tiny_budget_still_plays_every_candidate_once():
    found = run(ToyKnowledge(STRENGTHS), 1)
    assert all(n >= 1 for n in found.playouts)


def test_successive_halving_gives_the_bad_moves_fewer_playouts():
    halved = run(ToyKnowledge(STRENGTHS), 3000)
    # a flat search would play each of the six the same number of times
    assert halved.playouts[2] > 2 * halved.playouts[3]
    assert halved.playouts[2] == max(halved.playouts)
    assert halved.playouts[3] == min(halved.playouts)


def test_ties_go_to_the_earliest_candidate():
    assert run(ToyKnowledge((0.0,) * 5), 500).best == 0


def test_same_generator_same_result_and_another_generator_other_worlds():
    first, again = run(ToyKnowledge(STRENGTHS), 800, 7), run(ToyKnowledge(STRENGTHS), 800, 7)
    assert first == again
    assert run(ToyKnowledge(STRENGTHS), 800, 8).means != first.means


def toy_perspective(choices: int) -> base.Perspective:
    view = View(game="toy", viewer=0, players=2, to_act=0, over=False, winners=(),
                scores=(0, 0), phase="picking", facts=(), zones=())
    return base.Perspective(game="toy", players=2, options=None,  # type: ignore[arg-type]
                            seat=0, view=view, history=(), legal=CHOICES[:choices],
                            first_dealer=0, dealer=0, rounds=())


@pytest.fixture
def toy(monkeypatch):
    know = ToyKnowledge(STRENGTHS)
    monkeypatch.setitem(base._KNOWLEDGE, "toy", know)
    return know


def test_hard_spends_the_games_own_budget_hint(toy, monkeypatch):
    module = types.ModuleType("games.toy.computer.knowledge")
    module.BUDGET = 600  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "games.toy.computer.knowledge", module)
    assert budget_for("toy") == 600
    decision = HardPlayer().decide(toy_perspective(len(STRENGTHS)), random.Random(0))
    assert 600 <= toy.counter.moves < 600 + 3 * len(STRENGTHS) * 4
    assert decision.action == CHOICES[2]
    assert decision.reason == "picks 2"  # said to the player: no figures
    assert decision.odds.startswith("scored ") and "sampled deals" in decision.odds


@pytest.mark.parametrize("name", games.names())
def test_every_game_s_budget_is_read_from_its_knowledge_module(name):
    # The reorganisation moved the knowledge modules and once lost every BUDGET (20,000).
    module = importlib.import_module(f"games.{name}.computer.knowledge")
    assert budget_for(name) == module.BUDGET


def test_an_explicit_budget_wins_over_the_hint_and_no_hint_means_the_default(toy):
    assert budget_for("toy") == DEFAULT_BUDGET
    HardPlayer(budget=200).decide(toy_perspective(len(STRENGTHS)), random.Random(0))
    assert 200 <= toy.counter.moves < 400


def test_hard_does_not_search_a_forced_move(toy):
    decision = HardPlayer().decide(toy_perspective(1), random.Random(0))
    assert decision.action == CHOICES[0]
    assert toy.counter.worlds == 0


def test_a_budget_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        HardPlayer(budget=0)
