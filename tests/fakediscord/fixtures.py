"""Pytest fixtures for end-to-end tests against the fake Discord.

`tests/conftest.py` star-imports this module, so every test can ask for:

- `fake_discord`: a started `FakeDiscord` (discord.py patched to use it) with one guild,
  two text channels and three users; at teardown it is stopped and the test fails if any
  violation (limits, OpenAPI, late/double/missing answer, unknown route) was recorded.
  Tests that provoke violations on purpose remove them with `fake.take_violations(...)`.
- `fake_world`: the same fake's named objects: `.fake`, `.guild`, `.table` ("card-table"),
  `.lobby`, `.alice`, `.bob`, `.carol` (carol has Manage Messages). Both fixtures share one
  fake per test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest_asyncio

from .server import FakeDiscord
from .world import MANAGE_MESSAGES, FakeChannel, FakeGuild, FakeUser


@dataclass
class FakeWorld:
    fake: FakeDiscord
    guild: FakeGuild
    table: FakeChannel
    lobby: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    """carol has Manage Messages (a moderator)."""


def build_world(fake: FakeDiscord) -> FakeWorld:
    guild = fake.add_guild("Fivefold Test Guild")
    table = fake.add_channel(guild, "card-table")
    lobby = fake.add_channel(guild, "lobby")
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    carol = fake.add_user("carol", permissions=MANAGE_MESSAGES)
    return FakeWorld(fake, guild, table, lobby, alice, bob, carol)


@pytest_asyncio.fixture
async def fake_world() -> AsyncIterator[FakeWorld]:
    async with FakeDiscord() as fake:
        yield build_world(fake)
    fake.assert_no_violations()


@pytest_asyncio.fixture
async def fake_discord(fake_world: FakeWorld) -> FakeDiscord:
    return fake_world.fake


__all__ = ["FakeWorld", "build_world", "fake_discord", "fake_world"]
