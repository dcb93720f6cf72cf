"""Every click is acknowledged within Discord's deadline, however long its action waits.

A card click waits for the session's lock and for its action to be saved before the
menu shows the result. When that takes longer than :data:`cogs.clicks.deadline.ANSWER_BUDGET`
the click is deferred at once and the menu edited when the action is done: the person
never sees "This interaction failed", and the action is applied and saved all the same.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from cogs.clicks import deadline
from tests.answers import deferred, updated_the_menu
from tests.botdriver import (
    enabled_choices,
    hand_to_act,
    open_table,
    running_bot,
    table_message,
    until,
)
from tests.fakediscord.fixtures import FakeWorld


async def test_a_click_whose_save_is_slow_is_deferred_then_shows_its_result(
        fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch):
    world, fake = fake_world, fake_world.fake
    monkeypatch.setattr(deadline, "ANSWER_BUDGET", 0.1)
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        save = bot.store.append_action
        saving, saved = asyncio.Event(), asyncio.Event()

        async def slow_save(*args: Any, **kwargs: Any) -> Any:
            await saving.wait()  # as long as the test says: the answer cannot wait for it
            try:
                return await save(*args, **kwargs)
            finally:
                saved.set()

        monkeypatch.setattr(bot.store, "append_action", slow_save)
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        actions = len(session.game.record().actions)
        before = menu.text
        try:
            clicked = await fake.click(person, menu, enabled_choices(menu)[0])

            assert deferred(clicked), clicked
            assert not saved.is_set()  # acknowledged while the save still waited
        finally:
            saving.set()
        await fake.wait_for(lambda: menu.text != before, 10)
        assert saved.is_set()
        assert len(session.game.record().actions) == actions + 1
        assert "out of date" not in menu.text and "failed" not in menu.text.lower()
        stored = await bot.store.get_table(session.id)
        assert stored is not None
        assert stored.record["actions"] == session.game.record().actions


async def test_a_quick_click_is_answered_with_the_menu_itself(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        requests = len(fake.requests)

        clicked = await fake.click(person, menu, enabled_choices(menu)[0])

        assert updated_the_menu(clicked), clicked

        token = clicked.record.token
        answers = [r for r in fake.requests[requests:]
                   if f"/{clicked.id}/" in r.path or token in r.path]
        assert len(answers) == 1, [r.path for r in answers]  # no defer, no later edit
        assert "with_response" not in answers[0].query  # nothing asked back to be parsed


async def test_a_move_whose_answer_discord_refused_is_confirmed_in_the_next_menu(
        fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture):
    world, fake = fake_world, fake_world.fake
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr(deadline, "ANSWER_BUDGET", 60.0)  # never defer: the answer is late
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        actions = len(session.game.record().actions)

        fake.response_deadline = 0.0  # Discord gives up on this click before the bot answers
        late = await fake.click(person, menu, enabled_choices(menu)[0])
        fake.response_deadline = 3.0
        assert late.response_type is None and late.error_codes == [10062], late
        assert [v.kind for v in fake.take_violations("late_response")] == ["late_response"]
        assert len(session.game.record().actions) == actions + 1  # played all the same
        # Logged in one line: a traceback per late answer costs more than the click.
        def late_logs() -> list[logging.LogRecord]:
            return [r for r in caplog.records if "after Discord's deadline" in r.getMessage()]
        await until(lambda: bool(late_logs()), what="the late answer logged")
        [late_log] = late_logs()
        assert late_log.exc_info is None and late_log.levelno == logging.WARNING

        again = await fake.click(person, table_message(fake, session), "Show my hand")
        assert "your last move went through" in again.text, again.text
        once_more = await fake.click(person, table_message(fake, session), "Show my hand")
        assert "went through" not in once_more.text  # said once
