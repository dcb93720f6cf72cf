"""Clicks take turns in a lane of bounded width, and one that waited too long is refused.

Without a bound, every click the gateway lets in runs at once and the event loop runs a
step of each in turn, so under a burst they are all answered together, late together.
The lane (:attr:`cogs.clicks.handlers.Clicks.lane`, :data:`cogs.clicks.handlers.LANE`
wide) lets that many handlers run at a time; the others wait their turn, first come first
served, and one whose turn comes :data:`cogs.clicks.deadline.LANE_LINE` seconds or more
after Discord made it is answered busy and changes nothing. A hint gives its place up once
it is acknowledged: its search, in a worker, keeps no other click waiting.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from cogs.clicks import deadline, router
from cogs.clicks.deadline import BUSY, Lane
from tests.answers import answered_privately, deferred, updated_the_menu
from tests.botdriver import (
    enabled_choices,
    hand_to_act,
    open_table,
    running_bot,
    table_message,
    until,
)
from tests.fakediscord.fixtures import FakeWorld


class WatchedLane(Lane):
    """A lane that counts the clicks waiting for their turn in it."""

    waiting = 0

    async def acquire(self) -> None:
        self.waiting += 1
        try:
            await super().acquire()
        finally:
            self.waiting -= 1


@dataclass
class Queued:
    """A click waiting for its turn in a lane one place wide, that place taken."""

    session: Any
    person: Any  # the person to act, who clicked
    menu: Any  # the person's hand menu, as it was before the click
    card: str
    lane: WatchedLane
    click: asyncio.Task[Any]  # the click, answered once it has had its turn
    version: int  # the table's version before the click
    stored: Any  # the table's stored record before the click


async def queued_click(fake: Any, bot: Any, world: FakeWorld) -> Queued:
    """A two-person Fiasco table whose person to act clicks a card while the lane is full."""
    session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                               people=[world.bob])
    person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
    lane = bot.get_cog("TableCommands").clicks.lane = WatchedLane(1)
    card, version = enabled_choices(menu)[0], session.version
    stored = await bot.store.get_table(session.id)
    await lane.acquire()  # another click's handler holds the lane's one place
    click = asyncio.create_task(fake.click(person, menu, card))
    await until(lambda: lane.waiting == 1, 10, "the click waits for its turn")
    return Queued(session, person, menu, card, lane, click, version, stored)


async def test_a_click_waits_its_turn_in_the_lane_then_plays(fake_world: FakeWorld,
                                                             tmp_path):
    async with running_bot(fake_world.fake, tmp_path) as bot:
        queued = await queued_click(fake_world.fake, bot, fake_world)
        assert not queued.click.done()
        assert queued.session.version == queued.version  # nothing done yet

        queued.lane.release()  # its turn
        played = await asyncio.wait_for(queued.click, 20)
        assert updated_the_menu(played), played
        assert queued.session.version > queued.version


async def test_a_click_whose_turn_comes_past_the_line_is_answered_busy_and_changes_nothing(
        fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch):
    fake = fake_world.fake
    shedding = deadline.Shedding()
    monkeypatch.setattr(deadline, "SHEDDING", shedding)
    async with running_bot(fake, tmp_path) as bot:
        queued = await queued_click(fake, bot, fake_world)
        session, menu, before = queued.session, queued.menu, queued.menu.text
        requests, line = len(fake.requests), router.LANE_LINE
        # Its wait in the lane has taken it past the line (as a long backlog would).
        monkeypatch.setattr(router, "LANE_LINE", 0.0)
        queued.lane.release()
        late = await asyncio.wait_for(queued.click, 20)

        assert answered_privately(late) and late.text == BUSY, late
        assert shedding.count == 1
        assert len(fake.requests) == requests + 1  # the busy answer alone
        assert session.version == queued.version and menu.text == before
        assert await bot.store.get_table(session.id) == queued.stored

        monkeypatch.setattr(router, "LANE_LINE", line)
        played = await fake.click(queued.person, menu, queued.card)  # on time: it plays
        assert updated_the_menu(played), played
        assert session.version > queued.version


async def test_a_hint_gives_its_place_in_the_lane_up_while_its_search_runs(
        fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"hints": True})
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        other = world.bob if person is world.alice else world.alice
        clicks = bot.get_cog("TableCommands").clicks
        lane = clicks.lane = WatchedLane(1)
        searching, answer = asyncio.Event(), asyncio.Event()
        think = clicks.tables.computers.hint

        async def slow_hint(asked: Any) -> Any:
            searching.set()
            await answer.wait()  # a search that takes its time in the worker
            return await think(asked)

        monkeypatch.setattr(clicks.tables.computers, "hint", slow_hint)
        asked = await fake.click(person, menu, "Hint")
        assert deferred(asked), asked  # acknowledged at once; the search goes on
        await asyncio.wait_for(searching.wait(), 10)

        # The lane is one place wide and the hint is still searching: the next click has
        # its turn all the same.
        shown = await asyncio.wait_for(
            fake.click(other, table_message(fake, session), "Show my hand"), 20)
        assert shown.ephemeral and shown.message is not None, shown
        assert lane.waiting == 0 and "Hint:" not in menu.text

        answer.set()
        await until(lambda: "Hint:" in menu.text, 20, "the hint, once searched")


async def test_a_click_that_steps_out_gives_its_place_back_once() -> None:
    from types import SimpleNamespace

    lane, click = Lane(1), SimpleNamespace(id=1)
    async with lane.turn(click):  # type: ignore[arg-type]
        deadline.step_out(SimpleNamespace(id=2))  # type: ignore[arg-type]  # not its place
        assert lane.full()
        deadline.step_out(click)  # type: ignore[arg-type]
        assert not lane.full()
        deadline.step_out(click)  # type: ignore[arg-type]  # again: nothing more
    await lane.acquire()  # the one place, given back once at the step out, not again at the end
    assert lane.full()


async def test_the_lane_holds_as_many_handlers_as_it_is_wide(monkeypatch: pytest.MonkeyPatch):
    """However many clicks come at once, at most LANE handlers run together, and each of
    them runs."""
    from types import SimpleNamespace

    from cogs.clicks import handlers

    monkeypatch.setattr(handlers, "LANE", 3)
    clicks = handlers.Clicks(SimpleNamespace())  # type: ignore[arg-type]
    running, most, gate = 0, 0, asyncio.Event()

    class Probe(router.RoutedButton, template=r"probe:(?P<n>\d+)"):
        async def handle(self, clicks: object, interaction: object) -> None:
            nonlocal running, most
            running += 1
            most = max(most, running)
            await gate.wait()
            running -= 1

    monkeypatch.setattr(router, "clicks_of", lambda interaction: clicks)
    monkeypatch.setattr(router, "shed", _never_shed)
    monkeypatch.setattr(router, "let_go", lambda item, interaction: None)
    items = [Probe(f"probe:{n}", {"n": str(n)}) for n in range(10)]
    tasks = [asyncio.create_task(item.callback(SimpleNamespace(id=n)))
             for n, item in enumerate(items)]
    await until(lambda: running == 3, 10, "the lane full")
    assert most == 3 and not any(task.done() for task in tasks)
    assert clicks.lane.clicks == 10  # three handled, seven waiting: what tests wait out
    gate.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert most == 3 and running == 0 and clicks.lane.clicks == 0


async def _never_shed(interaction: object, line: float = 0.0) -> bool:
    return False
