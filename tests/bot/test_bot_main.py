"""Starting and stopping the bot: settings, a missing or rejected token, SIGTERM."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import discord
import pytest
import uvloop

from bot.__main__ import event_loop, run
from bot.__main__ import log as main_log
from bot.app import FivefoldBot, create_bot, intents
from bot.settings import Settings
from tests.botdriver import settings_for, until
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_token_prints_one_line_on_how_to_get_one(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "", "DATABASE_PATH": str(tmp_path / "x.db"),
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "DISCORD_TOKEN" in lines[0] and "Reset Token" in lines[0]
    assert "Traceback" not in done.stderr + done.stdout


def test_help_says_what_the_bot_does_and_starts_nothing(capsys):
    from bot.__main__ import main

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m bot") and "migrate-db" in out


def test_the_bot_runs_on_uvloop_where_it_is_installed_and_says_which_loop(monkeypatch):
    factory, name = event_loop()
    assert factory is uvloop.new_event_loop and name.startswith("uvloop 0."), name
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it does not install
    factory, name = event_loop()
    assert factory is None and name == "asyncio's standard loop (uvloop is not installed here)"


def test_settings_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DEV_GUILD_ID", "1234")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("COMPUTER_DELAY", "0.5")
    settings = Settings()
    assert settings.token == "abc" and settings.dev_guild_id == 1234
    assert settings.log_level == "DEBUG" and settings.computer_delay == 0.5
    assert settings.database_path == "fivefold.db" and settings.turn_timeout == 120  # 2m on
    assert settings.timezone == "UTC"


def test_the_bot_asks_for_no_privileged_intent():
    wanted = intents()
    assert wanted.guilds
    assert not (wanted.message_content or wanted.members or wanted.presences)


async def test_a_rejected_token_exits_with_one_line(tmp_path, capsys):
    async with FakeDiscord(token="the-real-token") as fake:
        fake.add_guild()
        settings = settings_for(tmp_path, discord_token="a-wrong-token")
        assert await run(settings) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rejected the token" in err[0]


async def test_sigterm_closes_the_bot_cleanly(tmp_path):
    async with FakeDiscord() as fake:
        fake.add_guild()
        settings = settings_for(tmp_path)
        bot = create_bot(settings, guild_ready_timeout=0.05)
        task = asyncio.create_task(run(settings, bot=bot))
        await until(bot.is_ready, 10, "the bot to be ready")
        os.kill(os.getpid(), signal.SIGTERM)
        assert await asyncio.wait_for(task, 10) == 0
        assert bot.is_closed()


async def test_python_m_bot_freezes_what_is_alive_once_ready(tmp_path, caplog):
    # ``python -m bot`` (tune_gc) waits for the bot to be ready, then moves everything
    # alive out of the collector's walks. It once asked before discord.py had set the bot
    # up, so the wait raised and nothing was ever frozen, silently.
    assert gc.get_freeze_count() == 0
    caplog.set_level(logging.INFO, logger=main_log.name)
    try:
        async with FakeDiscord() as fake:
            fake.add_guild()
            settings = settings_for(tmp_path)
            bot = create_bot(settings, guild_ready_timeout=0.05)
            task = asyncio.create_task(run(settings, bot=bot, tune_gc=True))
            await until(lambda: gc.get_freeze_count() > 0, 10, "start-up frozen")
            assert bot.is_ready()
            os.kill(os.getpid(), signal.SIGTERM)
            assert await asyncio.wait_for(task, 10) == 0
    finally:
        gc.unfreeze()
    assert "objects alive after start-up frozen" in caplog.text
    assert "gc-freezer failed" not in caplog.text


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_an_unreachable_discord_exits_with_one_line(tmp_path, capsys, monkeypatch):
    port = free_port()  # nothing listens there
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    assert await run(settings_for(tmp_path)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach Discord" in err[0], err


async def test_a_database_that_cannot_be_opened_exits_with_one_line(tmp_path, capsys):
    async with FakeDiscord() as fake:
        fake.add_guild()
        blocker = tmp_path / "not-a-folder"
        blocker.write_text("a file where the database's folder should be")
        settings = settings_for(tmp_path, database_path=str(blocker / "x.db"))
        assert await run(settings) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot use the database" in err[0], err


@pytest.mark.parametrize(("given", "shown"), [
    ("fivefold:hunter2@127.0.0.1:{port}/fivefold", "fivefold:***@127.0.0.1:{port}/fivefold"),
    ("fivefold@127.0.0.1:{port}/fivefold?password=hunter2",
     "fivefold@127.0.0.1:{port}/fivefold?password=***"),
])
async def test_an_unreachable_postgresql_server_exits_with_one_line(tmp_path, capsys, given,
                                                                    shown):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with FakeDiscord() as fake:
        fake.add_guild()
        settings = settings_for(
            tmp_path, database_url="postgresql://" + given.format(port=port))
        assert await run(settings) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"cannot use the database postgresql://{shown.format(port=port)}: " \
           "cannot connect" in err[0]
    assert "hunter2" not in err[0]


def test_create_bot_builds_the_bot_and_does_not_start_it(tmp_path):
    built = create_bot(settings_for(tmp_path))
    assert isinstance(built, FivefoldBot)
    assert not built.is_ready() and not built.is_closed()


async def test_the_bot_says_once_when_ready_who_it_is_where_and_how_to_invite_it(
    fake_world, tmp_path, caplog
):
    import logging
    import urllib.parse

    from bot.app import INVITE_PERMISSIONS
    from tests.botdriver import running_bot

    fake = fake_world.fake
    caplog.set_level(logging.INFO, logger="bot.app")
    async with running_bot(fake, tmp_path) as bot:
        await until(lambda: any("is ready" in r.getMessage() for r in caplog.records),
                    what="the ready line")
        await bot.on_ready()  # as discord.py calls it again after a reconnect
        commands = len(fake.commands[None])
    [line] = [r.getMessage() for r in caplog.records if "is ready" in r.getMessage()]
    assert line.startswith(f"Fivefold (id {fake.application_id}) is ready: 1 server(s), "
                           f"0 table(s) resumed, {commands} command(s) synced globally, "
                           f"database {tmp_path}"), line
    url = urllib.parse.urlsplit(line.rpartition("Invite it: ")[2])
    query = urllib.parse.parse_qs(url.query)
    assert query["client_id"] == [str(fake.application_id)]
    assert query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == INVITE_PERMISSIONS
    assert granted.view_channel and granted.send_messages_in_threads and granted.attach_files
    assert not granted.administrator and not granted.manage_messages


async def test_a_connected_bot_keeps_its_heartbeat_fresh_for_the_health_check(
    fake_world, tmp_path, monkeypatch
):
    from bot import health
    from tests.botdriver import running_bot

    alive = tmp_path / "alive"
    monkeypatch.setenv("HEALTH_FILE", str(alive))
    assert health.main() == 1  # not connected yet: no heartbeat
    async with running_bot(fake_world.fake, tmp_path, health_file=str(alive)):
        await until(alive.exists, what="the first heartbeat")
        assert health.main() == 0
    assert health.check(alive) is None
    old = alive.stat().st_mtime
    assert health.check(alive, now=old + health.STALE_SECONDS + 1) is not None
    monkeypatch.delenv("HEALTH_FILE")
    assert health.main() == 1


def test_the_health_check_says_why_in_one_line(tmp_path, monkeypatch, capsys):
    from bot import health

    monkeypatch.setenv("HEALTH_FILE", str(tmp_path / "alive"))
    assert health.main() == 1
    assert capsys.readouterr().err.splitlines() == [
        f"health: no heartbeat at {tmp_path / 'alive'}: the bot has not connected to Discord yet"]
    (tmp_path / "alive").touch()
    assert health.main() == 0 and capsys.readouterr().err == ""


def test_the_invite_asks_for_exactly_what_play_and_daily_check_for():
    from bot.app import INVITE_PERMISSIONS
    from cogs.upkeep.permissions import IN_THREADS, NEEDED, NEW_THREAD, PRIVATE_THREAD

    wanted = discord.Permissions(**dict.fromkeys(
        NEEDED | IN_THREADS | NEW_THREAD | PRIVATE_THREAD, True))
    assert wanted == INVITE_PERMISSIONS
