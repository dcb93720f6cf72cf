"""What the bot renders of a two-player Fibonachos's private decks, dealt face down: a
count, never a card (the rules core's own views of them are
``tests/games/fibonachos/test_private_decks.py``)."""


from __future__ import annotations

import datetime as dt

from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import menu_of, table_of
from cogs.render.hand import render_hand
from cogs.render.table import render_details, render_table
from games.fibonachos import Fibonachos
from tests.custom_ids import card_of, is_card


def two_player_table(seed: int) -> tuple[Fibonachos, Session]:
    """A two-player game of Fibonachos just dealt, at a table of Ana and Ben."""
    game = Fibonachos.new(2, seed=seed)
    now = dt.datetime.now(dt.UTC)
    table = StoredTable(id="abc123", guild_id=1, channel_id=2, host_id=10, game="fibonachos",
                        status=TableStatus.PLAYING, created_at=now, updated_at=now,
                        seats=[Seat(user_id=10, name="Ana"), Seat(user_id=11, name="Ben")])
    return game, Session(table, game)


def test_the_hand_menu_counts_the_own_deck_and_shows_only_the_hand():
    game, session = two_player_table(5)
    for seat in (0, 1):
        menu = render_hand(menu_of(session, seat))
        assert f"Your deck: {len(game.decks[seat])} cards face down" in menu.content
        ids = [getattr(item, "custom_id", None) for item in menu.view.children]
        shown = sorted(card_of(custom_id) for custom_id in ids if is_card(custom_id))
        assert shown == sorted(c.text for c in game.hands[seat])


def test_the_table_shows_each_private_deck_as_a_count():
    game, session = two_player_table(5)
    text = render_table(table_of(session)).embed.description or ""
    for seat, name in enumerate(("Ana", "Ben")):
        [line] = [line for line in text.splitlines() if f"**{name}** ·" in line]
        assert f"{len(game.decks[seat])} cards in deck" in line, line
    assert f"Spicy: {len(game.spicy)}" in text  # the unowned stock, not a private deck
    details = render_details(table_of(session))
    for seat, name in enumerate(("Ana", "Ben")):
        assert f"{name}'s deck: {len(game.decks[seat])} cards face down" in details, details
