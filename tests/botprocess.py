"""The bot as a real process (``python -m bot``) against the fake Discord, and moves by people.

The fake runs in the test process; each bot runs in a subprocess through
``tests.run_bot_against_fake``, which points discord.py at the fake and then calls
``bot.__main__.main()``. Used by ``tests/bot/test_bot_process.py`` (one process, SIGKILL
and SIGTERM) and ``tests/bot/test_bot_shards.py`` (two processes splitting the shards).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from tests.answers import updated_the_menu
from tests.botdriver import enabled_choices
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.gateway import GatewaySession
from tests.fakediscord.shards import holds
from tests.fakediscord.world import FakeUser

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 60.0
"""How long a bot process may take to connect: a limit, not a wait (it is over as soon as
the bot connects); once seen over 20 s with the machine's load at 5."""
STOP_TIMEOUT = 10.0
CHANGE_TIMEOUT = 30.0
"""How long a message may take to show a change: the bots run in processes of their own,
which a busy machine (CI shares its cores) can hold up for seconds."""


def bot_env(fake: FakeDiscord, tmp_path: Path, extra: Mapping[str, str] = {}) -> dict[str, str]:
    """The environment of a bot process: the fake's token, a database in ``tmp_path``."""
    return {**os.environ, "DISCORD_TOKEN": fake.token,
            "DATABASE_PATH": str(tmp_path / "fivefold.db"), "DATABASE_URL": "",
            "COMPUTER_DELAY": "0", "TURN_TIMEOUT": "0", "DEV_GUILD_ID": "",
            "LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT), **extra}


def shard_ready(fake: FakeDiscord, shard: tuple[int, int] | None,
                before: GatewaySession | None) -> Callable[[], bool]:
    """Whether a session newer than ``before`` for ``shard`` (None: unsharded, the last one)
    is connected and has been sent READY and a GUILD_CREATE for each of its guilds."""
    def ready() -> bool:
        session = fake.session if shard is None else fake.sessions.get(shard)
        if session is None or session is before or session.connection is None:
            return False
        guilds = sum(1 for g in fake.guilds.values() if holds(session, g.id))
        return session.seq >= 1 + guilds
    return ready


@asynccontextmanager
async def bot_process(fake: FakeDiscord, tmp_path: Path, name: str, *,
                      env: Mapping[str, str] = {},
                      shard: tuple[int, int] | None = None,
                      ) -> AsyncIterator[asyncio.subprocess.Process]:
    """``python -m bot`` (through the test runner) connected to ``fake``; killed if left running.

    ``env`` adds settings (``SHARD_COUNT``, ``SHARD_IDS``, ``DATABASE_URL``); ``shard``
    says which shard's session to wait for, when the process connects one.
    Its output goes to ``tmp_path / f"{name}.log"``.
    """
    before = fake.session if shard is None else fake.sessions.get(shard)
    log_path = tmp_path / f"{name}.log"
    with open(log_path, "wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.run_bot_against_fake", str(fake.port),
            cwd=tmp_path, env=bot_env(fake, tmp_path, env), stdin=asyncio.subprocess.DEVNULL,
            stdout=log, stderr=log)
    try:
        connected = shard_ready(fake, shard, before)

        def ready() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"the bot exited with {proc.returncode}: "
                                     f"{log_path.read_text()}")
            return connected()

        await fake.wait_for(ready, START_TIMEOUT)
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now: its fork server and resource tracker, and the
    computer and picture workers under the fork server."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue  # ended while we looked
            parents[int(entry)] = int(stat.rpartition(")")[2].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has: only its exit status
    waits for whoever adopted it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def command(pid: int) -> str:
    """``pid``'s command line, shortened ("" once it has ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:160].decode()
    except OSError:
        return ""


async def kill_leaving_nothing(fake: FakeDiscord, proc: asyncio.subprocess.Process) -> set[int]:
    """SIGKILL the bot ``proc``, then wait until every process it had started has ended
    too (AssertionError naming those left behind); the processes it had, bot aside."""
    family = descendants(proc.pid)
    proc.send_signal(signal.SIGKILL)
    await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
    try:
        await fake.wait_for(lambda: not any(running(pid) for pid in family), STOP_TIMEOUT,
                            poll=0.05)
    except TimeoutError:
        left = {pid: command(pid) for pid in family if running(pid)}
        raise AssertionError(f"the killed bot left processes behind: {left}") from None
    return family


async def until_enabled(fake: FakeDiscord, message: StoredMessage, label: str) -> None:
    def enabled() -> bool:
        return any(b.label == label and not b.disabled for b in message.buttons)
    await fake.wait_for(enabled, CHANGE_TIMEOUT)


async def try_move(fake: FakeDiscord, table: StoredMessage,
                   people: list[FakeUser]) -> tuple[FakeUser, str] | None:
    """Whoever has a move opens their hand and clicks its first choice; (who, custom id).

    Returns once the fake saw the click acknowledged (the menu updated);
    None when nobody has a move (the game is over, or the table is not playing).
    """
    for user in people:
        if not any(b.label == "Show my hand" and not b.disabled for b in table.buttons):
            return None  # the game ended (the table message no longer offers hands)
        shown = await fake.click(user, table, "Show my hand")
        assert shown.ephemeral and shown.message is not None, shown
        choices = enabled_choices(shown.message)
        if choices:
            result = await fake.click(user, shown.message, choices[0])
            assert updated_the_menu(result), result
            return user, choices[0]
    return None


async def move(fake: FakeDiscord, table: StoredMessage,
               people: list[FakeUser]) -> tuple[FakeUser, str]:
    """:func:`try_move`, when someone must have a move."""
    moved = await try_move(fake, table, people)
    if moved is None:
        raise AssertionError("nobody has a move")
    return moved


__all__ = ["STOP_TIMEOUT", "bot_env", "bot_process", "descendants", "kill_leaving_nothing",
           "move", "running", "shard_ready", "try_move", "until_enabled"]
