"""The lobby on its own: opening a table and every seat change, on a real SQLite store.

No Discord here, fake or not: each test calls the lobby's typed methods
(:class:`bot.tables.lobby.Lobby`, the one way in a button and its command share) and
checks the exact words a person is told or refused with, the seats that result, and
that the store holds what memory holds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from bot.models import ComputerLevel, TableStatus
from bot.store.sqlite.store import SqliteStore
from bot.tables.errors import TABLE_HERE, TableClosed, TableError
from bot.tables.lobby import KICKED, TO_THE_HAND, Lobby
from bot.tables.service import TableService
from bot.tables.session import Session
from tests.botdriver import settings_for

GUILD, CHANNEL = 5, 10
ALICE, BOB, CAROL, DAN = 1, 2, 3, 4
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAN: "dan"}
KICKED_IN_PLAY = ("the host handed your seat to a computer, so it stays the computer's for the "
                  "rest of this game")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "fivefold.db")
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: SqliteStore, tmp_path: Path) -> AsyncIterator[TableService]:
    tables = TableService(store, settings_for(tmp_path), seed_source=lambda: 7)
    yield tables
    await tables.shutdown()


@pytest.fixture
def lobby(service: TableService) -> Lobby:
    return service.lobby


async def opened(lobby: Lobby, game: str = "fiasco", *people: int) -> Session:
    """A lobby of ``game`` hosted by Alice, with ``people`` joined after her."""
    session = await lobby.open(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE,
                               host_name="alice", game=game, options={})
    for user_id in people:
        await lobby.join(session, user_id, NAMES[user_id])
    return session


def seated(session: Session) -> list[str]:
    return [seat.name for seat in session.seats]


async def refused(work: Awaitable[object], words: str) -> None:
    """``work`` (a lobby call) is refused with exactly ``words``."""
    with pytest.raises(TableError) as refusal:
        await work
    assert refusal.value.message == words


async def agrees(session: Session, store: SqliteStore) -> None:
    """The store holds the table memory holds."""
    assert await store.get_table(session.id) == session.table


# --- opening -------------------------------------------------------------------------------


async def test_open_seats_the_host_and_registers_the_table_in_its_channel(
        lobby: Lobby, service: TableService, store: SqliteStore) -> None:
    session = await opened(lobby)
    assert seated(session) == ["alice"] and session.table.host_id == ALICE
    assert session.status is TableStatus.LOBBY
    assert service.registry.in_channel(CHANNEL) is session
    await agrees(session, store)


async def test_a_second_table_in_the_same_channel_is_refused(lobby: Lobby) -> None:
    await opened(lobby)
    await refused(lobby.open(guild_id=GUILD, channel_id=CHANNEL, host_id=BOB, host_name="bob",
                             game="fiasco", options={}), TABLE_HERE)


# --- joining -------------------------------------------------------------------------------


async def test_join_takes_the_next_seat(lobby: Lobby, store: SqliteStore) -> None:
    session = await opened(lobby)
    assert await lobby.join(session, BOB, "bob") == "you joined the table"
    assert seated(session) == ["alice", "bob"]
    await agrees(session, store)


async def test_joining_twice_is_refused_and_changes_nothing(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    version = session.table.version
    await refused(lobby.join(session, BOB, "bob"), "you are already seated at this table")
    assert seated(session) == ["alice", "bob"] and session.table.version == version


async def test_a_full_table_refuses_one_more(lobby: Lobby) -> None:
    session = await opened(lobby, "fumblaroo", BOB, CAROL)  # Fumblaroo: exactly 3
    await refused(lobby.join(session, DAN, "dan"), "the table is full (3 players)")
    assert seated(session) == ["alice", "bob", "carol"]


async def test_a_person_kicked_may_not_join_again(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    await lobby.kick(session, ALICE, BOB)
    await refused(lobby.join(session, BOB, "bob"), KICKED)
    assert seated(session) == ["alice"]


# --- leaving -------------------------------------------------------------------------------


async def test_leave_frees_the_seat(lobby: Lobby, store: SqliteStore) -> None:
    session = await opened(lobby, "fiasco", BOB)
    assert await lobby.leave(session, BOB) == "you left the table"
    assert seated(session) == ["alice"]
    await agrees(session, store)


async def test_leave_without_a_seat_is_refused(lobby: Lobby) -> None:
    session = await opened(lobby)
    await refused(lobby.leave(session, BOB), "you are not seated at this table")


async def test_the_host_leaving_passes_the_table_to_the_next_person(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    await lobby.leave(session, ALICE)
    assert seated(session) == ["bob"] and session.table.host_id == BOB
    assert session.is_open


async def test_the_last_person_leaving_closes_the_lobby(
        lobby: Lobby, service: TableService, store: SqliteStore) -> None:
    session = await opened(lobby)
    await lobby.add_computer(session, ALICE)
    await lobby.leave(session, ALICE)
    assert session.table.status is TableStatus.CANCELLED
    assert service.registry.in_channel(CHANNEL) is None
    await agrees(session, store)


# --- kicking -------------------------------------------------------------------------------


async def test_the_host_kicks_a_person_by_who_they_are(lobby: Lobby, store: SqliteStore) -> None:
    session = await opened(lobby, "fiasco", BOB, CAROL)
    assert await lobby.kick(session, ALICE, BOB) == "bob left the table and may not join it again"
    assert seated(session) == ["alice", "carol"] and session.table.kicked == [BOB]
    await agrees(session, store)


async def test_the_host_kicks_by_seat_number_as_the_lobby_lists_it(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB, CAROL)
    said = await lobby.kick(session, ALICE, None, 3)
    assert said == "carol left the table and may not join it again"
    assert seated(session) == ["alice", "bob"] and session.table.kicked == [CAROL]


async def test_a_computer_kicked_leaves_the_lobby_and_nobody_is_banned(lobby: Lobby) -> None:
    session = await opened(lobby)
    seat = await lobby.add_computer(session, ALICE)
    assert await lobby.kick(session, ALICE, None, 2) == f"{seat.label} left the table"
    assert seated(session) == ["alice"] and session.table.kicked == []


@pytest.mark.parametrize(("by", "user_id", "seat", "words"), [
    (BOB, CAROL, None, "only the host can do that"),
    (ALICE, ALICE, None, "you cannot kick yourself; use /leave"),
    (ALICE, DAN, None, "that person is not seated at this table"),
    (ALICE, None, 9, "there is no seat 9; this table has 3"),
    (ALICE, None, 0, "there is no seat 0; this table has 3"),
    (ALICE, None, None, "name a player, or a seat by its number in the lobby"),
])
async def test_kicks_that_cannot_be_are_refused_and_change_nothing(
        lobby: Lobby, by: int, user_id: int | None, seat: int | None, words: str) -> None:
    session = await opened(lobby, "fiasco", BOB, CAROL)
    version = session.table.version
    await refused(lobby.kick(session, by, user_id, seat), words)
    assert seated(session) == ["alice", "bob", "carol"] and session.table.version == version


# --- computers -----------------------------------------------------------------------------


async def test_a_player_adds_computers_numbered_in_turn(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    first = await lobby.add_computer(session, BOB)
    second = await lobby.add_computer(session, ALICE, ComputerLevel.EASY)
    assert (first.name, first.level) == ("Computer 1", ComputerLevel.HARD)
    assert (second.name, second.level) == ("Computer 2", ComputerLevel.EASY)
    assert seated(session) == ["alice", "bob", "Computer 1", "Computer 2"]


async def test_only_a_player_may_add_a_computer(lobby: Lobby) -> None:
    session = await opened(lobby)
    await refused(lobby.add_computer(session, BOB),
                  "only players at this table can add a computer player")
    assert seated(session) == ["alice"]


async def test_no_computer_fits_at_a_full_table(lobby: Lobby) -> None:
    session = await opened(lobby, "fumblaroo", BOB, CAROL)
    await refused(lobby.add_computer(session, ALICE), "the table is full (3 players)")
    with pytest.raises(TableError, match=r"^the table is full \(3 players\)$"):
        lobby.check_add_computer(session, ALICE)  # the button's check, before the level


# --- starting ------------------------------------------------------------------------------


async def test_the_host_starts_the_game(lobby: Lobby, store: SqliteStore) -> None:
    session = await opened(lobby, "fiasco", BOB)
    assert await lobby.start(session, ALICE) == f"the game has started. {TO_THE_HAND}"
    assert session.status is TableStatus.PLAYING and session.game is not None
    assert session.game.players == 2
    await agrees(session, store)


async def test_only_the_host_starts(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    await refused(lobby.start(session, BOB), "only the host can start the game")
    assert session.status is TableStatus.LOBBY


async def test_too_few_players_cannot_start(lobby: Lobby) -> None:
    session = await opened(lobby, "fumblaroo", BOB)
    await refused(lobby.start(session, ALICE), "Fumblaroo needs 3 to 3 players; 2 seated")
    assert session.status is TableStatus.LOBBY and session.game is None


async def test_after_the_start_the_lobby_is_shut(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    await lobby.start(session, ALICE)
    await refused(lobby.join(session, CAROL, "carol"),
                  "the game has already started, and you held no seat in it")
    await refused(lobby.add_computer(session, ALICE), "the game has already started")
    await refused(lobby.cancel(session, ALICE, name="alice"), "the game has already started")
    await refused(lobby.start(session, ALICE), "the game has already started")


# --- cancelling and ending -----------------------------------------------------------------


async def test_only_the_host_cancels(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    await refused(lobby.cancel(session, BOB, name="bob"), "only the host can cancel the table")
    assert session.is_open


async def test_the_host_cancels_and_the_channel_is_free(
        lobby: Lobby, service: TableService, store: SqliteStore) -> None:
    session = await opened(lobby, "fiasco", BOB)
    assert await lobby.cancel(session, ALICE, name="alice") == "the table is cancelled"
    assert session.table.status is TableStatus.CANCELLED and session.closed_by == "alice"
    assert service.registry.in_channel(CHANNEL) is None
    await agrees(session, store)
    with pytest.raises(TableClosed, match=r"^this table is closed$"):
        await lobby.join(session, CAROL, "carol")


async def test_only_the_host_or_a_moderator_ends_a_table(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    await lobby.start(session, ALICE)
    await refused(lobby.end(session, BOB, moderator=False, name="bob"),
                  "only the host or someone with Manage Messages can end the table")
    assert session.is_open
    assert await lobby.end(session, CAROL, moderator=True, name="carol") == "the table is ended"
    assert session.table.status is TableStatus.CANCELLED and session.closed_by == "carol"


async def test_the_host_ends_a_lobby_too(lobby: Lobby) -> None:
    session = await opened(lobby)
    assert await lobby.end(session, ALICE, moderator=False, name="alice") == "the table is ended"
    assert not session.is_open


# --- a seat in play --------------------------------------------------------------------------


async def test_leaving_in_play_hands_the_seat_to_a_computer_and_join_takes_it_back(
        lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB, CAROL)
    await lobby.start(session, ALICE)
    said = await lobby.leave(session, BOB)
    assert said == ("you left the table; a hard computer player took your seat "
                    "(/join gives it back to you)")
    assert session.seats[1].is_computer and session.seats[1].replaced_user_id == BOB
    assert await lobby.join(session, BOB, "bob") == f"you are back in your seat, bob. {TO_THE_HAND}"
    assert session.seats[1].user_id == BOB


async def test_a_person_kicked_in_play_may_not_take_the_seat_back(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB, CAROL)
    await lobby.start(session, ALICE)
    said = await lobby.kick(session, ALICE, BOB)
    assert said == "bob's seat passed to a hard computer player"
    await refused(lobby.join(session, BOB, "bob"), KICKED_IN_PLAY)
    assert session.seats[1].is_computer


async def test_a_computer_in_play_keeps_its_seat_when_kicked(lobby: Lobby) -> None:
    session = await opened(lobby, "fiasco", BOB)
    seat = await lobby.add_computer(session, ALICE)
    await lobby.start(session, ALICE)
    await refused(lobby.kick(session, ALICE, None, 3),
                  f"{seat.label} plays that seat to the end of the game; /end ends the table")
    assert len(session.seats) == 3
