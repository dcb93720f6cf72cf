"""Seeded random playouts of Fumblaroo, checking the shared invariants after every action,
for every option value; and records of finished random games replaying exactly."""

from __future__ import annotations

import json

import pytest

from games.core.records import Record
from games.core.registry import new_game
from games.core.replay import replay, summarize
from games.fumblaroo import Fumblaroo
from games.fumblaroo.options import MAX_TARGET, MIN_TARGET
from tests.invariants import random_playout

TARGETS = range(MIN_TARGET, MAX_TARGET + 1)


@pytest.mark.parametrize("target", TARGETS)
def test_random_playout_every_target(target: int):
    seeds = (target, 1000 + target) if target <= 12 else (target,)
    for seed in seeds:
        g = new_game("fumblaroo", 3, {"target": target}, seed=seed)
        random_playout(g, seed)
        assert g.over and len(g.winners) == 1
        (winner,) = g.winners
        assert g.scores[winner] >= target
        assert sorted(g.scores).count(g.scores[winner]) == 1
        assert g.scores == [sum(r[p] for r in g.rounds) for p in range(3)]


@pytest.mark.parametrize("seed", range(6))
def test_random_playout_default_options(seed: int):
    g = Fumblaroo.new(3, seed=seed)
    random_playout(g, seed, probe_every=3)
    assert g.over
    # Every played hand has five tricks; a void (2C) hand has none.
    played = sum(1 for d in g.deals_played if d["kingdom"][0] != "2C")
    assert len(g.tricks) == 5 * played
    assert len(g.rounds) == len(g.deals_played)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_record_of_a_finished_random_game_replays_to_the_same_summary(seed: int):
    g = new_game("fumblaroo", 3, {"target": 7}, seed=seed)
    random_playout(g, seed)
    assert g.over
    data = json.loads(g.record().model_dump_json())
    result = replay(Record.from_data(data))
    assert result.error is None
    assert result.summary() == summarize(g)
    # The deals alone (no seed) replay it too: every deal reached is in the record.
    data["seed"] = None
    again = replay(Record.from_data(data))
    assert again.summary() == summarize(g)


def test_a_clone_plays_on_without_touching_the_original():
    g = Fumblaroo.new(3, seed=21)
    for _ in range(9):  # into the tricks of the first hand
        assert g.to_act is not None
        g.apply(g.to_act, g.legal_actions()[0])
    before = summarize(g)
    hands = [list(h) for h in g.hands]
    copy = g.clone()
    random_playout(copy, 21)
    assert copy.over
    assert summarize(g) == before
    assert g.hands == hands
