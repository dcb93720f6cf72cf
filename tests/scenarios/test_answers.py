"""``tests.answers`` names each way a discord.py bot answers, and only that one.

A tiny bot answers each button its own way, through the real discord.py client and the
fake Discord; each helper must hold for exactly the answers its docstring names.
"""

from __future__ import annotations

import discord
import pytest_asyncio
from discord.ext import commands

from tests.answers import (
    answered_privately,
    answered_publicly,
    deferred,
    thinking,
    updated_the_menu,
    updated_the_message,
)
from tests.fakediscord.fixtures import FakeWorld

HELPERS = (answered_privately, answered_publicly, updated_the_message, updated_the_menu,
           deferred, thinking)


class Answers(discord.ui.View):
    """One button per way of answering a click."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="private", custom_id="answers:private")
    async def private(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.send_message("only you", view=Answers(), ephemeral=True)

    @discord.ui.button(label="public", custom_id="answers:public")
    async def public(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.send_message("everyone")

    @discord.ui.button(label="edit", custom_id="answers:edit")
    async def edit(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="edited", view=self)

    @discord.ui.button(label="later", custom_id="answers:later")
    async def later(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.defer()

    @discord.ui.button(label="think", custom_id="answers:think")
    async def think(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("thought")


class AnsweringBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(),
                         guild_ready_timeout=0.1)

        @self.tree.command(name="board", description="Post the buttons")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("answers", view=Answers())

    async def setup_hook(self) -> None:
        self.add_view(Answers())
        await self.tree.sync()


@pytest_asyncio.fixture
async def answering(fake_world: FakeWorld):
    async with fake_world.fake.run_client(AnsweringBot()) as client:
        yield client


def holding(result) -> set[str]:
    return {helper.__name__ for helper in HELPERS if helper(result)}


async def test_each_helper_holds_for_its_own_answer_only(fake_world: FakeWorld, answering):
    fake, alice = fake_world.fake, fake_world.alice
    posted = await fake.slash(alice, fake_world.table, "board")
    assert holding(posted) == {"answered_publicly"}
    board = posted.message
    assert board is not None

    private = await fake.click(alice, board, "private")
    assert holding(private) == {"answered_privately"}
    assert holding(await fake.click(alice, board, "public")) == {"answered_publicly"}
    assert holding(await fake.click(alice, board, "edit")) == {"updated_the_message"}
    assert private.message is not None
    assert holding(await fake.click(alice, private.message, "edit")) == {
        "updated_the_message", "updated_the_menu"}
    assert holding(await fake.click(alice, board, "later")) == {"deferred"}
    thought = await fake.click(alice, board, "think")
    assert holding(thought) == {"thinking"}
    await thought.wait_followups(1)
