"""Fumblaroo records of our own, replayed through the real command
``python -m games replay -`` (the shared vectors are replayed by
``tests/games/test_shared_vectors.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.games.fumblaroo.helpers import FORFEIT_DEAL, NEXT_DEAL, deal
from tests.vectors import check_replay

# --- our own records -------------------------------------------------------------------

HANDS = ["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"]


def record(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "fumblaroo", "players": 3, "dealer": 2,
        "deals": [deal(HANDS, "9C"), NEXT_DEAL], "actions": ["0 order", "2 discard 9C"],
    }
    base.update(changes)
    return base


MALFORMED = [
    ("not JSON", "{not json"),
    ("players 4", record(players=4)),
    ("unknown option", record(options={"length": "quick"})),
    ("target true", record(options={"target": True})),
    ("target too high", record(options={"target": 26})),
    ("seed not an integer", record(seed="12")),
    ("a deal with a stock", record(deals=[{"hands": HANDS, "stock": []}])),
    ("a deal with KC", record(deals=[{**deal(HANDS, "9C"),
                                      "kingdom": ["KC", *deal(HANDS, "9C")["kingdom"][1:]]}])),
    ("actions not strings", record(actions=[0])),
    ("no dealer and no seed", record(dealer=None)),
    ("the next deal needs the seed", record(deals=[FORFEIT_DEAL])),
]


@pytest.mark.parametrize(("why", "bad"), MALFORMED, ids=[why for why, _ in MALFORMED])
def test_malformed_records_exit_2_with_one_line(why: str, bad: Any):
    if isinstance(bad, str):  # raw text, not a record
        check_replay(None, {}, 2, raw=bad)
    else:
        check_replay(bad, {}, 2)


def test_a_record_without_deals_plays_from_the_seed():
    # Seed 42 draws dealer 2 and a deal without 2C up: seat 0 bids first.
    expect = {"game": "fumblaroo", "over": False, "scores": [0, 0, 0], "rounds": [],
              "winners": [], "tricks": [], "to_act": 0, "legal": ["order", "pass"],
              "error": None}
    result = check_replay({"game": "fumblaroo", "players": 3, "seed": 42, "actions": []},
                          expect, 0)
    assert json.loads(result.stdout) == expect  # and nothing more


def test_a_whole_hand_replays_to_its_score():
    actions = ["0 order", "2 discard 9C", "0 play AH", "1 play 9D", "2 play 9S",
               "0 play KH", "1 play TD", "2 play TS", "0 play QH", "1 play JD", "2 play JS",
               "0 play JH", "1 play QD", "2 play QS", "0 play TH", "1 play KD", "2 play KS"]
    check_replay(record(actions=actions), {
        "game": "fumblaroo", "over": False, "scores": [5, 0, 0], "rounds": [[5, 0, 0]],
        "winners": [], "tricks": [0, 0, 0, 0, 0], "to_act": 1, "legal": ["order", "pass"],
        "error": None,
    }, 0)


@pytest.mark.parametrize(("actions", "index"), [
    (["1 order"], 0),  # the wrong player
    (["0 pick"], 0),  # only the dealer picks, after two passes
    (["0 order", "2 discard AH"], 1),  # the dealer does not hold AH
    (["0 order", "2 discard 9C", "0 play KC"], 2),  # no such card
    (["0 order", "2 discard 9C", "0 play AH", "1 play 9S"], 3),  # 9S is not in hand 1
    (["0 pass", "1 pass", "2 turn", "0 call C"], 3),  # the turned-down suit
    (["0 pass", "1 pass", "2 turn", "0 pass"], 3),  # the forced call
    (["0 order", "2 discard 9C", "frobnicate"], 2),  # no player number
])
def test_illegal_actions_exit_1_at_their_index(actions: list[str], index: int):
    check_replay(record(actions=actions),
                 {"over": False, "error": {"index": index, "action": actions[index]}}, 1)


def test_an_action_after_the_game_is_over_exits_1():
    actions = ["0 order", "2 discard 9C", "0 play AH", "1 play 9D", "2 play 9S",
               "0 play KH", "1 play TD", "2 play TS", "0 play QH", "1 play JD", "2 play JS",
               "0 play JH", "1 play QD", "2 play QS", "0 play TH", "1 play KD", "2 play KS",
               "1 order"]
    check_replay(record(options={"target": 5}, actions=actions),
                 {"over": True, "winners": [0], "legal": [],
                  "error": {"index": len(actions) - 1, "action": "1 order"}}, 1)
