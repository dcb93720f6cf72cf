"""Nothing one person can use to flood others: every feature that writes, pings or thinks
is bounded, whoever clicks it and however fast."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.app import FivefoldBot
from bot.models import TableStatus
from tests.answers import answered_privately
from tests.botdriver import (
    answer_text,
    open_table,
    play_to_the_end,
    running_bot,
    table_message,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld


def spy_on_replays(bot: FivefoldBot) -> list[threading.Thread]:
    """The threads in which the bot replays a stored table's record from now on."""
    registry: Any = bot.sessions.registry
    replayed: Callable[..., Any] = registry._replayed
    threads: list[threading.Thread] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return replayed(*args, **kwargs)

    registry._replayed = counting
    return threads


async def test_details_and_rules_of_a_finished_table_never_replay_it_on_the_loop(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """Anyone in the channel may click Details and Rules under a finished table as often as
    they like: what it shows is taken once, and never by replaying its whole record on the
    event loop per click."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
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
