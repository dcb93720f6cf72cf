"""The hand menu as rendered: own cards as buttons, legal ones enabled, pages when too many."""

from __future__ import annotations

import datetime as dt

import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import menu_of
from cogs.render.cards import card_label
from cogs.render.hand import render_hand
from tests.custom_ids import is_action, is_card, version_of
from tests.fakediscord.limits import check_components


def started(game: str, players: int) -> Session:
    now = dt.datetime.now(dt.UTC)
    table = StoredTable(id="abc123", guild_id=1, channel_id=2, host_id=10, game=game,
                        status=TableStatus.PLAYING, version=3, created_at=now, updated_at=now,
                        seats=[Seat(user_id=10 + i, name=f"p{i}") for i in range(players)])
    return Session(table, games.new_game(game, players, seed=5))


def components(menu) -> list[dict]:
    return menu.view.to_components()


async def test_a_hand_too_large_for_one_message_is_paged():
    session = started("fiasco", 2)
    game = session.game
    while game.phase() == "claiming suits":
        game.apply(game.to_act, game.legal_actions()[0])
    seat = game.to_act
    game.hands[seat] = list(game.deck_in_play().cards[:30])  # an outsized hand, for layout
    first = render_hand(menu_of(session, seat))
    assert not check_components(components(first))
    labels = [item.label for item in first.view.children]
    assert "Previous" in labels and any(label.startswith("Next") for label in labels)
    ids = {item.custom_id for item in first.view.children}
    second = render_hand(menu_of(session, seat), page=1)
    assert not check_components(components(second))
    shown = [i.label for m in (first, second) for i in m.view.children if is_card(i.custom_id)]
    assert len(shown) == 30
    # Sorted as the game orders a hand, each button a suit emoji and the rank.
    assert shown == [card_label("fiasco", c) for c in game.sorted_hand(game.hands[seat])]
    assert all(version_of(i) == 3 for i in ids)  # every id carries the table's version


def test_the_menu_names_the_cards_in_words_for_screen_readers():
    session = started("fumblaroo", 3)
    game = session.game
    seat = game.to_act
    menu = render_hand(menu_of(session, seat))
    labels = [i.label for i in menu.view.children if is_card(i.custom_id)]
    hand = game.sorted_hand(game.hands[seat])
    assert labels == [card_label("fumblaroo", c) for c in hand]  # emoji and rank as said
    words = ", ".join(game.card_name(c) for c in hand)
    assert f"In words: {words}" in menu.content
    assert game.card_name(game.grammar.deck.parse("TD")) == "10 of diamonds"
    assert game.card_name(game.grammar.deck.parse("AS")) == "Ace of spades"


async def test_only_legal_cards_are_enabled_and_other_decisions_follow():
    session = started("fiasco", 3)
    game = session.game
    seat = game.to_act
    claim = render_hand(menu_of(session, seat))
    decisions = [i for i in claim.view.children if is_action(i.custom_id)]

    assert [i.label for i in decisions][:1] == ["Collect 🗡️ Swords"]
    other = (seat + 1) % 3
    waiting = render_hand(menu_of(session, other))
    # A waiting menu plays nothing; its one live button shows the game as it is now.
    assert [i.label for i in waiting.view.children if not i.disabled] == ["Refresh"]
    assert "Waiting for" in waiting.content
    assert "Refresh" not in [i.label for i in claim.view.children]


def test_the_top_of_the_menu_says_what_the_rules_ask_now():
    session = started("fazes", 4)
    game = session.game
    seat = game.to_act
    menu = render_hand(menu_of(session, seat))
    assert "**Your turn**: Lead 🟩2: the green 2 opens every faze; red is trump." in menu.content
    other = render_hand(menu_of(session, (seat + 1) % 4))
    assert f"Waiting for p{seat} to lead; red is trump." in other.content  # said once
    # Above the hand, below the table's cards: what a player reads before choosing.
    lines = menu.content.splitlines()
    assert lines.index(next(x for x in lines if x.startswith("**Your turn**"))) < \
        lines.index(next(x for x in lines if x.startswith("**Your hand**")))


def test_card_labels_are_kept_true_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The labels the buttons read are kept per game and card: each the game's own, found
    again the same (two games write the same card text differently), and the kept ones
    bounded, since a card may come from a forged custom id."""
    from cogs.render import cards as labels
    from games.core.cards import Card

    monkeypatch.setattr(labels, "_LABELS", {})
    for _ in range(2):  # found, then kept
        for name in games.names():
            cls = games.get(name)
            for card in cls.every_card():
                assert card_label(name, card) == cls.card_label(card), (name, card)
    assert len(labels._LABELS) <= labels.KEPT_LABELS
    monkeypatch.setattr(labels, "KEPT_LABELS", len(labels._LABELS) + 3)
    forged = [Card(f"S{n}", "S", 20 + n) for n in range(10)]  # no such cards
    assert [card_label("fizzbin", c) for c in forged] == \
        [games.get("fizzbin").card_label(c) for c in forged]
    assert len(labels._LABELS) == labels.KEPT_LABELS
