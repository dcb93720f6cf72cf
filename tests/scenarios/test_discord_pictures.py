"""The table and the hand as pictures, through the fake Discord.

A whole game with pictures on: the table message carries one ``table.png`` (its
embed shows it; every edit replaces it, described in words), each hand menu its
``hand.png``. Off for one table (``/play pictures:false``) or for a server
(``/settings pictures:off``, Manage Server only), the text goes out alone; and when
Discord refuses the upload (no Attach Files permission), the text table still
follows every move.
"""

from __future__ import annotations

import random
from pathlib import Path

import discord

from bot.models import TableStatus
from tests.botdriver import open_table, play_to_the_end, running_bot, table_message, wait_settled
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.messages import StoredMessage
from tests.fakediscord.world import ATTACH_FILES

MANAGE_GUILD = discord.Permissions(manage_guild=True).value
QUICK = {"target": 5}


def pictures_of(message: StoredMessage) -> list[str]:
    return [a.filename for a in message.attachments if a.filename.endswith(".png")]


def embed_image(message: StoredMessage) -> str | None:
    image = (message.embeds[0] if message.embeds else {}).get("image") or {}
    return image.get("url")


async def test_a_whole_game_with_pictures(fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    people = [world.alice, world.bob]
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options=QUICK)
        first = table_message(fake, session)
        assert pictures_of(first) == ["table.png"]
        assert embed_image(first) is not None and embed_image(first).endswith("table.png")
        picture = first.attachments[0]
        assert picture.description and "Players:" in picture.description
        seen_ids = {picture.id}

        # A hand menu shows the clicker's cards, every one named in the picture's words.
        seat = session.seat_of(world.alice.id)
        assert seat is not None and session.game is not None
        shown = await fake.click(world.alice, first, "Show my hand")
        await bot.get_cog("TableCommands").clicks.pictures.idle()  # type: ignore[union-attr]
        assert shown.ephemeral and shown.message is not None
        assert pictures_of(shown.message) == ["hand.png"]
        hand_alt = shown.message.attachments[0].description or ""
        view = session.game.view_for(seat)
        for card in view.zone(f"hand:{seat}").cards or ():
            assert session.game.card_name(card) in hand_alt

        users = {u.id: u for u in people}
        await play_to_the_end(fake, bot, session, users, random.Random(3))
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.FINISHED
        final = table_message(fake, session)
        assert pictures_of(final) == ["table.png"]  # one picture, the last one
        assert final.attachments[0].id not in seen_ids  # replaced, not kept
        names = [a.filename for a in final.attachments]
        assert any(n.endswith(".json") for n in names)  # the record beside it


async def test_a_table_without_pictures(fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   computers=2, options={**QUICK, "pictures": False})
        message = table_message(fake, session)
        assert pictures_of(message) == [] and embed_image(message) is None
        shown = await fake.click(world.alice, message, "Show my hand")
        assert shown.message is not None and pictures_of(shown.message) == []
        assert "Your hand" in shown.message.content


async def test_the_server_setting_needs_manage_server(fake_world: FakeWorld,
                                                       tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    admin = fake.add_user("dana", guild=world.guild, permissions=MANAGE_GUILD)
    async with running_bot(fake, tmp_path) as bot:
        refused = await fake.slash(world.bob, world.table, "settings", {"pictures": "off"})
        assert refused.ephemeral and "Manage Server" in refused.text
        assert await bot.store.get_pictures(world.guild.id)
        done = await fake.slash(admin, world.table, "settings", {"pictures": "off"})
        assert done.ephemeral and "now **off**" in done.text
        shown = await fake.slash(world.bob, world.table, "settings", {})
        assert "Pictures: **off**" in shown.text
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   computers=2, options=QUICK)
        assert not session.table.pictures
        assert pictures_of(table_message(fake, session)) == []
        # One table may still ask for them.
        other = await open_table(fake, bot, world.alice, world.lobby, "fumblaroo",
                                 computers=2, options={**QUICK, "pictures": True})
        assert pictures_of(table_message(fake, other)) == ["table.png"]


async def test_a_refused_upload_still_shows_every_move(fake_world: FakeWorld,
                                                       tmp_path: Path) -> None:
    """Without Attach Files, Discord refuses the picture (403): the text goes out alone."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1, options=QUICK)
        world.table.bot_deny = ATTACH_FILES  # a channel overwrite takes Attach Files away
        assert session.game is not None
        before = len(session.game.history)
        users = {u.id: u for u in (world.alice, world.bob)}
        await play_to_the_end(fake, bot, session, users, random.Random(5))
        await wait_settled(bot, session)
        assert len(session.game.history) > before
        final = table_message(fake, session)
        assert "Game over" in final.text and pictures_of(final) == []
        refused = [e for e in fake.errors if e.status == 403 and e.files]
        assert refused, "the fake should have refused the uploads"
