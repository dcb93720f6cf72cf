"""A table never hangs: a save that leaves the game where it was (the table posted anew by
``/table``, or after its message was deleted) never cancels a computer's move or a turn
timer, and a turn whose move was lost anyway is found and started again, and logged.

The real bot against the fake Discord. A computer's thinking is held (:class:`Held`) so
that the table is posted anew while it thinks; a person's turn timer runs on a clock the
test moves (``test_discord_timers``' ``Clock``). Every game is then played to its end.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import FivefoldBot
from bot.models import TableStatus
from bot.tables.computers import Question
from bot.tables.session import Session
from games.players import Decision
from tests.answers import answered_privately, updated_the_menu
from tests.botdriver import (
    enabled_choices,
    open_table,
    play_to_the_end,
    running_bot,
    table_message,
    until,
    wait_settled,
)
from tests.custom_ids import is_action
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser
from tests.scenarios.test_discord_timers import Clock, timed_bot


class Held:
    """Holds every computer's thinking until :meth:`release`, so the test acts while a
    computer thinks without guessing how long thinking takes."""

    def __init__(self, decide: Callable[[Question], Awaitable[Decision]]) -> None:
        self._decide = decide
        self.thinking = 0  # thoughts begun
        self._released = asyncio.Event()

    async def decide(self, question: Question) -> Decision:
        self.thinking += 1
        await self._released.wait()
        return await self._decide(question)

    def release(self) -> None:
        self._released.set()


async def warmed(bot: FivefoldBot) -> FivefoldBot:
    """``bot`` with its computers' workers started: their first start blocks the event
    loop a moment (the fork server loads the rules), which under load can make a click
    that happens to arrive then miss Discord's 3 s, a fault of no test here."""
    await bot.tables.computers.pool.warm()
    return bot


def rescues(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The safety net's lines: a turn found with its move or timer lost, started again."""
    return [r.getMessage() for r in caplog.records if "started it again" in r.getMessage()]


def actions(session: Session) -> int:
    return len((session.table.record or {}).get("actions", []))


def person_to_act(session: Session, users: dict[int, FakeUser]) -> FakeUser | None:
    seat = session.to_act()
    if seat is None or session.seats[seat].user_id is None:
        return None
    return users[session.seats[seat].user_id]  # type: ignore[index]


async def move_from_hand(fake: FakeDiscord, world: FakeWorld, session: Session,
                         user: FakeUser, rng: random.Random) -> None:
    """``user`` makes a random legal move from the menu ``/hand`` opens (which works
    whether or not the table message is still there)."""
    shown = await fake.slash(user, world.table, "hand", {})
    assert answered_privately(shown) and shown.message is not None, shown
    menu = shown.message
    result = await fake.click(user, menu, rng.choice(enabled_choices(menu)))
    assert updated_the_menu(result), result
    if "Where does" in result.text:
        result = await fake.click(user, menu, rng.choice(
            [c for c in enabled_choices(menu) if is_action(c)]))
        assert updated_the_menu(result), result


async def posted_anew(session: Session, old: int | None) -> None:
    """Wait until the table's message is no longer ``old`` and its new id is saved."""
    await until(lambda: session.table.message_id != old and not session.lock.locked(),
                what="the table's new message saved")


async def posted_anew_by_table_command(fake: FakeDiscord, world: FakeWorld,
                                       session: Session) -> None:
    """``/table``: the table posted at the bottom, the old message deleted."""
    old = session.table.message_id
    answer = await fake.slash(world.carol, world.table, "table", {})
    assert not answer.ephemeral, answer
    await posted_anew(session, old)
    # The old message is taken down after the new id is saved: wait for it too.
    await until(lambda: fake.messages[old].deleted,  # type: ignore[index]
                what="the old table message taken down")


async def until_moved_with_message_gone(fake: FakeDiscord, world: FakeWorld, session: Session,
                                        users: dict[int, FakeUser], rng: random.Random,
                                        arrived: Callable[[], bool]) -> None:
    """People move, each after the table message was deleted (so the edit the move
    causes finds it gone and posts the table anew), until ``arrived()`` holds just after
    such a move, the new message saved: the table was posted anew while that turn waits."""
    for _ in range(200):
        old = session.table.message_id
        await fake.delete_message(table_message(fake, session))
        mover = person_to_act(session, users)
        assert mover is not None, "a person moves"
        await move_from_hand(fake, world, session, mover, rng)
        await posted_anew(session, old)
        if arrived():
            return
        await until(lambda: person_to_act(session, users) is not None,
                    what="the next person's turn")
    raise AssertionError("the turn never came")


Repost = str  # "/table", or "deleted": the table message deleted and posted anew


@pytest.mark.parametrize("repost", ["/table", "deleted"])
async def test_a_table_posted_anew_while_a_computer_thinks_keeps_its_move(
    fake_world: FakeWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, repost: Repost
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    rng = random.Random(5)
    async with running_bot(fake, tmp_path, seed_source=lambda: 5) as started:
        bot = await warmed(started)
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options={"target": 5})
        pool = bot.tables.computers.pool
        held = Held(pool.decide)
        monkeypatch.setattr(pool, "decide", held.decide)

        def computer_thinks() -> bool:
            return person_to_act(session, users) is None and held.thinking > 0

        if repost == "/table":
            while not computer_thinks():
                mover = person_to_act(session, users)
                assert mover is not None
                await move_from_hand(fake, world, session, mover, rng)
                await until(lambda: computer_thinks() or (
                    person_to_act(session, users) is not None and not session.lock.locked()),
                    what="the next turn")
            await posted_anew_by_table_command(fake, world, session)
        else:
            await until_moved_with_message_gone(fake, world, session, users, rng,
                                                computer_thinks)
        waiting = actions(session)
        assert computer_thinks()
        held.release()
        await until(lambda: actions(session) > waiting, what="the computer's move")
        await play_to_the_end(fake, bot, session, users, rng)
        assert session.table.status is TableStatus.FINISHED
    assert rescues(caplog) == []  # the move was kept, not lost and found again


@pytest.mark.parametrize("repost", ["/table", "deleted"])
async def test_a_table_posted_anew_while_a_turn_timer_runs_keeps_the_timer(
    fake_world: FakeWorld, tmp_path: Path, caplog: pytest.LogCaptureFixture, repost: Repost
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    rng = random.Random(7)
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock) as started:
        bot = await warmed(started)
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"timer": "1m"})
        if repost == "/table":
            await posted_anew_by_table_command(fake, world, session)
        else:
            start = actions(session)
            await until_moved_with_message_gone(
                fake, world, session, users, rng,
                lambda: actions(session) == start + 1 and session.table.deadline is not None)
        late = person_to_act(session, users)
        assert late is not None and session.table.deadline == clock.moment + dt.timedelta(
            seconds=60)
        waiting = actions(session)
        clock.advance(31)  # past half time: the reminder still comes
        await until(lambda: any("Half your time" in m.content
                                for m in fake.public_messages(world.table)),
                    what="the half-time reminder")
        assert actions(session) == waiting
        clock.advance(29)
        await until(lambda: actions(session) > waiting and not session.table.overtime,
                    what="the timed-out turn played")
        await wait_settled(bot, session)
        assert f"{late.name} took too long" in table_message(fake, session).text
        await play_to_the_end(fake, bot, session, users, rng)
        assert session.table.status is TableStatus.FINISHED
    assert rescues(caplog) == []  # the timer was kept, not lost and found again


async def lose_the_next_computer_move(bot: FivefoldBot, monkeypatch: pytest.MonkeyPatch
                                      ) -> list[int]:
    """The next computer's move is lost on purpose: its task ends without moving, as a
    move dropped by a bug would; the seats whose move was lost."""
    turns = bot.tables.computers
    play = turns.play
    lost: list[int] = []

    async def losing(session: Session, *args: Any, **kwargs: Any) -> None:
        if not lost:
            lost.append(session.to_act() or 0)
            return
        await play(session, *args, **kwargs)

    monkeypatch.setattr(turns, "play", losing)
    return lost


@pytest.mark.parametrize("noticed_by", ["the expiry sweep", "the next save"])
async def test_a_lost_computer_move_is_started_again_and_logged_once(
    fake_world: FakeWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, noticed_by: str
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {world.alice.id: world.alice}
    rng = random.Random(9)
    caplog.set_level(logging.INFO, logger="bot")
    async with running_bot(fake, tmp_path, seed_source=lambda: 9,
                           expiry_check_seconds=3600) as started:
        bot = await warmed(started)
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   computers=2, options={"target": 5})
        lost = await lose_the_next_computer_move(bot, monkeypatch)
        while not lost:
            mover = person_to_act(session, users)
            assert mover is not None
            await move_from_hand(fake, world, session, mover, rng)
            await wait_settled(bot, session)
        stuck = actions(session)
        assert person_to_act(session, users) is None and session.to_act() == lost[0]
        assert session.turn_task is not None and session.turn_task.done()  # hanging
        if noticed_by == "the next save":
            await posted_anew_by_table_command(fake, world, session)
        else:
            bot.tables.sweeper.stop()
            bot.tables.sweeper.start(0.05)
        await until(lambda: actions(session) > stuck, what="the lost move made after all")
        await play_to_the_end(fake, bot, session, users, rng)
        assert session.table.status is TableStatus.FINISHED
    [rescue] = rescues(caplog)  # once
    assert f"table {session.id}" in rescue and "computer move" in rescue
