"""The one place a failed interaction is answered (cogs.answers.answered_on_failure):
logged, and the person gets an apology, privately, never "This interaction failed"."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest

from cogs.answers import APOLOGY, answered_on_failure


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, *, ephemeral: bool, allowed_mentions) -> None:
        assert allowed_mentions.users is False and allowed_mentions.everyone is False
        self.sent.append((text, ephemeral))


class Interaction:
    def __init__(self) -> None:
        self.response = Response()


async def test_a_failure_is_logged_and_answered_privately_with_an_apology(caplog):
    interaction = Interaction()
    with caplog.at_level(logging.ERROR):
        async with answered_on_failure(interaction, "/stats", apology="Sorry."):
            raise RuntimeError("boom")
    assert interaction.response.sent == [("Sorry.", True)]
    assert "/stats failed" in caplog.text


async def test_a_failure_to_reach_discord_is_only_logged(caplog):
    interaction = Interaction()
    with caplog.at_level(logging.ERROR):
        async with answered_on_failure(interaction, "/help"):
            raise discord.HTTPException(_response(), "gone")
    assert interaction.response.sent == []
    assert "/help could not be answered" in caplog.text


async def test_success_passes_through_untouched():
    interaction = Interaction()
    async with answered_on_failure(interaction, "/help"):
        pass
    assert interaction.response.sent == []


async def test_the_default_apology_is_the_shared_one():
    interaction = Interaction()
    async with answered_on_failure(interaction, "/help"):
        raise ValueError("boom")
    assert interaction.response.sent == [(APOLOGY, True)]


async def test_cancellation_is_not_swallowed():
    with pytest.raises(asyncio.CancelledError):
        async with answered_on_failure(Interaction(), "/help"):
            raise asyncio.CancelledError


def _response():
    class R:
        status = 500
        reason = "Internal Server Error"

    return R()
