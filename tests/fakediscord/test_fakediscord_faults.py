"""The fake Discord's rate limits and outages, met by discord.py's own HTTP client.

These tests pin what discord.py 2.7 does with each answer, which is what the bot's
publisher builds on (``cogs/upkeep/publisher.py``): it waits out a route or global 429 itself,
retries 500, 502, 504 and 524 itself, and raises ``DiscordServerError`` at once on a 503.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio

from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import MANAGE_THREADS


@pytest_asyncio.fixture
async def client(fake_world: FakeWorld) -> AsyncIterator[discord.Client]:
    """A discord.py client logged in to the fake (REST only, no gateway)."""
    client = discord.Client(intents=discord.Intents.none())
    await client.login(fake_world.fake.token)
    try:
        yield client
    finally:
        await client.close()


async def test_a_route_429_is_waited_out_and_the_request_goes_through(
    fake_world: FakeWorld, client: discord.Client
) -> None:
    fake, channel = fake_world.fake, fake_world.table
    fault = fake.rate_limit("POST", f"/channels/{channel.id}/messages", retry_after=0.2)
    message = await client.get_partial_messageable(channel.id).send("hello")
    assert fake.messages[message.id].content == "hello"
    assert len(fault.hits) == 1 and fault.hits[0].status == 429
    sent = [r for r in fake.requests if r.method == "POST"]
    assert [r.status for r in sent] == [429, 200]


async def test_a_route_429_holds_only_its_own_channel(
    fake_world: FakeWorld, client: discord.Client
) -> None:
    fake, slow, quick = fake_world.fake, fake_world.table, fake_world.lobby
    fake.rate_limit("POST", f"/channels/{slow.id}/messages", retry_after=1.0)
    held = asyncio.create_task(client.get_partial_messageable(slow.id).send("held"))
    await fake.wait_for(lambda: len(fake.faults.answered) == 1)
    await client.get_partial_messageable(quick.id).send("free")
    assert not held.done(), "the other channel's message waited for the rate limit"
    await held
    order = [m.content for m in fake.messages.values()]
    assert order == ["free", "held"]


async def test_a_global_429_holds_every_request_until_it_is_over(
    fake_world: FakeWorld, client: discord.Client, caplog: pytest.LogCaptureFixture
) -> None:
    fake, first, second = fake_world.fake, fake_world.table, fake_world.lobby
    caplog.set_level(logging.WARNING, logger="discord.http")
    fault = fake.rate_limit("POST", f"/channels/{first.id}/messages", retry_after=0.5,
                            is_global=True)
    held = asyncio.create_task(client.get_partial_messageable(first.id).send("first"))
    # Once discord.py has read the 429 (not only once the fake has sent it):
    await fake.wait_for(lambda: any("Global rate limit has been hit" in r.getMessage()
                                    for r in caplog.records))
    await client.get_partial_messageable(second.id).send("second")
    await held
    assert sorted(m.content for m in fake.messages.values()) == ["first", "second"]
    # The second channel's message waited for the global limit: it reached Discord only
    # once the limit was over. (Which of the two goes first after it is discord.py's
    # choice, and Python 3.11 and 3.13 choose differently.)
    [limited] = fault.hits
    [sent] = [r for r in fake.requests
              if r.method == "POST" and r.status == 200 and r.body["content"] == "second"]
    assert sent.at >= limited.at + fault.retry_after
    assert [r.status for r in fake.requests if r.method == "POST"].count(429) == 1


async def test_a_429_without_via_is_a_cloudflare_ban_for_discord_py(
    fake_world: FakeWorld, client: discord.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why every 429 of the fake carries ``Via``: without it discord.py does not wait."""
    from tests.fakediscord import faults

    fake, channel = fake_world.fake, fake_world.table
    monkeypatch.setattr(faults, "VIA", "")
    fake.rate_limit("POST", f"/channels/{channel.id}/messages", retry_after=0.1)
    with pytest.raises(discord.HTTPException) as raised:
        await client.get_partial_messageable(channel.id).send("banned")
    assert raised.value.status == 429


async def test_a_503_is_raised_at_once_and_a_500_is_retried_by_discord_py(
    fake_world: FakeWorld, client: discord.Client
) -> None:
    fake, channel = fake_world.fake, fake_world.table
    messages = re.compile(rf"/channels/{channel.id}/messages")
    unavailable = fake.fail("POST", messages, status=503)
    with pytest.raises(discord.DiscordServerError) as raised:
        await client.get_partial_messageable(channel.id).send("lost")
    assert raised.value.status == 503 and len(unavailable.hits) == 1
    assert not fake.public_messages(channel)
    broken = fake.fail("POST", messages, status=500)
    sent = await client.get_partial_messageable(channel.id).send("kept")
    assert len(broken.hits) == 1 and fake.messages[sent.id].content == "kept"


async def test_a_502_is_cloudflares_page_and_is_retried_too(
    fake_world: FakeWorld, client: discord.Client
) -> None:
    fake, channel = fake_world.fake, fake_world.table
    gateway = fake.fail("POST", f"/channels/{channel.id}/messages", status=502)
    await client.get_partial_messageable(channel.id).send("through")
    assert gateway.spent and [m.content for m in fake.public_messages(channel)] == ["through"]


def test_only_429_and_5xx_are_faults(fake_world: FakeWorld) -> None:
    with pytest.raises(ValueError, match="not 404"):
        fake_world.fake.fail("GET", "/users/@me", status=404)


async def test_an_archived_thread_refuses_edits_until_it_is_unarchived(
    fake_world: FakeWorld, client: discord.Client
) -> None:
    fake = fake_world.fake
    thread = await fake.add_thread(fake_world.table, "game", type=11)
    sent = await client.get_partial_messageable(thread.id).send("table")
    await fake.archive_thread(thread)
    with pytest.raises(discord.HTTPException) as raised:
        await sent.edit(content="moved")
    assert (raised.value.status, raised.value.code) == (400, 50083)
    await client.http.edit_channel(thread.id, archived=False)
    await sent.edit(content="moved")
    assert not thread.archived and fake.messages[sent.id].content == "moved"
    # A message posted in an archived thread unarchives it, as on Discord.
    await fake.archive_thread(thread)
    await client.get_partial_messageable(thread.id).send("again")
    assert not thread.archived


async def test_a_locked_archived_thread_takes_manage_threads_to_unarchive(
    fake_world: FakeWorld, client: discord.Client
) -> None:
    fake = fake_world.fake
    thread = await fake.add_thread(fake_world.table, "game", type=11)
    await fake.archive_thread(thread, locked=True)
    thread.bot_deny = MANAGE_THREADS
    with pytest.raises(discord.Forbidden):
        await client.http.edit_channel(thread.id, archived=False)
    with pytest.raises(discord.HTTPException) as raised:
        await client.get_partial_messageable(thread.id).send("refused")
    assert raised.value.code == 50083
    thread.bot_deny = 0
    await client.http.edit_channel(thread.id, archived=False)
    assert not thread.archived
