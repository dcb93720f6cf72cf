"""Tables in channels and threads, the typed commands, and a restart in the middle of a game."""

from __future__ import annotations

import random

from bot.models import TableStatus
from tests.answers import updated_the_menu
from tests.botdriver import (
    add_computer,
    answer_text,
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld
from tests.scenarios.test_discord_timers import Clock, timed_bot


async def test_two_tables_in_two_channels_play_at_once(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        first = await open_table(fake, bot, world.alice, world.table, "fiasco", computers=1)
        second = await open_table(fake, bot, world.bob, world.lobby, "fumblaroo", computers=2,
                                  options={"target": 5})
        assert first.id != second.id
        rng = random.Random(5)
        # Interleave: one turn here, one turn there.
        while first.is_open or second.is_open:
            for session, user in ((first, world.alice), (second, world.bob)):
                await wait_settled(bot, session)
                if session.is_open and session.to_act() is not None:
                    await take_turn(fake, session, user, rng)
        assert first.table.status is second.table.status is TableStatus.FINISHED
        assert "Fiasco" in table_message(fake, first).text
        assert "Fumblaroo" in table_message(fake, second).text


async def test_a_table_in_a_thread(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        opened = await fake.slash(world.alice, world.table, "play fiasco",
                                  {"thread": True})
        await opened.wait_followups(1)
        threads = fake.threads(world.table)
        assert [t.name for t in threads] == ["Fiasco table"]
        thread = threads[0]
        assert thread.mention in opened.followups[0].text
        session = session_in(bot, thread)
        lobby = table_message(fake, session)
        assert lobby.channel_id == thread.id
        await fake.click(world.bob, lobby, "Join")
        await wait_settled(bot, session)
        # The parent channel is still free for its own table.
        here = await fake.slash(world.carol, world.table, "play fiasco")
        assert not here.ephemeral
        await fake.click(world.alice, table_message(fake, session), "Start")
        await play_to_the_end(fake, bot, session, {world.alice.id: world.alice,
                                                   world.bob.id: world.bob}, random.Random(1))
        assert "Game over" in table_message(fake, session).text


async def test_a_second_play_links_to_the_table_and_typed_commands_work(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        session = session_in(bot, world.table)
        again = await fake.slash(world.bob, world.table, "play fizzbin")
        assert again.ephemeral and str(session.table.message_id) in again.text
        joined = await fake.slash(world.bob, world.table, "join")
        assert joined.ephemeral and [s.name for s in session.seats] == ["alice", "bob"]
        twice = await fake.slash(world.bob, world.table, "join")
        assert twice.ephemeral and "already" in twice.text
        rules = await fake.slash(world.carol, world.table, "rules", {"game": "fiasco"})
        assert rules.ephemeral and "Fiasco" in rules.text
        started = await fake.slash(world.alice, world.table, "start")
        assert started.ephemeral and session.game is not None
        hand = await fake.slash(world.bob, world.table, "hand")
        assert hand.ephemeral and "Your hand" in hand.text
        old_id = session.table.message_id
        reposted = await fake.slash(world.carol, world.table, "table")
        assert not reposted.ephemeral
        await until(lambda: fake.messages[old_id].deleted, what="the old message deleted")
        assert session.table.message_id == reposted.message.id
        assert table_message(fake, session).button("Show my hand")


async def test_options_are_checked_against_the_chosen_game(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        bad = await fake.slash(world.alice, world.table, "play fazes",
                               {"fazes": "1,9"})
        assert bad.ephemeral and "fazes" in bad.text.lower()
        endless = await fake.slash(world.alice, world.table, "play fazes",
                                   {"fazes": ",".join(["1"] * 25)})
        assert endless.ephemeral and "at most 24" in endless.text
        assert bot.tables.registry.in_channel(world.table.id) is None
        ok = await fake.slash(world.alice, world.table, "play fiasco",
                              {"length": "extended"})
        assert not ok.ephemeral and "length: extended" in ok.text
        session = session_in(bot, world.table)
        assert session.table.options == {"length": "extended"}
        # teams need 4 or 6 players: refused at Start, nothing changes.
        await fake.slash(world.alice, world.lobby, "play fiasco", {"teams": True})
        lobby = session_in(bot, world.lobby)
        await add_computer(fake, lobby, world.alice)
        await wait_settled(bot, lobby)
        start = await fake.click(world.alice, table_message(fake, lobby), "Start")
        assert start.ephemeral and "teams" in answer_text(fake, start).lower()
        assert lobby.table.status is TableStatus.LOBBY


async def test_a_leaving_or_kicked_player_is_replaced_by_a_computer(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob, world.carol])
        left = await fake.slash(world.bob, world.table, "leave")
        assert left.ephemeral and "computer" in left.text
        kicked = await fake.slash(world.alice, world.table, "kick", {"player": world.carol})
        assert kicked.ephemeral
        await wait_settled(bot, session)
        assert [s.is_computer for s in session.seats] == [False, True, True]
        assert session.seats[1].replaced_user_id == world.bob.id
        gone = await fake.click(world.carol, table_message(fake, session), "Show my hand")
        assert gone.ephemeral and "stays the computer's" in gone.text and not gone.message.buttons
        refused = await fake.slash(world.carol, world.table, "join")
        assert refused.ephemeral and "stays the computer's" in refused.text
        dave = fake.add_user("dave", guild=world.guild)
        stranger = await fake.click(dave, table_message(fake, session), "Show my hand")
        assert stranger.ephemeral and "not seated" in stranger.text
        gone = await fake.click(world.bob, table_message(fake, session), "Show my hand")
        assert gone.ephemeral and "you left the table" in gone.text
        back = await fake.click(world.bob, gone.message, "Take my seat back")
        assert updated_the_menu(back) and "You are back in your seat, bob" in back.text

        await wait_settled(bot, session)
        assert session.seats[1].user_id == world.bob.id and session.seats[1].name == "bob"
        assert "bob is back and takes their seat" in table_message(fake, session).text
        again = await fake.slash(world.bob, world.table, "join")
        assert again.ephemeral and "already seated" in again.text
        await play_to_the_end(fake, bot, session, {world.alice.id: world.alice,
                                                   world.bob.id: world.bob},
                              random.Random(4))
        assert session.table.status is TableStatus.FINISHED


async def test_a_lobby_fills_and_empties_with_its_buttons(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fumblaroo")
        session = session_in(bot, world.table)
        lobby = table_message(fake, session)
        assert [b.label for b in lobby.buttons] == [
            "Join", "Leave", "Add computer player", "Start", "Cancel", "Rules"]
        assert lobby.button("Start").disabled  # Fumblaroo needs exactly three
        await fake.click(world.bob, lobby, "Join")
        await fake.click(world.carol, lobby, "Join")
        await wait_settled(bot, session)
        lobby = table_message(fake, session)
        assert not lobby.button("Start").disabled and lobby.button("Join").disabled
        await fake.click(world.alice, lobby, "Leave")  # the host leaves: bob hosts
        await wait_settled(bot, session)
        assert session.table.host_id == world.bob.id
        assert "bob" in table_message(fake, session).text
        await fake.click(world.bob, table_message(fake, session), "Cancel")
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.CANCELLED
        assert not table_message(fake, session).buttons
        assert bot.tables.registry.in_channel(world.table.id) is None


async def test_a_restart_resumes_the_game_and_its_buttons(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    rng = random.Random(9)
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=1)
        for _ in range(4):
            await wait_settled(bot, session)
            seat = session.to_act()
            await take_turn(fake, session, users[session.seats[seat].user_id], rng)
        await wait_settled(bot, session)
        table_id, actions = session.id, list(session.table.record["actions"])
        message_id = session.table.message_id
    async with running_bot(fake, tmp_path) as bot:
        session = bot.tables.registry.get(table_id)
        await wait_settled(bot, session)
        assert session.table.record["actions"][: len(actions)] == actions
        assert session.table.message_id == message_id
        await play_to_the_end(fake, bot, session, users, rng)
        assert session.table.status is TableStatus.FINISHED


async def test_a_table_whose_channel_is_gone_is_closed_at_start(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.lobby, "fiasco",
                                   people=[world.bob])
        table_id = session.id
    await fake.delete_channel(world.lobby)
    async with running_bot(fake, tmp_path) as bot:
        session = bot.tables.registry.get(table_id)
        await wait_settled(bot, session)
        await until(lambda: session.table.status is TableStatus.CANCELLED, 5, "closed")
        stored = await bot.store.get_table(table_id)
        assert stored.status is TableStatus.CANCELLED


async def test_an_absent_players_turn_is_played_by_a_computer_after_the_timeout(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    clock = Clock()  # the bot's, moved by the test: no real waiting for time
    async with timed_bot(fake, tmp_path, clock, turn_timeout=60) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        actions = len(session.table.record["actions"])
        clock.advance(61)  # the server's turn timer runs out
        await until(lambda: len(session.table.record["actions"]) > actions, 10,
                    "a computer to play the absent player's turn")
        await wait_settled(bot, session)
        assert "took too long" in table_message(fake, session).text
        assert session.is_open and not any(s.is_computer for s in session.seats)
        await fake.slash(world.alice, world.table, "end")
