"""Log lines about a table name it: text and JSON, the bot's lines and discord.py's."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from pathlib import Path

import pytest

from bot.logs import TABLE, JsonFormatter, TableFilter, about_table, handler, table_of
from bot.settings import Settings
from bot.tables.session import Session
from tests.botdriver import open_table, running_bot, take_turn, until, wait_settled
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
