"""The fake Discord's sharding, seen by real discord.py clients in this process.

Each IDENTIFY's ``shard: [id, count]`` makes a session of its own, which is sent
READY and GUILD_CREATE for its shard's guilds only, and then only their events
(INTERACTION_CREATE included); ``/gateway/bot`` recommends ``fake.shard_count``,
in the shape Discord's OpenAPI description gives; a shard outside its count is
closed with 4010.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest_asyncio

from tests.fakediscord import FakeDiscord, FakeGuild
from tests.fakediscord.gateway import OP_IDENTIFY
from tests.fakediscord.shards import CLOSE_INVALID_SHARD, guild_of, shard_of

SHARDS = 2


class Client(discord.AutoShardedClient):
    """A sharded client that counts the interactions it is sent, and identifies at once."""

    def __init__(self, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, guild_ready_timeout=0.05, **options)
        self.interactions: list[int | None] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-second pause between this process's shards (Discord's limit; not the fake's)."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.append(interaction.guild_id)


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        fake.shard_count = SHARDS
        fake.require_synced_commands = False
        for shard in range(SHARDS):
            guild = fake.add_guild(f"shard {shard}", shard=(shard, SHARDS))
            fake.add_channel(guild, "table")
        fake.add_user("alice")
        yield fake
    fake.assert_no_violations()


def guilds(fake: FakeDiscord) -> list[FakeGuild]:
    return sorted(fake.guilds.values(), key=lambda g: shard_of(g.id, SHARDS))


async def test_add_guild_draws_an_id_on_the_shard_asked_for(fake: FakeDiscord) -> None:
    assert [shard_of(g.id, SHARDS) for g in guilds(fake)] == [0, 1]
    assert shard_of(fake.add_guild("three", shard=(2, 3)).id, 3) == 2


async def test_gateway_bot_recommends_the_shard_count_in_discords_shape(
        fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http, http.get(f"{fake.api_base}/gateway/bot",
                        headers={"Authorization": f"Bot {fake.token}"}) as response:
        assert response.status == 200
        body = await response.json()
    assert body["shards"] == SHARDS
    assert fake.spec.validate_response("GET", "/gateway/bot", body) == []
    assert fake.spec.validate_response("GET", "/gateway/bot", {**body, "shards": "2"}) != []


async def test_each_shard_is_sent_only_its_guilds_and_their_interactions(
        fake: FakeDiscord) -> None:
    zero, one = guilds(fake)
    alice = next(u for u in fake.users.values() if u.name == "alice")
    first, second = Client(shard_count=SHARDS, shard_ids=[0]), Client(shard_count=SHARDS,
                                                                      shard_ids=[1])
    async with fake.run_client(first), fake.run_client(second):
        assert [g.id for g in first.guilds] == [zero.id]
        assert [g.id for g in second.guilds] == [one.id]
        assert {s.shard for s in fake.sessions.values()} == {(0, 2), (1, 2)}
        for guild in (one, zero, one):
            await fake.slash(alice, guild.text_channels()[0], "ping", wait=False)
        await fake.wait_for(lambda: len(first.interactions) + len(second.interactions) == 3)
        assert first.interactions == [zero.id] and second.interactions == [one.id, one.id]


async def test_one_process_without_a_count_connects_every_recommended_shard(
        fake: FakeDiscord) -> None:
    client = Client()
    async with fake.run_client(client):
        assert client.shard_count == SHARDS
        assert sorted(g.id for g in client.guilds) == sorted(fake.guilds)
        assert sorted(fake.sessions) == [(0, 2), (1, 2)]


async def test_a_shard_outside_its_count_is_closed_with_4010(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_str(json.dumps({"op": OP_IDENTIFY, "d": {
            "token": fake.token, "intents": 1, "properties": {}, "shard": [2, 2]}}))
        with contextlib.suppress(aiohttp.ClientError):
            await ws.receive()
        assert ws.close_code == CLOSE_INVALID_SHARD
    assert fake.sessions == {}


def test_guild_events_are_routed_by_their_guild() -> None:
    assert guild_of("GUILD_CREATE", {"id": "5"}) == 5
    assert guild_of("INTERACTION_CREATE", {"id": "7", "guild_id": "9"}) == 9
    assert guild_of("INTERACTION_CREATE", {"id": "7"}) is None  # a DM: shard 0
