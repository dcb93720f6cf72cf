"""A person's click is one call into the table service, checked once under the table's lock.

The service says why a click is refused (not seated, a stale menu, not their turn, the
rules' own reason from ``Game.why_not``) in one wording each, with the clicker's menu as
it is now, and never applies an action to learn a reason: every ``apply`` a click causes
runs on the service's copy of the game, with the table's lock held.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.store.sqlite.store import SqliteStore
from bot.tables.checks import not_your_turn
from bot.tables.errors import NOT_SEATED, STALE, NotAllowed, StaleMenu, TableError
from bot.tables.service import TableService
from bot.tables.session import Session
from bot.tables.snapshots import CardChoice
from games.core.actions import Action
from games.core.game import Game
from tests.bot.tables.test_turns_faults import ALICE, BOB, CAROL, two_players
from tests.botdriver import settings_for

PEOPLE = {ALICE: "alice", BOB: "bob"}


@asynccontextmanager
async def fiasco_for_two(tmp_path: Path) -> AsyncIterator[tuple[TableService, Session]]:
    """The table service on a store in ``tmp_path``, Alice and Bob playing Fiasco there."""
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    tables = TableService(store, settings_for(tmp_path), seed_source=lambda: 7)
    try:
        yield tables, await two_players(tables)
    finally:
        await tables.shutdown()
        await store.close()


def person_to_act(session: Session) -> tuple[int, int]:
    """(seat, user id) of the person to act."""
    seat = session.to_act()
    assert seat is not None
    user = session.seats[seat].user_id
    assert user is not None
    return seat, user


async def to_a_card_turn(tables: TableService, session: Session) -> tuple[int, int, Game[Any]]:
    """People play their first legal action until the one to act may play a card: that
    seat, its person and the game."""
    while True:
        seat, user = person_to_act(session)
        assert session.game is not None
        legal = session.game.legal_actions(seat)
        if any(action.card is not None for action in legal):
            return seat, user, session.game
        await tables.actions.act(session, user, legal[0], version=session.version)


def state(session: Session) -> tuple[object, ...]:
    return (session.version, list((session.table.record or {}).get("actions", [])),
            session.game.record() if session.game is not None else None)


class ApplySpy:
    """Every ``Game.apply`` while installed: on which game object, and whether the lock of
    a watched table was held then."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, bool]] = []
        self.watched: list[Session] = []

    def watch(self, session: Session) -> None:
        self.watched.append(session)


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> ApplySpy:
    spy = ApplySpy()
    real = Game.apply

    def spying(game: Game[Any], player: int, action: Action | str) -> Any:
        spy.calls.append((id(game), any(s.lock.locked() for s in spy.watched)))
        return real(game, player, action)

    monkeypatch.setattr(Game, "apply", spying)
    return spy


async def test_a_refused_card_gets_the_rules_reason_and_nothing_is_applied(
    tmp_path: Path, applies: ApplySpy
) -> None:
    async with fiasco_for_two(tmp_path) as (tables, session):
        seat, user, game = await to_a_card_turn(tables, session)
        held = {action.card for action in game.legal_actions(seat) if action.card is not None}
        view = game.view_for(seat)
        mine = {c for z in view.zones if z.owner == seat and z.cards for c in z.cards}
        card = next(c for c in game.deck_in_play().cards if c not in mine and c not in held)
        sample = next(a for a in game.legal_actions(seat) if a.card is not None)
        reason = game.why_not(seat, Action(sample.verb, card, sample.arg))
        assert reason, "the rules give a reason for a card the seat does not hold"
        before = state(session)
        applies.calls.clear()

        with pytest.raises(NotAllowed) as refused:
            await tables.actions.act(session, user, CardChoice(card.text), version=session.version)

        assert refused.value.message == reason
        assert applies.calls == [], "nothing was applied to learn the reason"
        assert state(session) == before
        menu = refused.value.menu
        assert menu is not None and menu.seat == seat and menu.version == session.version


async def test_every_apply_of_a_click_runs_on_a_copy_with_the_lock_held(
    tmp_path: Path, applies: ApplySpy
) -> None:
    async with fiasco_for_two(tmp_path) as (tables, session):
        seat, user, game = await to_a_card_turn(tables, session)
        live = id(game)
        card = next(a.card for a in game.legal_actions(seat) if a.card is not None)
        assert card is not None
        applies.watch(session)
        applies.calls.clear()

        outcome = await tables.actions.act(session, user, CardChoice(card.text),
                                           version=session.version)

        if outcome.focus is None:  # one action: applied; several: the menu asks which
            assert applies.calls and all(locked for _, locked in applies.calls), applies.calls
            assert all(game != live for game, _ in applies.calls), "the live game is untouched"
            assert outcome.words and outcome.menu.version == session.version
        else:
            assert applies.calls == [] and outcome.focus == card


async def test_a_stale_menu_is_refused_with_one_wording_and_the_menu_as_it_is_now(
    tmp_path: Path
) -> None:
    async with fiasco_for_two(tmp_path) as (tables, session):
        seat, user = person_to_act(session)
        drawn = session.version
        assert session.game is not None
        await tables.actions.act(session, user, session.game.legal_actions(seat)[0], version=drawn)
        before = state(session)

        with pytest.raises(StaleMenu) as refused:
            await tables.actions.act(session, user, CardChoice("S4"), version=drawn)

        assert refused.value.message == STALE
        assert state(session) == before
        assert refused.value.menu is not None and refused.value.menu.version == session.version


async def test_a_click_out_of_turn_is_refused_with_whose_turn_it_is(tmp_path: Path) -> None:
    async with fiasco_for_two(tmp_path) as (tables, session):
        seat, mover = person_to_act(session)
        waiting = next(user for user in PEOPLE if user != mover)
        assert session.game is not None
        before = state(session)

        with pytest.raises(TableError) as refused:
            await tables.actions.act(session, waiting, session.game.legal_actions(seat)[0],
                                     version=session.version)

        assert refused.value.message == not_your_turn(session)
        assert PEOPLE[mover] in refused.value.message
        assert state(session) == before
        assert refused.value.menu is not None and refused.value.menu.seat != seat


async def test_someone_not_seated_is_refused_without_a_menu(tmp_path: Path) -> None:
    async with fiasco_for_two(tmp_path) as (tables, session):
        seat, _ = person_to_act(session)
        assert session.game is not None
        before = state(session)
        for ask in (tables.actions.act(session, CAROL, session.game.legal_actions(seat)[0],
                                       version=session.version),
                    tables.computers.ask_hint(session, CAROL)):
            with pytest.raises(TableError) as refused:
                await ask
            assert refused.value.menu is None
        with pytest.raises(TableError) as refused:
            tables.menu(session, CAROL)
        assert refused.value.message == NOT_SEATED
        assert state(session) == before
