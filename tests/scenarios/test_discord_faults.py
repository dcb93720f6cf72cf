"""Discord misbehaving under a game: rate limits, outages, a dropped gateway.

Faults are injected through the fake (``FakeDiscord.rate_limit`` / ``fail``) on the
table message's edits only; people keep clicking through it all. What must hold:
every click is answered, the game finishes, its result is stored, and the table
message's edits never show an older state after a newer one, the last showing the end.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import cogs.upkeep.publisher
from bot.app import FivefoldBot
from bot.models import TableStatus
from bot.tables.session import Session
from cogs.upkeep.publisher import EDIT_RETRIES, Publisher
from tests.answers import updated_the_menu
from tests.botdriver import (
    add_computer,
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import MANAGE_THREADS, FakeChannel, FakeUser

Renders = list[tuple[str, int, str]]
"""(table id, table version, embed description) of every render the publisher made."""


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[Renders]:
    """Every table render of the publisher, with the version it showed."""
    seen: Renders = []
    real = cogs.upkeep.publisher.render_message

    def spying(session: Session, *, pictures: bool = True) -> cogs.upkeep.publisher.Rendered:
        shown = real(session, pictures=pictures)
        seen.append((session.id, session.table.version, shown.embed.description or ""))
        return shown

    monkeypatch.setattr(cogs.upkeep.publisher, "render_message", spying)
    yield seen


def publisher_of(bot: FivefoldBot) -> Publisher:
    cog = bot.get_cog("TableCommands")
    assert cog is not None
    publisher: Publisher = cog.publisher  # type: ignore[attr-defined]
    return publisher


def edit_path(session: Session) -> str:
    return f"/channels/{session.channel_id}/messages/{session.table.message_id}"


def shown_descriptions(message: StoredMessage) -> list[str]:
    """The table message's description after each edit Discord accepted, in order."""
    states = [*message.history[1:], message.snapshot()]
    return [str((state.get("embeds") or [{}])[0].get("description") or "") for state in states]


def versions_in_order(session: Session, message: StoredMessage, renders: Renders) -> list[int]:
    """The versions the message's edits showed, each the earliest one possible at or after
    the one before (so identical-looking states never fake a step back); AssertionError
    if an edit can only be an older state than the edit before it."""
    by_text: dict[str, list[int]] = {}
    for table, version, text in renders:
        if table == session.id:
            by_text.setdefault(text, []).append(version)
    shown, at_least = [], 0
    for text in shown_descriptions(message):
        later = [v for v in by_text.get(text, []) if v >= at_least]
        assert later, f"an edit showed an older state than version {at_least}: {text[:200]}"
        at_least = min(later)
        shown.append(at_least)
    return shown


def patches(fake: FakeDiscord, session: Session) -> list[int]:
    """The statuses of every edit request of the table message, in order."""
    return [r.status for r in fake.requests if r.method == "PATCH" and r.path == edit_path(session)]


async def test_429s_and_5xx_on_table_edits_lose_nothing_and_keep_the_order(
    fake_world: FakeWorld, tmp_path: Path, renders: Renders, caplog: pytest.LogCaptureFixture
) -> None:
    world, fake = fake_world, fake_world.fake
    caplog.set_level(logging.INFO, logger="cogs.upkeep.publisher")
    async with running_bot(fake, tmp_path, seed_source=lambda: 11) as bot:
        publisher_of(bot).retry_delay = 0.02
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options={"target": 5})
        edits = re.compile(re.escape(edit_path(session)))
        # Taken in this order by the table's next edit requests.
        faults = [
            fake.rate_limit("PATCH", edits, retry_after=0.2, times=2),           # waited out
            fake.rate_limit("PATCH", edits, retry_after=0.2, is_global=True),    # waited out
            fake.fail("PATCH", edits, status=503, times=2),                      # retried here
            fake.fail("PATCH", edits, status=500),                # retried by discord.py only
            fake.fail("PATCH", edits, status=503, times=EDIT_RETRIES + 1),       # given up
            fake.rate_limit("PATCH", edits, retry_after=0.1, scope="shared"),
        ]
        users = {u.id: u for u in (world.alice, world.bob)}
        turns = await play_to_the_end(fake, bot, session, users, random.Random(3))
        await wait_settled(bot, session)
        assert turns > 0 and session.table.status is TableStatus.FINISHED
        assert all(f.spent for f in faults), [len(f.hits) for f in faults]
        message = table_message(fake, session)
        assert "Game over" in message.text
        shown = versions_in_order(session, message, renders)
        assert shown[-1] == session.table.version
        assert (await bot.tables.store.get_table(session.id)).status is TableStatus.FINISHED
    statuses = patches(fake, session)
    assert statuses.count(429) == 4 and statuses.count(503) == 2 + EDIT_RETRIES + 1
    assert statuses.count(500) == 1  # discord.py retried it; the publisher did not again
    gave_up = [r for r in caplog.records if "giving up until the next change" in r.getMessage()]
    assert len(gave_up) == 1 and session.id in gave_up[0].getMessage()


async def test_a_rate_limited_table_does_not_hold_up_another(
    fake_world: FakeWorld, tmp_path: Path, renders: Renders
) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 5) as bot:
        held = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                computers=2, options={"target": 5})
        free = await open_table(fake, bot, world.bob, world.lobby, "fumblaroo",
                                computers=2, options={"target": 5})
        limit = fake.rate_limit("PATCH", edit_path(held), retry_after=2.0)
        rng = random.Random(8)
        answered = await take_turn(fake, held, world.alice, rng)
        assert updated_the_menu(answered)  # the click is answered whatever the edit meets
        await until(lambda: limit.spent, what="the held table's edit rate-limited")
        before = len(patches(fake, free))
        await take_turn(fake, free, world.bob, rng)
        await until(lambda: len(patches(fake, free)) > before, what="the other table's edit")
        assert patches(fake, free)[-1] == 200
        assert patches(fake, held) == [200] * (len(patches(fake, held)) - 1) + [429], \
            "the other table's edit waited for the rate limit"
        await wait_settled(bot, held)
        # The held edit went through, then (coalesced) at most one more with the latest state.
        after = patches(fake, held)[patches(fake, held).index(429) + 1:]
        assert 1 <= len(after) <= 2 and set(after) == {200}
        shown = versions_in_order(held, table_message(fake, held), renders)
        assert shown[-1] == held.table.version


class _Response:
    """What discord.py's HTTPException reads of a response."""

    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "outage"


@pytest.mark.parametrize(("status", "tries"), [(500, 1), (502, 1), (503, EDIT_RETRIES + 1)])
async def test_an_edit_is_retried_only_where_discord_py_did_not_retry_it(
    status: int, tries: int
) -> None:
    publisher = Publisher(None)  # type: ignore[arg-type]
    publisher.retry_delay = 0.001
    session = Session.__new__(Session)
    session.table = type("T", (), {"id": "t1"})()  # type: ignore[assignment]
    calls: list[int] = []

    async def send() -> None:
        calls.append(status)
        raise discord.DiscordServerError(_Response(status), "down")  # type: ignore[arg-type]

    with pytest.raises(discord.DiscordServerError):
        await publisher._send_retrying(session, send)
    assert len(calls) == tries


async def test_a_gateway_reconnect_mid_game_loses_no_table_and_no_computer_turn(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    rng = random.Random(4)
    users = {u.id: u for u in (world.alice, world.bob)}
    async with running_bot(fake, tmp_path, seed_source=lambda: 9, computer_delay=0.15) as bot:
        bot.before_identify_hook = no_wait  # type: ignore[method-assign]
        game = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                people=[world.bob], computers=1, options={"target": 5})
        lobby = await open_lobby(fake, bot, world.carol, world.lobby)
        # A dropped connection (resumable): what happened meanwhile is replayed on RESUME.
        await until_a_computer_thinks(fake, game, users, rng)
        await fake.drop_connection(4000)
        await fake.delete_channel(world.lobby)
        await until(lambda: fake.resume_count == 1 and fake.connected, what="a RESUME")
        await until(lambda: not lobby.is_open, what="the deleted channel's lobby closed")
        assert lobby.table.status is TableStatus.CANCELLED
        assert game.is_open and fake.identify_count == 1
        # The session ends (4009): RESUME is refused with INVALID_SESSION, a new IDENTIFY.
        await until_a_computer_thinks(fake, game, users, rng)
        await fake.end_session()
        await until(lambda: fake.identify_count == 2 and fake.connected, what="a new IDENTIFY")
        # INVALID_SESSION on a live connection: IDENTIFY again.
        await until_a_computer_thinks(fake, game, users, rng)
        await fake.invalidate_session()
        await until(lambda: fake.identify_count == 3 and fake.connected, what="IDENTIFY again")
        await take_turn_of_whoever(fake, game, users, rng)  # the computer's turn was played
        await play_to_the_end(fake, bot, game, users, rng)
        await wait_settled(bot, game)
        assert game.table.status is TableStatus.FINISHED
        assert "Game over" in table_message(fake, game).text
        assert [s.id for s in bot.tables.registry.open_tables()] == []
        assert fake.resume_count == 1


async def test_a_turn_timer_runs_on_through_a_lost_gateway_session(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """Nobody plays: each person's turn times out (TURN_TIMEOUT) and a computer plays it,
    across a session Discord ended (a new IDENTIFY) as before it."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, turn_timeout=0.5) as bot:
        bot.before_identify_hook = no_wait  # type: ignore[method-assign]
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        actions = lambda: len(session.table.record["actions"])  # noqa: E731
        before = actions()
        await fake.end_session()
        await until(lambda: fake.identify_count == 2 and fake.connected, what="a new IDENTIFY")
        await until(lambda: actions() > before, what="the timed-out turn played")
        await until(lambda: actions() > before + 1, what="the next timer too")
        await wait_settled(bot, session)
        assert "took too long" in table_message(fake, session).text
        assert session.is_open and not any(s.is_computer for s in session.seats)
        await fake.slash(world.alice, world.table, "end")


async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py's ``before_identify_hook`` without its 5 s wait before a new IDENTIFY."""


async def open_lobby(fake: FakeDiscord, bot: FivefoldBot, host: FakeUser,
                     channel: FakeChannel) -> Session:
    opened = await fake.slash(host, channel, "play fiasco", {})
    assert not opened.ephemeral, opened
    return session_in(bot, channel)


async def until_a_computer_thinks(fake: FakeDiscord, session: Session,
                                  users: dict[int, FakeUser], rng: random.Random) -> None:
    """People take turns until a computer seat is to act, its turn still to come."""
    while True:
        seat = session.to_act()
        task = session.turn_task
        if seat is not None and session.seats[seat].is_computer and task is not None \
                and not task.done():
            return
        await take_turn_of_whoever(fake, session, users, rng)


async def take_turn_of_whoever(fake: FakeDiscord, session: Session,
                               users: dict[int, FakeUser], rng: random.Random) -> None:
    """The person to act takes a random turn, once the computers have had theirs."""
    await until(lambda: (seat := session.to_act()) is not None
                and session.seats[seat].user_id is not None and not session.lock.locked(),
                what="a person's turn")
    seat = session.to_act()
    assert seat is not None
    user_id = session.seats[seat].user_id
    assert user_id is not None
    result = await take_turn(fake, session, users[user_id], rng)
    assert updated_the_menu(result)



async def thread_table(fake: FakeDiscord, bot: FivefoldBot, world: FakeWorld
                       ) -> tuple[Session, FakeChannel]:
    """A game of alice and bob (and a computer) in a thread ``/play thread:true`` opened."""
    opened = await fake.slash(world.alice, world.table, "play fumblaroo",
                              {"thread": True, "target": 5})
    await opened.wait_followups(1)
    thread = fake.threads(world.table)[0]
    session = session_in(bot, thread)
    await fake.click(world.bob, table_message(fake, session), "Join")
    await add_computer(fake, session, world.alice)
    await wait_settled(bot, session)
    await fake.click(world.alice, table_message(fake, session), "Start")
    await wait_settled(bot, session)
    return session, thread


async def test_an_archived_thread_is_unarchived_by_the_next_change(
    fake_world: FakeWorld, tmp_path: Path, renders: Renders
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    rng = random.Random(2)
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        session, thread = await thread_table(fake, bot, world)
        await take_turn_of_whoever(fake, session, users, rng)
        await wait_settled(bot, session)
        await fake.archive_thread(thread)
        await take_turn_of_whoever(fake, session, users, rng)
        await wait_settled(bot, session)
        assert not thread.archived
        refused = [r for r in fake.errors if r.error_code == 50083]
        assert refused and refused[0].path == edit_path(session)
        unarchived = [r for r in fake.requests
                      if r.method == "PATCH" and r.path == f"/channels/{thread.id}"]
        assert [r.body for r in unarchived] == [{"archived": False}]
        assert versions_in_order(session, table_message(fake, session), renders)[-1] \
            == session.table.version
        await take_turn_of_whoever(fake, session, users, rng)  # the game goes on there
        await wait_settled(bot, session)
        assert patches(fake, session)[-1] == 200 and session.is_open


async def test_a_thread_that_may_not_be_unarchived_closes_its_table(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        session, thread = await thread_table(fake, bot, world)
        thread.bot_deny = MANAGE_THREADS
        await fake.archive_thread(thread, locked=True)
        await take_turn_of_whoever(fake, session, users, random.Random(2))
        await until(lambda: not session.is_open, what="the table closed")
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.CANCELLED
        assert "could not be reopened" in session.recent[-1]
        stored = await bot.tables.store.get_table(session.id)
        assert stored.status is TableStatus.CANCELLED and stored.record["actions"]
        assert [r.status for r in fake.requests if r.path == f"/channels/{thread.id}"
                and r.method == "PATCH"] == [403]


async def test_a_thread_still_archived_after_unarchiving_is_not_unarchived_in_a_loop() -> None:
    unarchived: list[int] = []

    class Http:
        async def edit_channel(self, channel_id: int, **changes: object) -> None:
            unarchived.append(channel_id)

    publisher = Publisher(type("Client", (), {"http": Http()})())  # type: ignore[arg-type]
    session = type("S", (), {"id": "t1", "channel_id": 7, "is_open": True})()
    publisher._running["t1"] = None  # type: ignore[assignment]  # an edit task is running
    await publisher._thread_archived(session)  # type: ignore[arg-type]
    await publisher._thread_archived(session)  # type: ignore[arg-type]  # 50083 again at once
    assert unarchived == [7]
    await publisher._thread_archived(session)  # type: ignore[arg-type]  # a later change
    assert unarchived == [7, 7]
