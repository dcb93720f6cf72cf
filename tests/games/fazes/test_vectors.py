"""Fazes records of our own through ``python -m games replay -`` (the shared vectors are
replayed by ``tests/games/test_shared_vectors.py``)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from tests.games.fazes.helpers import COLOUR_HANDS_4P, MADNESS_8P, MADNESS_TRUMP_PLAY, deal
from tests.vectors import REPO, check_replay

# --- records of our own ------------------------------------------------------------


def record(players: int, hands: list[str], actions: list[str], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"game": "fazes", "players": players, "options": {"fazes": [6]},
                           "seed": 7, "dealer": 0, "deals": [deal(hands)], "actions": actions}
    out.update(extra)
    return out




MADNESS_ACTIONS = [
    f"{(leader + i) % 8} play {card}"
    for leader, trick in zip([0, 7, 6, 5, 4, 3], MADNESS_TRUMP_PLAY, strict=True)
    for i, card in enumerate(trick.split())
]


def test_own_record_full_madness_game_replays():
    check_replay(record(8, MADNESS_8P, MADNESS_ACTIONS),
                 {"over": True, "scores": [0, 0, 0, 55, 15, 110, 115, 10], "winners": [0, 1, 2],
                  "tricks": [7, 6, 5, 4, 3, 5], "to_act": None, "legal": [], "error": None}, 0)


def test_own_record_action_text_is_case_insensitive():
    actions = [a.replace("play", "PLAY").lower() for a in MADNESS_ACTIONS[:3]]
    check_replay(record(8, MADNESS_8P, actions),
                 {"to_act": 3, "legal": ["play G6"], "error": None, "tricks": []}, 0)


@pytest.mark.parametrize(
    ("actions", "index", "to_act", "legal"),
    [
        (["1 play G4"], 0, 0, ["play G2"]),  # the wrong player
        (["0 play G2", "1 play Y4"], 1, 1, ["play G4"]),  # must follow green
        (["0 play G2", "1 play R5"], 1, 1, ["play G4"]),
        (["0 play G2", "1 play G5"], 1, 1, ["play G4"]),  # not held
        (["0 play G2", "1 play B2"], 1, 1, ["play G4"]),  # out of play with 8
        (["0 play G2", "1 play Q2"], 1, 1, ["play G4"]),  # no such card
        (["0 play G2", "1 fold"], 1, 1, ["play G4"]),  # no such verb
        (["0 play G2", "x play G4"], 1, 1, ["play G4"]),  # no player number
        (["0 play G2", "9 play G4"], 1, 1, ["play G4"]),  # no such player
    ],
)
def test_own_record_illegal_action_exits_1(actions, index, to_act, legal):
    check_replay(record(8, MADNESS_8P, actions),
                 {"over": False, "to_act": to_act, "legal": legal, "tricks": [],
                  "error": {"index": index, "action": actions[index]}}, 1)


def test_own_record_void_player_must_trump_in_madness():
    actions = [*MADNESS_ACTIONS[:31], "4 play G11"]  # P4 holds no black but R9 and R12
    check_replay(record(8, MADNESS_8P, actions),
                 {"to_act": 4, "legal": ["play R12", "play R9"], "tricks": [7, 6, 5],
                  "error": {"index": 31, "action": "4 play G11"}}, 1)


def test_own_record_action_after_the_end_exits_1():
    actions = [*MADNESS_ACTIONS, "0 play G2"]
    check_replay(record(8, MADNESS_8P, actions),
                 {"over": True, "winners": [0, 1, 2], "legal": [], "to_act": None,
                  "error": {"index": 48, "action": "0 play G2"}}, 1)


@pytest.mark.parametrize(
    "changes",
    [
        {"options": {"fazes": [True]}},
        {"options": {"fazes": []}},
        {"options": {"fazes": [7]}},
        {"options": {"trump": "red"}},
        {"players": 9},
        {"players": 2},
        {"seed": "7"},
        {"actions": "0 play G2"},
        {"deals": [{"hands": [h.split() for h in MADNESS_8P], "removed": ["B2"]}]},
        {"deals": [{"hands": [h.split() for h in MADNESS_8P[:7]]}]},
        {"deals": [deal(COLOUR_HANDS_4P)]},  # a 4-player deal for 8 players
        {"seed": None, "dealer": None},
        {"seed": None, "options": {"fazes": [6, 6]}},  # faze 2's deal needs the seed
    ],
)
def test_own_malformed_record_exits_2(changes):
    rec = record(8, MADNESS_8P, MADNESS_ACTIONS)
    rec.update(changes)
    check_replay(rec, {}, 2)


def test_text_that_is_not_json_exits_2():
    check_replay(None, {}, 2, raw='{"game": "fazes", ')


def test_the_rules_core_imports_no_discord_database_or_asyncio():
    code = ("import sys, games, games.fazes; "
            "print(sorted(m for m in ('discord', 'aiosqlite', 'asyncio') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, timeout=60, check=True)
    assert proc.stdout.strip() == "[]"
