"""The bot as a real process (``python -m bot``) against the fake Discord: SIGKILL and SIGTERM.

The fake runs in this test process; the bot runs in a subprocess through
``tests.run_bot_against_fake``, which points discord.py at the fake and then calls
``bot.__main__.main()``. An action whose interaction the fake saw acknowledged
is in the database even when the process is killed right after; a new process
on the same database resumes the table; SIGTERM stops the bot promptly with
exit status 0 and a sound database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.models import StoredTable, TableStatus
from bot.store import SqliteStore
from cogs import ids
from tests.botdriver import enabled_choices
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0


@asynccontextmanager
async def bot_process(fake: FakeDiscord, tmp_path: Path,
                      name: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """``python -m bot`` (through the test runner) connected to ``fake``; killed if left running."""
    env = {**os.environ, "DISCORD_TOKEN": fake.token,
           "DATABASE_PATH": str(tmp_path / "fivefold.db"), "COMPUTER_DELAY": "0",
           "TURN_TIMEOUT": "0", "DEV_GUILD_ID": "", "LOG_LEVEL": "INFO",
           "PYTHONPATH": str(ROOT)}
    identified = fake.identify_count
    with open(tmp_path / f"{name}.log", "wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.run_bot_against_fake", str(fake.port),
            cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        def ready() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"the bot exited with {proc.returncode}: "
                                     f"{(tmp_path / f'{name}.log').read_text()}")
            session = fake.session
            # READY and every GUILD_CREATE sent on this process's connection.
            return (fake.identify_count > identified and fake.connected
                    and session is not None and session.seq >= 1 + len(fake.guilds))

        await fake.wait_for(ready, START_TIMEOUT)
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)


async def stored_tables(tmp_path: Path) -> list[StoredTable]:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        return await store.open_tables()
    finally:
        await store.close()


async def until_enabled(fake: FakeDiscord, message: StoredMessage, label: str) -> None:
    def enabled() -> bool:
        return any(b.label == label and not b.disabled for b in message.buttons)
    await fake.wait_for(enabled, 5)


async def move(fake: FakeDiscord, table: StoredMessage,
               people: list[FakeUser]) -> tuple[FakeUser, str]:
    """Whoever has a move opens their hand and clicks its first choice; (who, custom id).

    Returns once the fake saw the click acknowledged (the menu updated, type 7).
    """
    for user in people:
        shown = await fake.click(user, table, "Show my hand")
        assert shown.ephemeral and shown.message is not None, shown
        choices = enabled_choices(shown.message)
        if choices:
            result = await fake.click(user, shown.message, choices[0])
            assert result.response_type == 7 and result.record.acknowledged, result
            return user, choices[0]
    raise AssertionError("nobody has a move")


def in_words(custom_id: str) -> str:
    """The part of a hand-menu custom id that the record's action line holds."""
    parts = custom_id.split(":")
    return parts[4] if parts[2] == "c" else ids.action_text(parts[4])


async def test_an_acknowledged_action_survives_sigkill_and_sigterm_stops_cleanly(
    fake_world: FakeWorld, tmp_path: Path
):
    world, fake = fake_world, fake_world.fake
    people = [world.alice, world.bob]
    started = time.monotonic()

    async with bot_process(fake, tmp_path, "first") as proc:
        opened = await fake.slash(world.alice, world.table, "play fiasco")
        table = opened.message
        assert table is not None and not opened.ephemeral, opened
        await fake.click(world.bob, table, "Join")
        await until_enabled(fake, table, "Start")
        await fake.click(world.alice, table, "Start")
        await until_enabled(fake, table, "Show my hand")
        for _ in range(2):
            await move(fake, table, people)
        who, clicked = await move(fake, table, people)
        proc.send_signal(signal.SIGKILL)  # at once: the acknowledged action must be saved
        await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
        assert proc.returncode == -signal.SIGKILL

    [saved] = await stored_tables(tmp_path)
    assert saved.status is TableStatus.PLAYING and saved.message_id == table.id
    actions = saved.record["actions"]
    seat = next(i for i, s in enumerate(saved.seats) if s.user_id == who.id)
    assert len(actions) == 3
    assert actions[-1].startswith(f"{seat} ") and in_words(clicked) in actions[-1], actions

    requests = len(fake.requests)
    async with bot_process(fake, tmp_path, "second") as proc:
        # The resumed table re-renders its message, the one posted before the kill.
        await fake.wait_for(lambda: any(
            r.method == "PATCH" and r.path.endswith(f"/messages/{table.id}")
            for r in fake.requests[requests:]), 5)
        who_next, _ = await move(fake, table, people)
        stopping = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
        assert proc.returncode == 0, (tmp_path / "second.log").read_text()
        assert time.monotonic() - stopping < 5
    assert "Traceback" not in (tmp_path / "second.log").read_text()

    with contextlib.closing(sqlite3.connect(tmp_path / "fivefold.db")) as conn:
        [[check]] = conn.execute("PRAGMA integrity_check").fetchall()
    assert check == "ok"
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        [saved] = await store.open_tables()
    finally:
        await store.close()
    assert saved.record["actions"][:3] == actions and len(saved.record["actions"]) == 4
    assert saved.record["actions"][-1].startswith(
        f"{next(i for i, s in enumerate(saved.seats) if s.user_id == who_next.id)} ")
    assert time.monotonic() - started < 30
