"""Fizzbin records of our own replayed through the real command ``python -m games replay -``
(the shared vectors are replayed by ``tests/games/test_shared_vectors.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.games.fizzbin.helpers import DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, deal
from tests.vectors import check_replay


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "game": "fizzbin", "players": 6, "options": {"hands": 1, "time": "day"}, "dealer": 0,
        "deals": [deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, night=False)],
        "actions": ["1 draw stack", "1 discard 6S 1", "0 draw stack"],
    }
    record.update(changes)
    return record


@pytest.mark.parametrize(
    "record",
    [
        _record(options={"time": "day", "hands": 0}),
        _record(options={"hands": True}),
        _record(options={"moon": "full"}),
        _record(players=7),
        _record(deals=[deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, night=True)]),
        _record(deals=[{**deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK), "kingdom": []}]),
        _record(deals=[deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK), {"hands": [], "stack": []}]),
        _record(dealer=2),  # the 7-card hands are not the dealer's and the left player's
        _record(deals=[]),  # the deal must come from the seed, and there is none
        _record(seed="7"),
        _record(actions="1 draw stack"),
    ],
    ids=["hands-0", "hands-bool", "unknown-option", "players-7", "night-with-time-day",
         "deal-unknown-key", "later-deal-not-deck", "big-hands-misplaced", "no-seed",
         "seed-string", "actions-not-list"],
)
def test_malformed_records_exit_2_with_one_line(record):
    check_replay(record, {}, 2)


def test_not_json_exits_2():
    check_replay(None, {}, 2, raw="{not json")


def test_a_stack_card_may_be_discarded_at_once():
    check_replay(_record(actions=["1 draw stack", "1 discard 6S 1", "0 draw stack",
                                  "0 discard TS 3"]),
                 {"error": None, "to_act": 5}, 0)


@pytest.mark.parametrize(
    "action",
    ["1 draw stack", "0 draw stack", "0 discard AS 0", "0 discard TS 9", "0 shuffle",
     "0 discard TS", "x draw stack"],
    ids=["not-their-turn", "drawing-is-over", "not-held", "no-player-9", "unknown-verb",
         "missing-pile", "no-player-number"],
)
def test_an_action_that_cannot_be_applied_exits_1_with_the_state_before_it(action):
    proc = check_replay(_record(actions=["1 draw stack", "1 discard 6S 1", "0 draw stack",
                                         action]),
                        {"to_act": 0, "hands": [], "rounds": [], "over": False,
                         "error": {"index": 3, "action": action}}, 1)
    out = json.loads(proc.stdout)
    assert "draw stack" not in out["legal"] and "discard TS 5" in out["legal"]


def test_an_action_after_the_game_is_over_exits_1():
    order = [1, 0, 5, 4, 3, 2] * 3
    stack = DAY_ALL_RANKS_STACK.split()
    lines = [f"{order[i]} draw stack" if j == 0 else f"{order[i]} discard {stack[i]} {order[i]}"
             for i in range(14) for j in (0, 1)]
    check_replay(_record(actions=[*lines, "5 draw stack"]),
                 {"over": True, "winners": [1],
                  "error": {"index": 28, "action": "5 draw stack"},
                  "hands": [{"winner": 1, "loser": 5, "ranks": [
                      "full", "royal", "three-quarters", "half", "nothing", "shronk"]}]}, 1)


def _whole_first_hand() -> list[str]:
    """The 28 actions of the first hand of ``_record``: each turn draws the stack's top and
    discards it onto the drawer's own pile (winner 1, loser 5 swapping to seat 2)."""
    order = [1, 0, 5, 4, 3, 2] * 3
    stack = DAY_ALL_RANKS_STACK.split()
    return [f"{order[i]} draw stack" if j == 0 else f"{order[i]} discard {stack[i]} {order[i]}"
            for i in range(14) for j in (0, 1)]


def test_a_next_deal_that_must_come_from_the_seed_without_a_seed_exits_2():
    # README: "a deal ... that must come from the seed when there is no seed" is malformed,
    # also when the game only reaches it after some actions.
    check_replay(_record(options={"hands": 2, "time": "day"}, actions=_whole_first_hand()),
                 {}, 2)
    # one action short of the end of the hand: deal 2 is not reached, the record replays
    check_replay(_record(options={"hands": 2, "time": "day"}, actions=_whole_first_hand()[:-1]),
                 {"to_act": 0, "hands": []}, 0)


def test_a_next_deal_whose_seven_card_hands_ignore_the_new_seats_exits_2():
    # Hand 2 is dealt by player 1 with player 5 (swapped into seat 2) on the left, so the
    # 7-card lists must be lists 1 and 5; here they are lists 0 and 1.
    second = deal(["AS 2S 3S 4S 5S 6S 7S", "8S 9S TS JS QS KS AH", "2H 3H 4H 5H 6H 7H",
                   "8H 9H TH JH QH KH", "AD 2D 3D 4D 5D 6D", "7D 8D 9D TD JD QD"], night=False)
    first = deal(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, night=False)
    check_replay(_record(options={"hands": 2, "time": "day"}, deals=[first, second],
                         actions=_whole_first_hand()), {}, 2)
