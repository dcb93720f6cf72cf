"""Nothing one person can use to flood others: every feature that writes, pings or thinks
is bounded, whoever clicks it and however fast."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.app import FivefoldBot
from bot.models import TableStatus
from bot.tables.computers import Computers, Question, think
from bot.tables.session import Session
from games.players import Decision
from tests.answers import answered_privately
from tests.botdriver import (
    answer_text,
    open_table,
    play_to_the_end,
    running_bot,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeChannel, FakeUser


def spy_on_replays(bot: FivefoldBot) -> list[threading.Thread]:
    """The threads in which the bot replays a stored table's record from now on."""
    registry: Any = bot.tables.registry
    replayed: Callable[..., Any] = registry._replayed
    threads: list[threading.Thread] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return replayed(*args, **kwargs)

    registry._replayed = counting
    return threads


async def fiasco_with(fake: FakeDiscord, bot: FivefoldBot, host: FakeUser,
                      channel: FakeChannel, guest: FakeUser, **options: Any) -> Session:
    """A started two-person Fiasco, pictures off (they are no part of these tests)."""
    return await open_table(fake, bot, host, channel, "fiasco", people=[guest],
                            options={"pictures": False, **options})


async def test_details_and_rules_of_a_finished_table_never_replay_it_on_the_loop(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """Anyone in the channel may click Details and Rules under a finished table as often as
    they like: what it shows is taken once, and never by replaying its whole record on the
    event loop per click."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await fiasco_with(fake, bot, world.alice, world.table, world.bob)
        await play_to_the_end(fake, bot, session, {u.id: u for u in (world.alice, world.bob)},
                              random.Random(3))
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.FINISHED
        final = table_message(fake, session)
        replays = spy_on_replays(bot)
        seen = set()
        for _ in range(3):
            details = await fake.click(world.carol, final, "Details")
            seen.add(answer_text(fake, details))
            rules = await fake.click(world.carol, final, "Rules")
            assert answered_privately(rules)
        [text] = seen
        assert text.startswith("**Fiasco**") and "**Log**" in text
        assert replays == []  # taken when the game ended
    async with running_bot(fake, tmp_path) as bot:  # after a restart: from the store
        replays = spy_on_replays(bot)
        clicks = await asyncio.gather(*(fake.click(who, final, "Details")
                                        for who in (world.carol, world.alice, world.bob)))
        assert {answer_text(fake, c) for c in clicks} == {text}
        for _ in range(2):
            assert answered_privately(await fake.click(world.carol, final, "Rules"))
        again = await fake.click(world.carol, final, "Details")
        assert answer_text(fake, again) == text
        assert len(replays) == 1 and replays[0] is not threading.main_thread()


# --- hints ----------------------------------------------------------------------------


class HintSpy:
    """Counts the searches the bot starts for hints (at a table of people only every
    question to the computers' pool is one), and holds the first until :meth:`release`."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.searches = 0
        self.gate = asyncio.Event()
        pool: Any = bot.tables.computers.pool
        for name in ("decide", "hint"):
            if hasattr(pool, name):
                setattr(pool, name, self._counting(getattr(pool, name)))

    def _counting(self, ask: Callable[[Any], Any]) -> Callable[[Any], Any]:
        async def counted(question: Any) -> Any:
            self.searches += 1
            if self.searches == 1:
                await self.gate.wait()
            return await ask(question)

        return counted

    def release(self) -> None:
        self.gate.set()


async def to_the_turn_of(fake: FakeDiscord, bot: FivefoldBot, session: Session,
                         who: FakeUser, people: list[FakeUser], rng: random.Random) -> None:
    """Play the others' turns until it is ``who``'s."""
    users = {u.id: u for u in people}
    while True:
        await wait_settled(bot, session)
        seat = session.to_act()
        assert seat is not None
        user_id = session.seats[seat].user_id
        if user_id == who.id:
            return
        assert user_id is not None
        await take_turn(fake, session, users[user_id], rng)


async def hand_of(fake: FakeDiscord, session: Session, user: FakeUser) -> StoredMessage:
    shown = await fake.click(user, table_message(fake, session), "Show my hand")
    assert shown.message is not None
    return shown.message


async def test_hint_clicks_share_one_search_and_a_repeat_is_answered_from_it(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await fiasco_with(fake, bot, world.alice, world.table, world.bob, hints=True)
        await to_the_turn_of(fake, bot, session, world.bob, [world.alice, world.bob],
                             random.Random(1))
        spy = HintSpy(bot)
        menu = await hand_of(fake, session, world.bob)
        clicks = await asyncio.gather(*(fake.click(world.bob, menu, "Hint") for _ in range(5)))
        assert all(c.response_type for c in clicks)
        assert spy.searches == 1  # five clicks while it thinks: one search
        spy.release()
        await fake.wait_for(lambda: "Hint:" in menu.text)
        await wait_settled(bot, session)
        hinted, edits = menu.text, menu.edit_count
        await fake.click(world.bob, menu, "Hint")
        await fake.wait_for(lambda: menu.edit_count > edits)
        assert menu.text == hinted
        assert spy.searches == 1  # answered from the first search


async def test_a_person_has_one_hint_in_flight(fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        people = [world.alice, world.bob, world.carol]
        here = await fiasco_with(fake, bot, world.alice, world.table, world.bob, hints=True)
        there = await fiasco_with(fake, bot, world.carol, world.lobby, world.bob, hints=True)
        for session in (here, there):
            await to_the_turn_of(fake, bot, session, world.bob, people, random.Random(2))
        spy = HintSpy(bot)
        first = await hand_of(fake, here, world.bob)
        await fake.click(world.bob, first, "Hint")
        second = await hand_of(fake, there, world.bob)
        refused = await fake.click(world.bob, second, "Hint")
        assert "one hint at a time" in refused.text, refused
        assert spy.searches == 1
        spy.release()
        await fake.wait_for(lambda: "Hint:" in first.text)


async def test_a_player_kicked_while_their_hint_is_thought_sees_no_hand(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """The seat passes to a computer during the search: the answer re-reads who holds it
    and shows the kicked person nothing of the computer's cards."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await fiasco_with(fake, bot, world.alice, world.table, world.bob, hints=True)
        rng = random.Random(3)
        while True:  # a turn of Bob's with cards in his hand
            await to_the_turn_of(fake, bot, session, world.bob, [world.alice, world.bob], rng)
            menu = await hand_of(fake, session, world.bob)
            if "**Your hand**: no cards" not in menu.text:
                break
            await take_turn(fake, session, world.bob, rng)
        spy = HintSpy(bot)
        before = menu.text
        await fake.click(world.bob, menu, "Hint")
        kicked = await fake.slash(world.alice, world.table, "kick", {"player": world.bob.id})
        assert "passed to a hard computer" in kicked.text
        spy.release()
        await fake.wait_for(lambda: menu.text != before)
        await wait_settled(bot, session)
        assert "no longer hold" in menu.text and "Your hand" not in menu.text, menu.text
        assert not menu.buttons


GATE_LIMIT = 60.0
"""Seconds a gated search waits at most: a bot that waits on it fails instead of hanging."""


class SeatGate:
    """A thinker for the worker processes: the questions of ``seat`` (a person's: hints)
    mark ``started`` and wait until ``gate`` exists; every other one is answered at once."""

    def __init__(self, seat: int, started: Path, gate: Path) -> None:
        self.seat, self.started, self.gate = seat, started, gate

    def __call__(self, question: Question, budget: float) -> Decision:
        if question.perspective.seat == self.seat:
            self.started.touch()
            limit = time.monotonic() + GATE_LIMIT
            while not self.gate.exists() and time.monotonic() < limit:
                time.sleep(0.005)
        return think(question, budget)


async def test_computers_never_wait_for_a_hint(fake_world: FakeWorld, tmp_path: Path) -> None:
    """A hint being thought (in a real worker process) holds up no computer's move."""
    world, fake = fake_world, fake_world.fake
    started, gate = tmp_path / "started", tmp_path / "gate"
    async with running_bot(fake, tmp_path) as bot:
        bot.tables.computers.pool = Computers(  # one worker, as on a two-core machine
            workers=1, budget=0.01, thinker=SeatGate(0, started, gate))
        try:
            session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                       computers=1,
                                       options={"hints": True, "pictures": False})
            assert session.seats[0].user_id == world.alice.id
            await to_the_turn_of(fake, bot, session, world.alice, [world.alice],
                                 random.Random(4))
            menu = await hand_of(fake, session, world.alice)
            await fake.click(world.alice, menu, "Hint")
            await until(started.exists, 20, "the hint's search to start")
            moves = len(session.game.history) if session.game else 0
            await take_turn(fake, session, world.alice, random.Random(5))
            # Alice moved; the computer answers her without waiting for the hint.
            await until(lambda: session.to_act() == 0 or not session.in_play, 15,
                        "the computer's move while the hint is thought")
            assert session.game is not None and len(session.game.history) >= moves + 2
            assert not gate.exists()
            gate.touch()
            await fake.wait_for(lambda: "moved on" in menu.text or "Hint:" in menu.text)
        finally:
            gate.touch()  # the worker is let go whatever happened


async def test_play_in_a_thread_checks_every_limit_before_it_opens_the_thread(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """A host at their limit gets the reason, and no new empty thread each time."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, max_tables_per_host=1):
        opened = await fake.slash(world.alice, world.table, "play fiasco")
        assert not opened.ephemeral
        for _ in range(2):
            refused = await fake.slash(world.alice, world.lobby, "play fiasco",
                                       {"thread": True})
            assert answered_privately(refused), refused
            assert "you already host 1 open table" in refused.text.lower()
        assert fake.threads(world.lobby) == [] and fake.threads(world.table) == []
        other = await fake.slash(world.bob, world.lobby, "play fiasco", {"thread": True})
        await fake.wait_answered(other)
        await fake.wait_for(lambda: len(fake.threads(world.lobby)) == 1)


def live_table_messages(fake: FakeDiscord, channel: FakeChannel, session: Session
                        ) -> list[StoredMessage]:
    """The messages of ``channel`` that still carry the table's buttons and are there."""
    return [m for m in fake.public_messages(channel) if not m.deleted and any(
        (b.custom_id or "").startswith(f"ff:{session.id}:") for b in m.buttons)]


async def test_table_posted_at_once_by_three_people_leaves_one_live_message(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await fiasco_with(fake, bot, world.alice, world.table, world.bob)
        first = table_message(fake, session)
        answers = await asyncio.gather(*(fake.slash(who, world.table, "table", {})
                                         for who in (world.alice, world.bob, world.carol)))
        await wait_settled(bot, session)
        posted = [a for a in answers if not a.ephemeral]
        told = [a for a in answers if a.ephemeral]
        assert len(posted) == 1 and len(told) == 2, answers
        assert all("just posted again" in a.text for a in told)
        await fake.wait_for(lambda: first.deleted)
        [live] = live_table_messages(fake, world.table, session)
        assert live.id == session.table.message_id and first.deleted
        # The live message is the one kept up to date.
        await take_turn(fake, session, world.alice if session.to_act() == 0 else world.bob,
                        random.Random(6))
        await wait_settled(bot, session)
        assert live.edit_count >= 1 and live_table_messages(fake, world.table, session) == [live]


async def test_table_has_a_cooldown(fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, commands_per_minute=2) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        answers = [await fake.slash(world.bob, world.table, "table", {}) for _ in range(3)]
        assert not answers[0].ephemeral  # posted again
        assert "Not so fast" in answers[2].text
        lobby = bot.tables.registry.in_channel(world.table.id)
        assert lobby is not None
        await fake.wait_for(lambda: len(live_table_messages(fake, world.table, lobby)) == 1)


# --- rematches, seats, hosts ----------------------------------------------------------


async def finished_pair(fake: FakeDiscord, bot: FivefoldBot, world: FakeWorld) -> StoredMessage:
    """Alice and Bob play a Fiasco to its end in #card-table: its result message."""
    session = await fiasco_with(fake, bot, world.alice, world.table, world.bob)
    await play_to_the_end(fake, bot, session, {u.id: u for u in (world.alice, world.bob)},
                          random.Random(3))
    await wait_settled(bot, session)
    await fake.wait_for(lambda: any("is over" in m.content
                                    for m in fake.public_messages(world.table)))
    return next(m for m in fake.public_messages(world.table) if "is over" in m.content)


async def test_play_again_counts_with_play_and_pings_a_person_once_a_minute(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """Play again and Cancel in a loop would ping the others each round and write a
    table each time: rematches count against /play's limit, and each person is pinged
    for a rematch at most once a minute."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, commands_per_minute=3) as bot:
        result = await finished_pair(fake, bot, world)  # Alice's /play: her first use
        pinged = []
        for _ in range(2):
            again = await fake.click(world.alice, result, "Play again")
            assert again.message is not None and not again.ephemeral, again
            pinged.append([int(u) for u in again.message.allowed_mentions["users"]])
            lobby = bot.tables.registry.in_channel(world.table.id)
            assert lobby is not None
            await fake.click(world.alice, table_message(fake, lobby), "Cancel")
        assert pinged == [[world.bob.id], []]  # Bob is named the second time, not pinged
        third = await fake.click(world.alice, result, "Play again")
        assert answered_privately(third) and "Not so fast" in third.text
        assert bot.tables.registry.in_channel(world.table.id) is None
        # /play counts against the same limit.
        play = await fake.slash(world.alice, world.lobby, "play fiasco")
        assert answered_privately(play) and "Not so fast" in play.text
        # Bob has his own, and may ping Alice, who was never pinged.
        his = await fake.click(world.bob, result, "Play again")
        assert his.message is not None
        assert [int(u) for u in his.message.allowed_mentions["users"]] == [world.alice.id]


async def test_same_cards_counts_with_play_again_and_pings_as_it_does(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """Same cards opens a table too: Play again then Same cards in a loop would otherwise
    dodge the limit, and ping the others every round."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, commands_per_minute=3) as bot:
        result = await finished_pair(fake, bot, world)  # Alice's /play: her first use
        pinged = []
        for button in ("Play again", "Same cards"):
            again = await fake.click(world.alice, result, button)
            assert again.message is not None and not again.ephemeral, again
            pinged.append([int(u) for u in again.message.allowed_mentions["users"]])
            lobby = bot.tables.registry.in_channel(world.table.id)
            assert lobby is not None
            await fake.click(world.alice, table_message(fake, lobby), "Cancel")
        assert pinged == [[world.bob.id], []]  # one rematch ping a minute, whichever button
        fourth = await fake.click(world.alice, result, "Same cards")
        assert answered_privately(fourth) and "Not so fast" in fourth.text
        assert bot.tables.registry.in_channel(world.table.id) is None


async def test_join_and_leave_are_throttled(fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, commands_per_minute=2) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        lobby = bot.tables.registry.in_channel(world.table.id)
        assert lobby is not None
        await fake.click(world.bob, table_message(fake, lobby), "Join")
        await fake.click(world.bob, table_message(fake, lobby), "Leave")
        version = lobby.version
        third = await fake.click(world.bob, table_message(fake, lobby), "Join")
        assert answered_privately(third) and "Not so fast" in third.text
        typed = await fake.slash(world.bob, world.table, "join", {})
        assert answered_privately(typed) and "Not so fast" in typed.text
        assert lobby.seat_of(world.bob.id) is None and lobby.version == version


async def test_a_leaving_host_hands_the_role_only_to_someone_under_the_limit(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, max_tables_per_host=1) as bot:
        await fake.slash(world.bob, world.lobby, "play fumblaroo")  # Bob hosts one already
        await fake.slash(world.alice, world.table, "play fiasco")
        lobby = bot.tables.registry.in_channel(world.table.id)
        assert lobby is not None
        for person in (world.bob, world.carol):
            await fake.click(person, table_message(fake, lobby), "Join")
        await fake.click(world.alice, table_message(fake, lobby), "Leave")
        assert lobby.table.host_id == world.carol.id  # Bob, first seated, is at his limit
        assert len(bot.tables.registry.open_tables(host_id=world.bob.id)) == 1
        await fake.click(world.carol, table_message(fake, lobby), "Leave")
        # Only Bob is left, and he may host no other table: the lobby closes.
        assert not lobby.is_open and "nobody left here may host" in lobby.recent[-1]
        assert len(bot.tables.registry.open_tables(host_id=world.bob.id)) == 1
