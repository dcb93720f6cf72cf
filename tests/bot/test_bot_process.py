"""The bot as a real process (``python -m bot``) against the fake Discord: SIGKILL and SIGTERM.

The fake runs in this test process; the bot runs in a subprocess through
``tests.run_bot_against_fake``, which points discord.py at the fake and then calls
``bot.__main__.main()``. An action whose interaction the fake saw acknowledged
is in the database even when the process is killed right after, and the killed bot's
worker processes end with it; a new process
on the same database resumes the table; SIGTERM stops the bot, by itself, with
exit status 0 and a sound database.

No bound here depends on the machine's speed: each wait is for something to happen, and
its limit only keeps a broken bot from hanging the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
from pathlib import Path

from bot.models import StoredTable, TableStatus
from bot.store.sqlite.store import SqliteStore
from tests.botprocess import (
    CHANGE_TIMEOUT,
    bot_process,
    command,
    descendants,
    kill_leaving_nothing,
    move,
    until_enabled,
)
from tests.custom_ids import move_words
from tests.fakediscord.fixtures import FakeWorld

SHUTDOWN_LIMIT = 60.0
"""How long SIGTERM may take to stop the bot: a limit that fails a bot which does not stop
(it would run on until killed), never a measure of how fast it stops."""


async def stored_tables(tmp_path: Path) -> list[StoredTable]:
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        return await store.open_tables()
    finally:
        await store.close()


async def test_an_acknowledged_action_survives_sigkill_and_sigterm_stops_cleanly(
    fake_world: FakeWorld, tmp_path: Path
):
    world, fake = fake_world, fake_world.fake
    people = [world.alice, world.bob]

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
        # The picture workers start beside the bot, in their own time: once they have
        # (a fork server, its resource tracker, a worker at least), the test goes on.
        await fake.wait_for(lambda: len(descendants(proc.pid)) >= 3, CHANGE_TIMEOUT,
                            poll=0.05)
        commands = {pid: command(pid) for pid in descendants(proc.pid)}
        who, clicked = await move(fake, table, people)
        # At once: the acknowledged action must be saved, and the picture workers drawing
        # the hands (under their fork server) must end with the bot, not stay as orphans.
        family = await kill_leaving_nothing(fake, proc)
        assert proc.returncode == -signal.SIGKILL
        assert any("forkserver" in line for line in commands.values()), commands
        assert len(family) >= 3, commands  # the fork server and its workers at least
    assert "event loop: uvloop" in (tmp_path / "first.log").read_text()

    [saved] = await stored_tables(tmp_path)
    assert saved.status is TableStatus.PLAYING and saved.message_id == table.id
    actions = saved.record["actions"]
    seat = next(i for i, s in enumerate(saved.seats) if s.user_id == who.id)
    assert len(actions) == 3
    assert actions[-1].startswith(f"{seat} ") and move_words(clicked) in actions[-1], actions

    requests = len(fake.requests)
    async with bot_process(fake, tmp_path, "second") as proc:
        # The resumed table re-renders its message, the one posted before the kill.
        await fake.wait_for(lambda: any(
            r.method == "PATCH" and r.path.endswith(f"/messages/{table.id}")
            for r in fake.requests[requests:]), CHANGE_TIMEOUT)
        who_next, _ = await move(fake, table, people)
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), SHUTDOWN_LIMIT)
        assert proc.returncode == 0, (tmp_path / "second.log").read_text()
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
