"""Fibonachos records of our own through the real replay command
(``python -m games replay -``); the shared vectors are replayed by
``tests/games/test_shared_vectors.py``."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.records import Record
from games.core.replay import replay as core_replay
from tests.games.fibonachos.helpers import MIXED, ROUND_SCRIPT, SPICY_28_2, deal, one_suit_each
from tests.vectors import check_replay

# --- records of our own -------------------------------------------------------------

def record(actions: list[str], /, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"game": "fibonachos", "players": 3, "options": {}, "seed": 5,
                            "dealer": 2, "deals": [deal(MIXED)], "actions": actions}
    base.update(changes)
    return base


def test_own_record_replays_a_trump_trick():
    check_replay(record(["0 play R16", "1 play R2", "2 play G13", "2 PLAY y9"]),
                 {"over": False, "scores": [0, 0, 0], "rounds": [], "winners": [], "tricks": [2],
                  "to_act": 0, "error": None,
                  "legal": ["play Y1", "play Y2", "play Y3", "play Y4", "play Y5", "play Y6",
                            "play Y7", "play Y8"]},
                 0)


@pytest.mark.parametrize(
    ("actions", "index"),
    [
        (["0 play R4", "2 play G5"], 1),  # out of turn
        (["0 play R4", "1 play G1"], 1),  # seat 1 must follow Red
        (["0 play G13"], 0),  # not held
        (["0 play R17"], 0),  # no such card
        (["0 play 2"], 0),  # a Spicy card is not played
        (["0 draw R1"], 0),  # no such verb
        (["3 play R1"], 0),  # no such player
        (["0 play R4", "1 play R10", "2 play G5", "1 play R1 R2"], 3),  # does not parse
    ],
)
def test_own_illegal_record_exits_1_at_the_bad_action(actions, index):
    before = core_replay(Record.from_data(record(actions[:index])))
    assert before.error is None
    state = before.summary()
    state["error"] = {"index": index, "action": actions[index]}
    check_replay(record(actions), state, 1)


@pytest.mark.parametrize(
    "spoil",
    [
        {"options": {"rounds": True}},
        {"options": {"rounds": 6}},
        {"options": {"length": "quick"}},
        {"players": 6},
        {"seed": "5"},
        {"seed": None, "dealer": None},
        {"deals": [{**deal(MIXED), "spicy": [1, 2, 3] * 4 + [True, 2, 3]}]},
        {"deals": [{**deal(MIXED), "decks": [[], [], []]}]},
        {"deals": [deal(MIXED), {**deal(MIXED), "aside": ["R1"]}]},
        {"players": 2},  # a three-player deal for two players
        {"actions": "0 play R4"},
    ],
)
def test_own_malformed_record_exits_2(spoil):
    check_replay(record([], **spoil), {}, 2)


def test_not_json_exits_2():
    check_replay(None, {}, 2, raw="{not json")


def test_a_round_needing_a_deal_without_a_seed_exits_2():
    actions = [f"{'RYG'.index(card[0])} play {card}" for card in ROUND_SCRIPT]
    rec = record(actions, seed=None, deals=[one_suit_each(0, SPICY_28_2)], options={"rounds": 2})
    check_replay(rec, {}, 2)
    rec["options"] = {"rounds": 1}
    check_replay(rec, {"over": True, "winners": [2], "rounds": [[28, 3, 34]],
                       "scores": [28, 3, 34], "tricks": [0] * 13 + [1, 1, 2, 2],
                       "to_act": None, "legal": [], "error": None}, 0)
