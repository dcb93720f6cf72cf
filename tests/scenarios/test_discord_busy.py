"""A bot past its capacity sheds clicks explicitly instead of answering them late.

A click that reaches the bot :data:`cogs.clicks.deadline.SHED_AFTER` seconds after Discord
created it (the fake's ``delivery_delay`` makes it so, as a backlog would) is answered at
once, privately, "the table is busy", and nothing changes: no action, no save, no edit.
The same click a moment later, on time, plays. Commands are shed the same way. The
refusal is made where discord.py reads the gateway, before it builds the interaction
(:class:`cogs.clicks.deadline.Gate`), and again in the handler, for one that aged while
it waited its turn (a click's line there is :data:`cogs.clicks.deadline.LANE_LINE`, when
its turn in the lane comes): each is tested alone. And while the event loop is behind, work
that answers nobody waits for it (:class:`bot.load.LoopLoad`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import sys
import time

import pytest

from bot.load import LOAD, LoopLoad
from cogs.clicks import deadline, router
from cogs.clicks.deadline import BUSY, SHED_AFTER
from tests.answers import answered_privately, updated_the_menu
from tests.botdriver import (
    enabled_choices,
    hand_to_act,
    open_table,
    running_bot,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld

WHERE = ["gateway", "handler"]


def discord_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def refused_in(bot, where: str) -> list[int]:
    """Leaves the refusal to ``where`` alone (the gateway's is taken off for the handler's);
    the ids of the interactions discord.py built from then on, kept in the list returned."""
    if where == "handler":
        bot.get_cog("TableCommands").gate.remove()
    built: list[int] = []

    async def on_interaction(interaction) -> None:
        built.append(interaction.id)

    bot.add_listener(on_interaction)
    return built


@pytest.mark.parametrize("where", WHERE)
async def test_a_click_too_late_to_act_on_is_answered_busy_and_changes_nothing(
        fake_world: FakeWorld, tmp_path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch, where: str):
    world, fake = fake_world, fake_world.fake
    monkeypatch.setattr(deadline, "SHEDDING", deadline.Shedding())  # says its first at once
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        built = refused_in(bot, where)
        card, before = enabled_choices(menu)[0], menu.text
        version, stored = session.version, await bot.store.get_table(session.id)
        requests = len(fake.requests)

        # Discord made it this long before: past the gateway's line, or the lane's. The
        # lane's line is drawn nearer for the test (the rule is the same), so that the busy
        # answer has well over a second left before Discord's 3 s even on a busy machine.
        line = SHED_AFTER
        if where == "handler":
            line = SHED_AFTER + 0.2
            monkeypatch.setattr(router, "LANE_LINE", line)
        fake.delivery_delay = line + 0.2
        late = await fake.click(person, menu, card)
        fake.delivery_delay = 0.0

        assert answered_privately(late) and late.text == BUSY, late
        assert late.record.responded_at - late.record.dispatched_at < deadline.DEADLINE
        assert len(fake.requests) == requests + 1  # the busy answer alone: no edit, no ping
        # At the gateway, discord.py never built it; the handler refuses what it built.
        assert (late.record.id in built) == (where == "handler")
        assert session.version == version and menu.text == before
        assert await bot.store.get_table(session.id) == stored
        [said] = [r for r in caplog.records if "answered busy" in r.getMessage()]
        assert said.levelno == logging.WARNING  # the operator is told the bot is behind

        played = await fake.click(person, menu, card)  # on time: it plays
        assert updated_the_menu(played), played
        assert session.version > version and played.record.id in built


@pytest.mark.parametrize("where", WHERE)
async def test_a_command_too_late_to_run_is_answered_busy(fake_world: FakeWorld, tmp_path,
                                                          where: str):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        built = refused_in(bot, where)
        fake.delivery_delay = SHED_AFTER + 0.2
        late = await fake.slash(world.alice, world.table, "play fiasco")
        fake.delivery_delay = 0.0
        assert answered_privately(late) and late.text == BUSY, late
        assert not fake.public_messages(world.table)  # no lobby was opened
        assert (late.record.id in built) == (where == "handler")

        opened = await fake.slash(world.alice, world.table, "play fiasco")
        assert opened.message is not None and not opened.ephemeral, opened


@pytest.mark.parametrize("where", WHERE)
async def test_a_click_past_discords_deadline_is_dropped_unanswered(
        fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch, where: str):
    """Discord refuses any answer after 3 s: the bot sends none, and changes nothing."""
    world, fake = fake_world, fake_world.fake
    shedding = deadline.Shedding()
    monkeypatch.setattr(deadline, "SHEDDING", shedding)
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        built = refused_in(bot, where)
        card, requests = enabled_choices(menu)[0], len(fake.requests)
        actions = len(session.table.record["actions"])

        fake.delivery_delay = deadline.DEADLINE + 0.5
        dropped = await fake.click(person, menu, card, wait=False)
        fake.delivery_delay = 0.0
        await until(lambda: shedding.count == 1, 10, "the click refused")

        # The refused click was read before the next one, which plays: the first is
        # still unanswered then, and nothing but the second's answer was sent.
        played = await fake.click(person, menu, card)
        assert updated_the_menu(played), played
        assert not dropped.record.answered.is_set()
        assert (dropped.record.id in built) == (where == "handler")
        assert len(session.table.record["actions"]) == actions + 1  # the second click's
        assert len([r for r in fake.requests[requests:] if "/callback" in r.path]) == 1


async def test_background_work_waits_while_the_loop_is_behind_and_goes_once_it_is_not():
    load = LoopLoad(interval=0.01, behind=0.1)
    assert not load.behind  # not watching: nothing ever waits
    await load.calm()
    backlog = True

    async def saturate() -> None:
        """Holds the loop 0.15 s at a time, giving it back only between: a saturated bot."""
        while backlog:
            time.sleep(0.15)
            await asyncio.sleep(0)

    load.start()
    holding = asyncio.create_task(saturate())
    try:
        await until(lambda: load.behind, 10, "the watcher sees the loop behind")
        edit = asyncio.create_task(load.calm(at_most=60.0))  # a table edit, say
        await until(lambda: load.waits == 1, 10, "the edit waits")
        seen = load.samples
        await until(lambda: load.samples >= seen + 3, 10, "three more looks at the loop")
        assert not edit.done()  # still held back while the loop stays behind
        backlog = False
        await holding
        await asyncio.wait_for(edit, 10)  # the loop caught up: the edit goes
        assert load.peak >= 0.1
    finally:
        backlog = False
        load.stop()
    assert not load.behind  # stopped: nothing waits any more


async def test_while_the_loop_is_behind_the_click_is_answered_and_the_rest_waits(
        fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch):
    """The priority lane: a click's answer goes at once; the table's edit and the computer's
    move wait for the loop (here, until the test says it caught up)."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, computer_delay=0) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco", computers=1)
        alice = next(i for i, s in enumerate(session.seats) if s.user_id == world.alice.id)
        await until(lambda: session.to_act() == alice, 20, "alice's turn")
        await wait_settled(bot, session)
        caught_up, waiting = asyncio.Event(), []

        async def behind(at_most: float = 0.0) -> None:
            waiting.append(sys._getframe(1).f_code.co_qualname)  # who waits
            await caught_up.wait()

        monkeypatch.setattr(LOAD, "calm", behind)
        table = table_message(fake, session)
        shown, version = table.text, session.version

        answer = await take_turn(fake, session, world.alice, random.Random(1))

        assert updated_the_menu(answer), answer  # answered at once, with the move made
        moved = session.version
        assert moved > version and session.to_act() != alice
        await until(lambda: {"Publisher._run", "ComputerTurns.play"} <= set(waiting), 20,
                    "the table's edit and the computer's move wait")
        assert table.text == shown  # the table message waits for the loop
        assert session.version == moved  # and so does the computer, its move thought of
        caught_up.set()
        await until(lambda: session.version > moved, 20, "the computer's move")
        await until(lambda: table.text != shown, 10, "the table's edit")


def test_the_gate_leaves_to_discord_py_what_it_cannot_judge(monkeypatch: pytest.MonkeyPatch):
    """A payload without a readable id, an autocomplete and a modal go on untouched, however
    old; only a late command or click is refused (here past the deadline: no answer task)."""
    from types import SimpleNamespace

    from discord.utils import time_snowflake

    monkeypatch.setattr(deadline, "SHEDDING", deadline.Shedding())
    passed: list[object] = []
    client = SimpleNamespace(_connection=SimpleNamespace(
        parsers={"INTERACTION_CREATE": passed.append}))
    gate = deadline.Gate(client)  # type: ignore[arg-type]
    gate.install()
    gate.install()  # once only: a second install does not wrap the gate in itself
    old = time_snowflake(discord_now() - dt.timedelta(seconds=deadline.DEADLINE + 5))
    payloads = [{"type": 3}, {"type": 3, "id": "not a number"}, {"type": 3, "id": None},
                {"type": 3, "id": str(old)}, {"type": 3, "id": str(old), "token": 5},
                {"type": 3, "id": "-1", "token": "t"},
                {"type": 4, "id": str(old)}, {"type": 5, "id": str(old)},
                {"type": 3, "id": str(time_snowflake(discord_now()))}]
    for payload in payloads:
        client._connection.parsers["INTERACTION_CREATE"](payload)
    assert passed == payloads and deadline.SHEDDING.count == 0
    client._connection.parsers["INTERACTION_CREATE"]({"type": 3, "id": str(old), "token": "t"})
    client._connection.parsers["INTERACTION_CREATE"]({"type": 2, "id": str(old), "token": "t"})
    assert len(passed) == len(payloads) and deadline.SHEDDING.count == 2
    gate.remove()
    assert client._connection.parsers["INTERACTION_CREATE"] == passed.append


@pytest.mark.parametrize("failure", ["refused", "unreachable"])
async def test_a_busy_answer_that_cannot_be_delivered_is_logged_not_raised(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, failure: str):
    """Discord refusing the busy answer, or the connection failing, leaves a log line, never
    an exception in the task that sent it."""
    from types import SimpleNamespace

    import aiohttp
    import discord
    from discord.webhook.async_ import async_context

    class Response:
        status, reason = 404, "Not Found"

    async def create_interaction_response(*args, **kwargs):
        if failure == "refused":
            raise discord.NotFound(Response(), {"code": 10062, "message": "Unknown interaction"})
        raise aiohttp.ClientConnectionError("connection reset")

    monkeypatch.setattr(async_context.get(), "create_interaction_response",
                        create_interaction_response)
    http = SimpleNamespace(_HTTPClient__session=None, proxy=None, proxy_auth=None)
    gate = deadline.Gate(SimpleNamespace(http=http))  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO, logger=deadline.__name__):
        await gate._busy(1, "token", 1.5)
    assert any("busy answer was not delivered" in r.getMessage() for r in caplog.records)
