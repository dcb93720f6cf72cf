"""Log lines about a table name it: text and JSON, the bot's lines and discord.py's."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
from pathlib import Path

import pytest

from bot.logs import (
    TABLE,
    JsonFormatter,
    TableFilter,
    about_table,
    handler,
    hide_secrets,
    table_of,
)
from bot.settings import Settings
from bot.tables.session import Session
from tests.botdriver import (
    open_table,
    running_bot,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld


def record(message: str) -> logging.LogRecord:
    made = logging.LogRecord("bot.test", logging.WARNING, __file__, 1, message, None, None)
    TableFilter().filter(made)
    return made


def test_a_line_inside_a_tables_work_names_it_in_text_and_json() -> None:
    with about_table("ab12cd34ef"):
        inside = record("the edit failed")
    outside = record("the bot is ready")
    text = handler("text").formatter
    assert text is not None
    assert "WARNING bot.test: [table ab12cd34ef] the edit failed" in text.format(inside)
    assert "bot.test: the bot is ready" in text.format(outside)
    line = json.loads(JsonFormatter().format(inside))
    assert line["table"] == "ab12cd34ef" and line["message"] == "the edit failed"
    assert line["level"] == "WARNING" and line["logger"] == "bot.test"
    assert "table" not in json.loads(JsonFormatter().format(outside))
    assert TABLE.get() is None


async def test_each_task_keeps_its_own_table() -> None:
    async def work(table: str) -> str | None:
        with about_table(table):
            await asyncio.sleep(0.01)
            return table_of(record("working"))

    assert await asyncio.gather(work("first"), work("second")) == ["first", "second"]


def test_log_format_is_text_or_json() -> None:
    assert Settings(_env_file=None, log_format=" JSON ").log_format == "json"  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="log_format"):
        Settings(_env_file=None, log_format="xml")  # type: ignore[call-arg]


async def test_the_bots_and_discord_pys_lines_about_a_table_name_it(
    fake_world: FakeWorld, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    world, fake = fake_world, fake_world.fake
    caplog.handler.addFilter(TableFilter())
    caplog.set_level(logging.INFO)
    async with running_bot(fake, tmp_path) as bot:
        tables: list[Session] = []
        for host, channel in ((world.alice, world.table), (world.bob, world.lobby)):
            session = await open_table(fake, bot, host, channel, "fumblaroo", computers=2,
                                       options={"target": 5})
            fake.rate_limit("PATCH", f"/channels/{channel.id}/messages/"
                            f"{session.table.message_id}", retry_after=0.05)
            tables.append(session)
        rng = random.Random(1)
        for session, user in zip(tables, (world.alice, world.bob), strict=True):
            await take_turn(fake, session, user, rng)
        await until(lambda: all(f.spent for f in fake.faults.faults), what="both rate-limited")
        for session in tables:
            await wait_settled(bot, session)
        status = await fake.slash(world.carol, world.table, "status", {})
        assert f"`[table {tables[0].id}]`" in status.text  # how an admin finds its lines
        await fake.delete_channel(world.lobby)  # closed from the gateway's event
        await until(lambda: not tables[1].is_open, what="the table of the deleted channel")
    limited = [r for r in caplog.records if "rate limited" in r.getMessage()
               and r.name == "discord.http"]
    assert len(limited) == 2
    for line in limited:  # discord.py's own warning names the table whose edit it held
        table = next(s for s in tables if f"/channels/{s.channel_id}/" in line.getMessage())
        assert table_of(line) == table.id
    [closed] = [r for r in caplog.records if r.name == "bot.tables.changes"
                and "closed: the channel was deleted" in r.getMessage()]
    assert table_of(closed) == tables[1].id


def test_every_form_of_database_password_and_token_is_hidden() -> None:
    for line in ("postgresql://ana@db/x?password=hunter2",
                 "postgresql://ana@db/x?sslmode=require&password=hunter2&sslpassword=hunter2",
                 "postgresql://ana:hunter2@db/x",
                 "cannot connect to postgresql://db/x?PASSWORD=hunter2: refused"):
        assert "hunter2" not in hide_secrets(line), line
    assert hide_secrets("postgresql://ana@db/x?sslmode=require") == \
        "postgresql://ana@db/x?sslmode=require"
    url = "https://discord.com/api/v10/interactions/12/aW50.secret-token_x/callback"
    assert hide_secrets(url) == "https://discord.com/api/v10/interactions/12/***/callback"
    assert "secret" not in hide_secrets("{'id': '1', 'token': 'secret', 'type': 3}")
    assert "fake-bot-token" not in hide_secrets("Authorization: Bot fake-bot-token",
                                                ["fake-bot-token"])


async def test_debug_logs_carry_no_interaction_token_no_hand_and_no_password(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """At LOG_LEVEL=DEBUG discord.py logs every request and gateway event: the bot's log
    handler keeps the lines but never a token (whoever has one can read and edit that
    person's hand menu for 15 minutes), a hand, or the database's password."""
    world, fake = fake_world, fake_world.fake
    written = io.StringIO()
    out = handler("text")
    out.setStream(written)
    root, chatty = logging.getLogger(), logging.getLogger("discord")
    old_levels = root.level, chatty.level
    root.addHandler(out)
    root.setLevel(logging.INFO)
    chatty.setLevel(logging.DEBUG)  # discord.py's lines at DEBUG, as with LOG_LEVEL=DEBUG
    try:
        async with running_bot(fake, tmp_path, database_url=(
                "postgresql://fivefold@db.example/fivefold?sslmode=require&password=hunter2"
        )) as bot:
            session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                       people=[world.bob], computers=1,
                                       options={"pictures": False})
            await wait_settled(bot, session)
            seat = session.to_act()
            assert seat is not None
            mover = world.alice if session.seats[seat].user_id == world.alice.id else world.bob
            shown = await fake.click(mover, table_message(fake, session), "Show my hand")
            assert shown.message is not None
            hand_line = next(line for line in shown.message.text.splitlines()
                             if "Your hand" in line)
            await take_turn(fake, session, mover, random.Random(2))
            await wait_settled(bot, session)
            await until(lambda: "is ready" in written.getvalue(), what="the ready line")
    finally:
        root.removeHandler(out)
        root.setLevel(old_levels[0])
        chatty.setLevel(old_levels[1])
    text = written.getvalue()
    assert "WebSocket Event" in text and "/callback" in text  # the lines are there...
    tokens = [record.token for record in fake.interactions.values()]
    assert len(tokens) >= 4
    leaked = [token for token in tokens if token in text or token.split(".", 1)[1] in text]
    assert not leaked  # ...without a token
    assert hand_line not in text and hand_line.partition(": ")[2] not in text
    assert "hunter2" not in text and "fake-bot-token" not in text
    assert "password=***" in text  # the start-up line names the database, hidden
