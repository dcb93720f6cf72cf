"""A two-player game's private decks are dealt face down: nobody sees their cards, their
owner included, who knows only how many are left (``docs/rules/README.md``, Hidden
information). Checked in the rules core's views and in what the bot renders of them."""

from __future__ import annotations

import datetime as dt
import random

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import menu_of, table_of
from cogs.render.hand import render_hand
from cogs.render.table import render_details, render_table
from games.fibonachos import Fibonachos


def two_player_game(seed: int) -> Fibonachos:
    game = games.new_game("fibonachos", 2, seed=seed)
    assert isinstance(game, Fibonachos)
    return game


def test_no_view_of_a_two_player_game_ever_shows_a_private_deck():
    game = two_player_game(3)
    rng = random.Random(3)
    seen_decks = 0
    while not game.over:
        for viewer in (0, 1, None):
            decks = [z for z in game.view_for(viewer).zones if z.name.startswith("deck:")]
            assert [z.owner for z in decks] == [0, 1]
            for zone in decks:
                assert zone.hidden, (viewer, zone)
                assert zone.count == len(game.decks[zone.owner])
                seen_decks += zone.count
        seat = game.to_act
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen_decks > 0


def session_of(game: Fibonachos) -> Session:
    now = dt.datetime.now(dt.UTC)
    table = StoredTable(id="abc123", guild_id=1, channel_id=2, host_id=10, game="fibonachos",
                        status=TableStatus.PLAYING, created_at=now, updated_at=now,
                        seats=[Seat(user_id=10, name="Ana"), Seat(user_id=11, name="Ben")])
    return Session(table, game)


def test_the_hand_menu_counts_the_own_deck_and_shows_only_the_hand():
    game = two_player_game(5)
    session = session_of(game)
    for seat in (0, 1):
        menu = render_hand(menu_of(session, seat))
        assert f"Your deck: {len(game.decks[seat])} cards face down" in menu.content
        ids = [getattr(item, "custom_id", None) or "" for item in menu.view.children]
        shown = sorted(custom_id.split(":")[4] for custom_id in ids if ":c:" in custom_id)
        assert shown == sorted(c.text for c in game.hands[seat])


def test_the_table_shows_each_private_deck_as_a_count():
    game = two_player_game(5)
    session = session_of(game)
    text = render_table(session).embed.description or ""
    for seat, name in enumerate(("Ana", "Ben")):
        [line] = [line for line in text.splitlines() if f"**{name}** ·" in line]
        assert f"{len(game.decks[seat])} cards in deck" in line, line
    assert f"Spicy: {len(game.spicy)}" in text  # the unowned stock, not a private deck
    details = render_details(table_of(session))
    for seat, name in enumerate(("Ana", "Ben")):
        assert f"{name}'s deck: {len(game.decks[seat])} cards face down" in details, details
