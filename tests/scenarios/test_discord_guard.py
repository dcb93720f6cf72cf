"""The real world through the fake Discord: missing permissions, limits, cooldowns, and
tables whose message, thread, channel or server goes away."""

from __future__ import annotations

import logging
import random
from pathlib import Path

from bot.models import TableStatus
from tests.botdriver import (
    enabled_choices,
    open_table,
    running_bot,
    session_in,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import (
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)


async def test_play_names_the_permissions_missing_here(fake_world: FakeWorld,
                                                       tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    world.table.bot_deny = SEND_MESSAGES | EMBED_LINKS
    world.lobby.bot_deny = CREATE_PUBLIC_THREADS
    async with running_bot(fake, tmp_path) as bot:
        refused = await fake.slash(world.alice, world.table, "play fiasco")
        assert refused.ephemeral
        assert "**Send Messages**" in refused.text and "**Embed Links**" in refused.text
        assert "Attach Files" not in refused.text
        assert bot.tables.registry.in_channel(world.table.id) is None
        no_thread = await fake.slash(world.alice, world.lobby, "play fiasco",
                                     {"thread": True})
        assert no_thread.ephemeral and "**Create Public Threads**" in no_thread.text
        here = await fake.slash(world.alice, world.lobby, "play fiasco")
        assert not here.ephemeral  # a lobby needs no new thread
        status = await fake.slash(world.carol, world.table, "status", {})
        assert status.ephemeral and "missing Send Messages, Embed Links" in status.text


async def test_a_host_and_a_server_have_a_limit_of_open_tables(fake_world: FakeWorld,
                                                               tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    channels = [fake.add_channel(world.guild, f"t{i}") for i in range(4)]
    async with running_bot(fake, tmp_path, max_tables_per_host=2,
                           max_tables_per_server=3) as bot:
        for channel in channels[:2]:
            opened = await fake.slash(world.alice, channel, "play fiasco")
            assert not opened.ephemeral
        third = await fake.slash(world.alice, channels[2], "play fiasco")
        assert third.ephemeral and "you already host 2 open tables" in third.text.lower()
        bob = await fake.slash(world.bob, channels[2], "play fiasco")
        assert not bob.ephemeral
        full = await fake.slash(world.carol, channels[3], "play fiasco")
        assert full.ephemeral and "this server already has 3 open tables" in full.text.lower()
        assert len(bot.tables.registry.open_tables(guild_id=world.guild.id)) == 3
        # Ending one frees a place.
        await fake.click(world.bob, table_message(fake, session_in(bot, channels[2])), "Cancel")
        again = await fake.slash(world.carol, channels[3], "play fiasco")
        assert not again.ephemeral


async def test_commands_that_write_have_a_cooldown(fake_world: FakeWorld,
                                                   tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, commands_per_minute=3):
        answers = [await fake.slash(world.alice, world.table, "settings", {})
                   for _ in range(4)]
        assert all(a.ephemeral for a in answers)
        assert all("Pictures:" in a.text for a in answers[:3])
        assert "Not so fast" in answers[3].text
        other = await fake.slash(world.bob, world.table, "settings", {})  # per person
        assert "Pictures:" in other.text


async def test_a_deleted_table_message_is_posted_anew(fake_world: FakeWorld,
                                                     tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1)
        old = table_message(fake, session)
        await fake.delete_message(old)
        users = {world.alice.id: world.alice, world.bob.id: world.bob}
        seat = session.to_act()
        assert seat is not None and session.seats[seat].user_id is not None
        # The old message is gone, so the move comes from a hand menu opened by /hand.
        menu = await fake.slash(users[session.seats[seat].user_id], world.table, "hand", {})
        assert menu.ephemeral and menu.message is not None
        choice = enabled_choices(menu.message)[0]
        await fake.click(users[session.seats[seat].user_id], menu.message, choice)
        await wait_settled(bot, session)
        new = table_message(fake, session)
        assert new.id != old.id and not new.deleted and session.is_open
        stored = await bot.store.get_table(session.id)
        assert stored is not None and stored.message_id == new.id


async def test_a_deleted_thread_or_channel_closes_its_table(fake_world: FakeWorld,
                                                            tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fiasco", {"thread": True})
        await until(lambda: any(s.channel_id != world.table.id and s.table.message_id
                                for s in bot.tables.registry.open_tables()),
                    what="the lobby in its new thread")
        thread_session = next(s for s in bot.tables.registry.open_tables()
                              if s.channel_id != world.table.id)
        channel_session = await open_table(fake, bot, world.bob, world.lobby, "fumblaroo",
                                           computers=2)
        thread = fake.channels[thread_session.channel_id]
        await fake.delete_channel(thread)
        await until(lambda: not thread_session.is_open, what="the thread's table to close")
        await fake.delete_channel(world.lobby)
        await until(lambda: not channel_session.is_open, what="the channel's table to close")
        for session in (thread_session, channel_session):
            assert session.table.status is TableStatus.CANCELLED
            stored = await bot.store.get_table(session.id)
            assert stored is not None and stored.status is TableStatus.CANCELLED
        assert "deleted" in channel_session.recent[-1]
        assert channel_session.table.record is not None  # the record is kept
    # Nothing of it resumes at the next start.
    async with running_bot(fake, tmp_path) as bot:
        assert bot.tables.registry.open_tables() == []


async def test_removed_from_a_server_closes_its_tables(fake_world: FakeWorld,
                                                       tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    other = fake.add_guild("Other")
    elsewhere = fake.add_channel(other, "cards")
    olga = fake.add_user("olga", guild=other)
    async with running_bot(fake, tmp_path) as bot:
        here = await open_table(fake, bot, world.alice, world.table, "fumblaroo", computers=2)
        there = await open_table(fake, bot, olga, elsewhere, "fumblaroo", computers=2)
        await fake.remove_bot_from(world.guild)
        await until(lambda: not here.is_open, what="the server's table to close")
        assert there.is_open  # another server's table plays on
        assert "removed from the server" in here.recent[-1]


async def test_a_permission_lost_mid_game_is_logged_once_and_play_goes_on(
        fake_world: FakeWorld, tmp_path: Path, caplog) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1)
        message = table_message(fake, session)
        users = {world.alice.id: world.alice, world.bob.id: world.bob}
        caplog.set_level(logging.WARNING, logger="cogs.upkeep.publisher")
        world.table.bot_deny = VIEW_CHANNEL
        assert session.game is not None
        moves = len(session.game.history)
        rng = random.Random(4)
        for _ in range(3):
            await wait_settled(bot, session)
            seat = session.to_act()
            assert seat is not None
            user_id = session.seats[seat].user_id
            assert user_id is not None
            # The table message is still there to click (only its edits are refused).
            await take_turn(fake, session, users[user_id], rng)
        await wait_settled(bot, session)
        assert len(session.game.history) >= moves + 3 and session.is_open
        said = [r for r in caplog.records if "no longer edit its message" in r.message]
        assert len(said) == 1
        assert table_message(fake, session).id == message.id
