"""A write that fails leaves memory as the database has it, and the next click works.

The store here is the real SQLite store with one twist: a chosen write runs
its statements and then fails as a full disk would, inside the database, so
its transaction is really rolled back. After each failure the session in
memory must equal what the store returns, and the same change, retried, must
land (issue 11).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
import pytest

from bot.app import FivefoldBot, create_bot
from bot.models import TableStatus
from bot.store.sqlite.commit import Write
from bot.store.sqlite.store import SqliteStore
from bot.tables.service import TableService
from bot.tables.session import Session
from cogs.answers import APOLOGY
from tests.answers import updated_the_menu
from tests.botdriver import (
    answer_text,
    enabled_choices,
    open_table,
    settings_for,
    table_message,
    until,
    wait_settled,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import FakeWorld

T = TypeVar("T")
ALICE, BOB, CAROL = 1, 2, 3


class FaultyStore(SqliteStore):
    """A real store whose chosen writes fail in the database after doing their work."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writes = 0
        self.failing: set[int] = set()

    def fail_next_write(self) -> None:
        """The next write (a save or a result) will fail and be rolled back."""
        self.failing.add(self.writes + 1)

    async def _write(self, write: Write[T]) -> T:
        self.writes += 1
        if self.writes not in self.failing:
            return await super()._write(write)

        async def failing(conn: aiosqlite.Connection) -> T:
            await write(conn)
            raise sqlite3.OperationalError("database or disk is full (injected)")

        return await super()._write(failing)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[FaultyStore]:
    opened = await FaultyStore.open(tmp_path / "fivefold.db")
    yield opened
    await opened.close()


@pytest.fixture
def manager(store: FaultyStore, tmp_path: Path) -> TableService:
    return TableService(store, settings_for(tmp_path), seed_source=lambda: 77)


async def agrees(session: Session, store: SqliteStore) -> None:
    """Memory and database hold the same table, and the game is the record's."""
    stored = await store.get_table(session.id)
    assert stored == session.table
    if session.game is not None:
        assert stored is not None and stored.record is not None
        assert stored.record["actions"] == session.game.record().actions


async def fails(store: FaultyStore, change: Awaitable[object]) -> None:
    store.fail_next_write()
    with pytest.raises(sqlite3.OperationalError, match="injected"):
        await change


async def two_players(manager: TableService) -> Session:
    session = await manager.lobby.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice",
                                       game="fiasco", options={})
    await manager.lobby.join(session, BOB, "bob")
    await manager.lobby.start(session, ALICE)
    return session


def a_move(session: Session, n: int) -> tuple[int, Any]:
    """The person to act and a legal action of theirs (deterministic in ``n``)."""
    game = session.game
    assert game is not None and game.to_act is not None
    user = session.seats[game.to_act].user_id
    assert user is not None
    return user, random.Random(n).choice(game.legal_actions(game.to_act))


# --------------------------------------------------------------------------- actions


async def test_a_failed_save_of_an_action_changes_nothing_and_the_retry_lands(
    store: FaultyStore, manager: TableService, tmp_path: Path
) -> None:
    session = await two_players(manager)
    for n in range(3):
        user, action = a_move(session, n)
        await manager.actions.act(session, user, action, version=session.version)
    before = session.table.model_copy(deep=True)
    user, action = a_move(session, 3)

    await fails(store, manager.actions.act(session, user, action, version=session.version))
    assert session.table == before
    await agrees(session, store)

    # The same click again (its menu is not out of date: the seat never acted).
    await manager.actions.act(session, user, action, version=session.version)
    assert session.version == before.version + 1
    await agrees(session, store)
    assert len(session.table.record["actions"]) == 4  # type: ignore[index]

    # A restart replays exactly the moves the players were told were made.
    again = TableService(store, settings_for(tmp_path))
    [resumed] = await again.restart.resume_all()
    assert resumed.game is not None and session.game is not None
    assert resumed.game.record() == session.game.record()


async def test_a_failed_final_action_writes_no_result_and_the_retry_finishes(
    store: FaultyStore, manager: TableService
) -> None:
    session = await two_players(manager)
    n = 0
    while True:
        user, action = a_move(session, n)
        trial = session.game.clone()  # type: ignore[union-attr]
        trial.apply(trial.to_act, action)  # type: ignore[arg-type]
        if trial.over:
            break
        await manager.actions.act(session, user, action, version=session.version)
        n += 1

    await fails(store, manager.actions.act(session, user, action, version=session.version))
    assert session.status is TableStatus.PLAYING and not session.game.over  # type: ignore[union-attr]
    await agrees(session, store)
    assert await store.stats(10, ALICE) == []

    await manager.actions.act(session, user, action, version=session.version)
    assert session.status is TableStatus.FINISHED
    await agrees(session, store)
    [fiasco] = await store.stats(10, ALICE)
    assert fiasco.games == 1


def next_is_computer(session: Session, action: Any) -> bool:
    """Whether, after ``action``, the game goes on with a computer seat to act."""
    trial = session.game.clone()  # type: ignore[union-attr]
    trial.apply(trial.to_act, action)  # type: ignore[arg-type]
    return not trial.over and session.seats[trial.to_act].is_computer  # type: ignore[index]


async def computer_done(session: Session) -> None:
    """Wait until no computer turn is pending or running."""
    await until(lambda: not session.lock.locked()
                and (session.turn_task is None or session.turn_task.done()))


async def before_a_computer_reply(manager: TableService) -> tuple[Session, int, Any]:
    """A game of Alice and a computer, played up to a move of Alice's that the computer
    answers: the table, Alice, and that move (not made yet)."""
    session = await manager.lobby.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice",
                                       game="fiasco", options={})
    await manager.lobby.add_computer(session, ALICE)
    await manager.lobby.start(session, ALICE)
    for n in range(500):
        await computer_done(session)
        user, action = a_move(session, n)
        if next_is_computer(session, action):
            return session, user, action
        await manager.actions.act(session, user, action, version=session.version)
    raise AssertionError("the computer never had to answer")


async def test_a_computer_move_that_fails_to_save_leaves_the_table_as_stored(
    store: FaultyStore, manager: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    session, user, action = await before_a_computer_reply(manager)
    # Alice's move is saved; the computer's reply, the write after it, fails.
    store.failing = {store.writes + 2}
    await manager.actions.act(session, user, action, version=session.version)
    await computer_done(session)
    assert "computer turn failed" in caplog.text
    seat = session.to_act()
    assert seat is not None and session.seats[seat].is_computer
    await agrees(session, store)


async def test_a_computer_move_lost_to_failed_saves_is_started_again_and_logged_once(
    store: FaultyStore, manager: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    session, user, action = await before_a_computer_reply(manager)
    await manager.actions.act(session, user, action, version=session.version)
    stuck = len(session.table.record["actions"])  # type: ignore[index]
    for _ in range(2):  # the computer's save fails, and so does its first restart's
        store.fail_next_write()
        await computer_done(session)
        assert len(session.table.record["actions"]) == stuck  # type: ignore[index]
        assert session.seats[session.to_act()].is_computer  # type: ignore[index]
        assert manager.sweeper.restart_lost_turns() == 1  # what the expiry sweep does
    await computer_done(session)
    assert len(session.table.record["actions"]) > stuck  # type: ignore[index]
    assert manager.sweeper.restart_lost_turns() == 0
    lost = [r.getMessage() for r in caplog.records if "started it again" in r.getMessage()]
    assert lost == [f"table {session.id}: the turn of Computer 1 had no computer move "
                    "pending though the game had not moved on; started it again"]
    await agrees(session, store)


# --------------------------------------------------------------------------- lobby changes

LobbyChange = Callable[[TableService, Session], Awaitable[object]]

LOBBY_CHANGES: dict[str, LobbyChange] = {
    "join": lambda m, s: m.lobby.join(s, CAROL, "carol"),
    "add computer": lambda m, s: m.lobby.add_computer(s, ALICE),
    "leave": lambda m, s: m.lobby.leave(s, BOB),
    "kick": lambda m, s: m.lobby.kick(s, ALICE, BOB),
    "start": lambda m, s: m.lobby.start(s, ALICE),
    "cancel": lambda m, s: m.lobby.cancel(s, ALICE, name="alice"),
    "set message": lambda m, s: m.set_message(s, 999),
}


@pytest.mark.parametrize("name", LOBBY_CHANGES)
async def test_a_lobby_change_that_fails_to_save_changes_nothing(
    name: str, store: FaultyStore, manager: TableService
) -> None:
    session = await manager.lobby.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice",
                                       game="fiasco", options={})
    await manager.lobby.join(session, BOB, "bob")
    before = session.table.model_copy(deep=True)
    recent = list(session.recent)
    change = LOBBY_CHANGES[name]

    await fails(store, change(manager, session))
    assert session.table == before and list(session.recent) == recent
    assert session.game is None and session.is_open and session.closed_by is None
    assert manager.registry.in_channel(20) is session
    await agrees(session, store)

    await change(manager, session)
    assert session.table != before
    await agrees(session, store)


@pytest.mark.parametrize("name", ["leave", "kick", "end"])
async def test_a_seat_change_in_play_that_fails_to_save_changes_nothing(
    name: str, store: FaultyStore, manager: TableService
) -> None:
    session = await two_players(manager)
    change: LobbyChange = {
        "leave": lambda m, s: m.lobby.leave(s, BOB),
        "kick": lambda m, s: m.lobby.kick(s, ALICE, BOB),
        "end": lambda m, s: m.lobby.end(s, ALICE, moderator=False, name="alice"),
    }[name]
    before = session.table.model_copy(deep=True)

    await fails(store, change(manager, session))
    assert session.table == before and session.is_open
    await agrees(session, store)

    await change(manager, session)
    assert session.table != before
    await agrees(session, store)


async def test_a_table_whose_first_save_fails_is_not_opened(
    store: FaultyStore, manager: TableService
) -> None:
    opening = manager.lobby.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice",
                                 game="fiasco", options={})
    await fails(store, opening)
    assert manager.registry.in_channel(20) is None and manager.registry.sessions() == []
    assert await store.open_tables() == []
    session = await manager.lobby.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice",
                                       game="fiasco", options={})
    await agrees(session, store)


# --------------------------------------------------------------------------- through Discord


@asynccontextmanager
async def faulty_bot(fake: FakeDiscord, tmp_path: Path
                     ) -> AsyncIterator[tuple[FivefoldBot, FaultyStore]]:
    """The real bot on a :class:`FaultyStore`, connected to the fake Discord."""
    settings = settings_for(tmp_path)
    store = await FaultyStore.open(settings.database_path)
    bot = create_bot(settings, store=store, guild_ready_timeout=0.05)
    try:
        async with fake.run_client(bot):
            yield bot, store
    finally:
        await store.close()


async def test_a_click_whose_save_fails_is_answered_with_an_apology_and_can_be_repeated(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    async with faulty_bot(fake, tmp_path) as (bot, store):
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        seat = session.to_act()
        assert seat is not None
        mover = world.alice if session.seats[seat].user_id == world.alice.id else world.bob
        shown = await fake.click(mover, table_message(fake, session), "Show my hand")
        assert shown.message is not None
        menu = shown.message
        choice = enabled_choices(menu)[0]
        before = session.table.model_copy(deep=True)

        store.fail_next_write()
        failed = await fake.click(mover, menu, choice)
        assert failed.ephemeral and APOLOGY in answer_text(fake, failed), failed
        await wait_settled(bot, session)
        assert session.table == before
        await agrees(session, store)

        again = await fake.click(mover, menu, choice)
        assert updated_the_menu(again) and "out of date" not in again.text, again

        await wait_settled(bot, session)
        assert session.version > before.version
        await agrees(session, store)
