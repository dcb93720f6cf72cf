"""``tests.custom_ids`` reads every custom id as the bot does, ids of old messages included."""

from __future__ import annotations

import pytest

from cogs import ids
from tests.custom_ids import (
    PUBLIC_KINDS,
    TEMPLATES,
    card_of,
    is_action,
    is_card,
    is_move,
    is_public,
    kind_of,
    move_words,
    naming_card,
    parse,
    version_of,
)

TABLE = "0a1b2c3d4e"
BUILT = {
    "lobby": ids.lobby_id(TABLE, "join"),
    "computer": ids.computer_id(TABLE, "easy"),
    "hand": ids.hand_id(TABLE),
    "hint": ids.hint_id(TABLE),
    "take back": ids.take_back_id(TABLE),
    "table view": ids.table_view_id(TABLE, "details"),
    "end": ids.end_id(TABLE, "again"),
    "rules": ids.rules_id("fizzbin", "play"),
    "card": ids.card_id(TABLE, 7, "S4", 2),
    "action": ids.action_id(TABLE, 7, "claim swords"),
    "page": ids.page_id(TABLE, 7, 1),
    "refresh": ids.refresh_id(TABLE, 1),
    "leaderboard": ids.leaderboard_id("fiasco", 10, "2026-06"),
    "watch": ids.watch_id(TABLE),
    "watching": ids.watching_id(TABLE, "refresh"),
    "listed": ids.listed_id(TABLE, "join"),
    "tables": ids.tables_id(10),
}


def test_every_kind_the_bot_routes_is_read_as_that_kind_and_no_other():
    assert set(BUILT) == set(TEMPLATES)
    for kind, custom_id in BUILT.items():
        assert kind_of(custom_id) == kind, custom_id


def test_ids_on_messages_posted_before_an_upgrade_still_read_the_same():
    """The wire format, written out: buttons already in channels must keep their meaning."""
    card = parse("ff:0a1b2c3d4e:c:7:S4:2")
    assert card is not None and card.kind == "card"
    assert dict(card.fields) == {"table": TABLE, "version": "7", "card": "S4", "index": "2"}
    assert kind_of("ff:0a1b2c3d4e:a:7:claim_swords") == "action"
    assert kind_of("ff:0a1b2c3d4e:join") == "lobby"
    assert kind_of("ff:0a1b2c3d4e:hand") == "hand"
    assert kind_of("ff:lb:fiasco:10") == "leaderboard"  # an all-time board, as before seasons
    assert dict(parse("ff:lb:fiasco:10").fields) == {"game": "fiasco", "offset": "10",
                                                     "season": None}
    assert kind_of("ff:0a1b2c3d4e:end:again") == "end"


@pytest.mark.parametrize("custom_id", [None, "", "something-else", "ff:deadbeef00:launch",
                                       "ff:deadbeef00:c:1:S4", "xx:0a1b2c3d4e:hand"])
def test_an_id_the_bot_routes_nowhere_has_no_kind(custom_id):
    assert parse(custom_id) is None and kind_of(custom_id) is None
    assert not is_card(custom_id) and not is_move(custom_id) and not is_public(custom_id)


def test_cards_and_other_decisions_are_the_moves():
    assert [k for k, i in BUILT.items() if is_card(i)] == ["card"]
    assert [k for k, i in BUILT.items() if is_action(i)] == ["action"]
    assert [k for k, i in BUILT.items() if is_move(i)] == ["card", "action"]


def test_only_ids_that_name_no_card_are_public():
    assert {k for k, i in BUILT.items() if is_public(i)} == PUBLIC_KINDS
    assert not PUBLIC_KINDS & {"card", "action", "page"}


def test_a_move_is_read_in_record_notation():
    assert card_of(BUILT["card"]) == "S4"
    assert move_words(BUILT["card"]) == "S4"
    assert move_words(BUILT["action"]) == "claim swords"  # spaces are "_" in the id
    with pytest.raises(AssertionError):
        card_of(BUILT["action"])


def test_hand_menu_ids_carry_their_version_and_others_none():
    assert [version_of(BUILT[k]) for k in ("card", "action", "page")] == [7, 7, 7]
    assert version_of(BUILT["refresh"]) is None and version_of(BUILT["hand"]) is None


def test_a_forged_card_keeps_all_but_the_card():
    forged = naming_card(BUILT["card"], "KD")
    assert forged == ids.card_id(TABLE, 7, "KD", 2)
    assert card_of(forged) == "KD" and version_of(forged) == 7
