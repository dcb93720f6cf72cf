"""Fiasco records of our own through ``python -m games replay -`` (the shared vectors are
replayed by ``tests/games/test_shared_vectors.py``)."""

from __future__ import annotations

import json

import pytest

from games.fiasco.cards import deck_of
from tests.vectors import check_replay


def _record(**changes):
    record = {"game": "fiasco", "players": 3, "options": {}, "seed": 4, "dealer": 2,
              "actions": ["0 choose S", "1 choose R", "2 choose B"]}
    record.update(changes)
    return record


@pytest.mark.parametrize(
    "record",
    [
        _record(players=7),
        _record(players=True),
        _record(options={"teams": True}),
        _record(options={"length": "long"}),
        _record(seed="4"),
        _record(seed=None, dealer=None),
        _record(actions="0 choose S"),
        _record(actions=[1]),
        _record(deals=[{"hands": [["S1"]] * 3, "stock": []}]),
        _record(deals=[{"hands": [], "stock": [], "kingdom": []}]),
        _record(game="poker"),
        _record(dealer=3),
    ],
    ids=["players-out-of-range", "players-bool", "teams-with-3", "unknown-length",
         "seed-string", "no-seed-no-dealer", "actions-not-list", "action-not-string",
         "deal-not-deck", "deal-unknown-key", "unknown-game", "dealer-not-a-seat"],
)
def test_malformed_records_exit_2_with_one_line(record):
    check_replay(record, {}, 2)


def test_not_json_exits_2():
    proc = check_replay(None, {}, 2, raw="{not json")
    assert "not JSON" in proc.stderr


def test_a_deal_needed_without_seed_exits_2():
    # dealer given, no deals and no seed: the first deal must come from the seed
    proc = check_replay(_record(seed=None), {}, 2)
    assert "seed" in proc.stderr


@pytest.mark.parametrize(
    ("action", "message"),
    [("1 play S1", "turn"), ("0 play S9", "no card"), ("0 dance", "unknown verb"),
     ("x play S1", "player number"), ("5 play S1", "no player")],
)
def test_an_action_that_cannot_be_applied_exits_1_with_the_state_before_it(action, message):
    proc = check_replay(_record(actions=["0 choose S", "1 choose R", "2 choose B", action]),
                        {"to_act": 0, "error": {"index": 3, "action": action}}, 1)
    out = json.loads(proc.stdout)
    assert message in out["error"]["message"]
    assert len(out["legal"]) >= 1


def test_an_action_after_the_game_is_over_exits_1():
    from games.core.registry import new_game

    g = new_game("fiasco", 2, {}, seed=9, dealer=0)
    while not g.over:
        g.apply(g.to_act, g.legal_actions()[0])
    record = g.record().model_dump()
    record["actions"].append("0 play K")
    check_replay(record, {"over": True,
                          "error": {"index": len(record["actions"]) - 1, "action": "0 play K"}}, 1)


@pytest.mark.parametrize("head", ["\u00b2", "\uff11", "-1", "0x1"])  # ², full-width 1
def test_a_player_number_that_is_not_plain_digits_exits_1_with_the_state(head):
    line = f"{head} play S1"
    proc = check_replay(_record(actions=["0 choose S", "1 choose R", "2 choose B", line]),
                        {"error": {"index": 3, "action": line}}, 1)
    assert "player number" in json.loads(proc.stdout)["error"]["message"]


@pytest.mark.parametrize("suits", ["BTMH", "SBTM", "RBTM"])
def test_a_four_suit_deal_without_swords_and_roses_exits_2_even_before_it_is_dealt(suits):
    # The four-suit deck is the two claimed suits plus the first two unclaimed of S R B T M H,
    # so Swords and Roses are in it whatever the claims: a deal without them is no deck.
    cards = [c.text for c in deck_of(suits).cards]
    record = {"game": "fiasco", "players": 2, "options": {"suits": "four"}, "seed": 1,
              "dealer": 1, "deals": [{"hands": [cards[:6], cards[6:12]], "stock": cards[12:]}],
              "actions": ["0 choose B"]}
    check_replay(record, {}, 2)
