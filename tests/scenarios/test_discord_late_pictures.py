"""Pictures are drawn off the event loop, and a late one never holds up an answer.

The real bot through the fake Discord, with the painter's drawing wrapped (the
painter in threads, so that the test can watch it: in production it draws in worker
processes, which ``test_discord_pictures`` goes through): it notes whether it ran
on the event loop's thread, and the hand picture can be held back
(a gate the test opens) to stand for a drawing queued behind many others. The
answer must then come with the text alone, and the picture follow by an edit.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cogs.render.pictures.painter import PAINTER
from cogs.render.pictures.scene import Scene
from cogs.upkeep.hand_pictures import HandPictures
from tests.botdriver import (
    open_table,
    running_bot,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld
from tests.scenarios.test_discord_pictures import QUICK, pictures_of


def on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class Drawing:
    """The painter's draw, watched: where each drawing ran, and hand pictures gated."""

    def __init__(self, real: Callable[[Scene], bytes]) -> None:
        self.real = real
        self.on_loop: list[bool] = []
        self.hands = threading.Event()
        self.hands.set()
        self.tables = threading.Event()
        self.tables.set()

    def __call__(self, scene: Scene) -> bytes:
        self.on_loop.append(on_event_loop())
        if scene.title == "Your hand":
            assert self.hands.wait(10), "the test never let the hand picture through"
        else:
            assert self.tables.wait(10), "the test never let the table picture through"
        return self.real(scene)


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawing]:
    """The painter in threads (the test watches them), nothing kept from earlier tests."""
    watched = Drawing(PAINTER.draw)
    PAINTER.close()
    monkeypatch.setattr(PAINTER, "draw", watched)
    monkeypatch.setattr(PAINTER, "processes", False)
    yield watched
    PAINTER.close()


def hand_pictures(bot: object) -> HandPictures:
    pictures: HandPictures = bot.get_cog("TableCommands").clicks.pictures  # type: ignore[attr-defined]
    return pictures


async def test_no_picture_is_drawn_on_the_event_loop(fake_world: FakeWorld, tmp_path: Path,
                                                     drawing: Drawing) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options=QUICK)
        shown = await fake.click(world.alice, table_message(fake, session), "Show my hand")
        await hand_pictures(bot).idle()
        assert shown.message is not None and pictures_of(shown.message) == ["hand.png"]
        assert pictures_of(table_message(fake, session)) == ["table.png"]
    assert len(drawing.on_loop) >= 2 and not any(drawing.on_loop)


async def test_a_late_hand_picture_follows_the_text(fake_world: FakeWorld, tmp_path: Path,
                                                    drawing: Drawing) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options=QUICK)
        drawing.hands.clear()  # every hand picture now waits for the test
        shown = await fake.click(world.alice, table_message(fake, session), "Show my hand")
        assert shown.message is not None and shown.ephemeral
        assert "Your hand" in shown.message.content and pictures_of(shown.message) == []
        # Other people are answered meanwhile, the text first too.
        other = await fake.click(world.bob, table_message(fake, session), "Show my hand")
        assert other.message is not None and pictures_of(other.message) == []

        drawing.hands.set()
        await until(lambda: pictures_of(shown.message) == ["hand.png"], what="the picture")
        await until(lambda: pictures_of(other.message) == ["hand.png"], what="bob's picture")
        assert "Your hand" in shown.message.content  # the text stays as it was answered
        await wait_settled(bot, session)


async def test_only_a_seats_latest_menu_gets_its_late_picture(fake_world: FakeWorld,
                                                             tmp_path: Path,
                                                             drawing: Drawing) -> None:
    """A picture late for an answer answered anew since is dropped, not sent."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options=QUICK)
        drawing.hands.clear()
        first = await fake.click(world.alice, table_message(fake, session), "Show my hand")
        second = await fake.click(world.alice, table_message(fake, session), "Show my hand")
        assert first.message is not None and second.message is not None
        drawing.hands.set()
        await until(lambda: pictures_of(second.message) == ["hand.png"], what="the picture")
        await hand_pictures(bot).idle()
        assert pictures_of(first.message) == []  # the older menu's picture was dropped


async def test_a_late_table_picture_follows_the_text(fake_world: FakeWorld, tmp_path: Path,
                                                     drawing: Drawing) -> None:
    """The table's edit waits for its picture a moment only (the workers starting, or busy):
    the move shows at once as text, the old picture taken down, and the picture follows."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options=QUICK)
        table = table_message(fake, session)
        assert pictures_of(table) == ["table.png"]
        people = {world.alice.id: world.alice, world.bob.id: world.bob}
        await until(lambda: session.seats[session.to_act() or 0].user_id in people,
                    what="a person's turn")
        await wait_settled(bot, session)
        drawing.tables.clear()  # every table picture now waits for the test
        before = table.text
        person = people[session.seats[session.to_act() or 0].user_id or 0]
        await take_turn(fake, session, person, random.Random(2))  # the table's cards change
        await until(lambda: table.text != before, what="the text edit")
        assert pictures_of(table) == []  # the old picture is not left showing an old table
        drawing.tables.set()
        await until(lambda: pictures_of(table) == ["table.png"], what="the picture")
        await wait_settled(bot, session)
