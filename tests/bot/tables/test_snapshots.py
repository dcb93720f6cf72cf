"""A kept menu's cheap key is the snapshot's key, at every step of every game.

Every change at a table asks each kept hand menu there whether it changed for its
player; :func:`bot.tables.snapshots.menu_key` answers from the game without taking a
snapshot. It must say exactly what the snapshot's :attr:`MenuSnapshot.key` says, or a
menu would be edited for nothing or, worse, not edited when the game changed for them.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import menu_key, menu_of, own_cards, public_view, seat_view, table_of


def session_of(game: str, players: int, seed: int) -> Session:
    now = dt.datetime.now(dt.UTC)
    table = StoredTable(id="keys", guild_id=1, channel_id=2, host_id=10, game=game,
                        status=TableStatus.PLAYING, version=1, created_at=now, updated_at=now,
                        seats=[Seat(user_id=10 + n, name=f"p{n}") for n in range(players)])
    return Session(table, games.new_game(game, players, seed=seed))


@pytest.mark.parametrize("game", games.names())
def test_the_cheap_key_is_the_snapshots_key_through_a_whole_game(game: str) -> None:
    cls = games.get(game)
    players = max(cls.min_players, min(4, cls.max_players))
    session = session_of(game, players, seed=7)
    running, rng = session.game, random.Random(7)
    assert running is not None
    steps = 0
    while not running.over and steps < 400:
        for seat in range(players):
            assert menu_key(session, seat) == menu_of(session, seat).key, (game, steps, seat)
        actor = running.to_act
        assert actor is not None
        running.apply(actor, rng.choice(running.legal_actions(actor)))
        steps += 1
    for seat in range(players):
        assert menu_key(session, seat) == menu_of(session, seat).key


@pytest.mark.parametrize("game", games.names())
def test_the_public_view_is_made_once_per_game_state_and_follows_each_action(game: str) -> None:
    """:func:`public_view` keeps one view per game the session holds: the same object for
    the table and every menu until an action replaces the game (as the service does: a
    copy, the action applied to it, swapped in), then the new game's."""
    cls = games.get(game)
    players = max(cls.min_players, min(4, cls.max_players))
    session, rng = session_of(game, players, seed=11), random.Random(11)
    for _ in range(30):
        running = session.game
        assert running is not None and not running.over
        shown = public_view(session)
        assert shown == running.view_for(None)
        assert public_view(session) is shown and table_of(session).public is shown
        assert all(menu_of(session, seat).public is shown for seat in range(players))
        actor = running.to_act
        assert actor is not None
        following = running.clone()
        following.apply(actor, rng.choice(following.legal_actions(actor)))
        session.game = following
        if following.over:
            break
        assert public_view(session) == following.view_for(None)
        assert public_view(session) is not shown


@pytest.mark.parametrize("game", games.names())
def test_a_seats_view_made_from_the_public_one_is_the_games_own_at_every_step(game: str) -> None:
    """:func:`seat_view` makes a seat's view from the shared public view and the zones that
    seat owns: it must equal ``view_for(seat)`` field by field (the seat's hand shown, every
    other seat's hidden), with the seat's own cards as :func:`own_cards` reads them, for
    every seat at every step of a whole game."""
    cls = games.get(game)
    players = max(cls.min_players, min(4, cls.max_players))
    session, rng = session_of(game, players, seed=5), random.Random(5)
    steps = 0
    while True:
        running = session.game
        assert running is not None
        for seat in range(players):
            view, hand, up = seat_view(session, seat)
            assert view == running.view_for(seat), (game, steps, seat)
            assert (hand, up) == own_cards(running, seat)
        if running.over or steps >= 400:
            break
        actor = running.to_act
        assert actor is not None
        following = running.clone()
        following.apply(actor, rng.choice(following.legal_actions(actor)))
        session.game = following
        steps += 1
