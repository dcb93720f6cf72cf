"""The end of a game as an event: the result message, Play again and Record, end to end."""

from __future__ import annotations

import asyncio
import json
import random

from bot.models import TableStatus
from tests.botdriver import (
    add_computer,
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld

OVER = "is over."


def result_message(fake, channel):
    """The one result message in ``channel``."""
    [found] = [m for m in fake.public_messages(channel) if OVER in m.content]
    return found


async def finished_game(fake, bot, world, *, people, computers=1, options=None, seed=3):
    """A Fiasco table of ``people`` (Alice first) and computers, played to its end."""
    session = await open_table(fake, bot, people[0], world.table, "fiasco", people=people[1:],
                               computers=computers, options=options)
    await play_to_the_end(fake, bot, session, {u.id: u for u in people}, random.Random(seed))
    await wait_settled(bot, session)
    assert session.table.status is TableStatus.FINISHED
    await fake.wait_for(lambda: any(OVER in m.content
                                    for m in fake.public_messages(world.table)))
    return session


async def test_a_finished_game_posts_a_result_that_pings_the_players_with_their_ratings(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await finished_game(fake, bot, world, people=[world.alice, world.bob])
        result = result_message(fake, world.table)
        # A new message after the final table, not an edit of it.
        assert result.id > table_message(fake, session).id
        lines = result.content.splitlines()
        assert lines[0].startswith("**Fiasco is over.**")
        assert f"<@{world.alice.id}>" in lines[0] and f"<@{world.bob.id}>" in lines[0]
        assert sorted(map(int, result.allowed_mentions["users"])) == \
            sorted([world.alice.id, world.bob.id])
        assert not result.allowed_mentions.get("parse")  # no roles, no everyone
        # One line per seat, best place first, with the score and the rating change.
        places = session.game.outcome.places
        seats = sorted(range(3), key=lambda i: (places[i], i))
        assert len(lines) == 4
        for line, seat in zip(lines[1:], seats, strict=True):
            held = session.seats[seat]
            assert line.startswith(f"{places[seat]}. **{held.label}**")
            assert f"{session.game.scores[seat]} pt" in line
            if held.user_id is None:
                assert "rating" not in line
            else:
                [stats] = await bot.store.stats(world.guild.id, held.user_id)
                assert f"rating new → {stats.rating:.0f}" in line
        assert [b.label for b in result.buttons] == ["Play again", "Same cards", "Record"]
        # The final table has no turn marker and no play button left.
        final = table_message(fake, session)
        assert "▶" not in final.text
        assert [b.label for b in final.buttons] == ["Details", "Rules"]


async def test_a_second_game_shows_each_rating_before_and_after(fake_world: FakeWorld,
                                                                  tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        first = await finished_game(fake, bot, world, people=[world.alice, world.bob],
                                    computers=0)
        before = {u: (await bot.store.stats(world.guild.id, u))[0].rating
                  for u in (world.alice.id, world.bob.id)}
        old = result_message(fake, world.table)
        again = await fake.click(world.bob, old, "Play again")
        lobby = session_in(bot, world.table)
        await fake.click(world.alice, table_message(fake, lobby), "Join")
        await fake.click(world.bob, table_message(fake, lobby), "Start")
        await play_to_the_end(fake, bot, lobby, {world.alice.id: world.alice,
                                                 world.bob.id: world.bob}, random.Random(8))
        await wait_settled(bot, lobby)
        assert again.message is not None and first.id != lobby.id
        await fake.wait_for(lambda: len([m for m in fake.public_messages(world.table)
                                         if OVER in m.content]) == 2)
        newest = [m for m in fake.public_messages(world.table) if OVER in m.content][-1]
        for user in (world.alice, world.bob):
            after = (await bot.store.stats(world.guild.id, user.id))[0].rating
            assert after != before[user.id]
            assert f"rating {before[user.id]:.0f} → {after:.0f}" in newest.content


async def test_play_again_opens_the_same_table_with_the_computers_seated(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await finished_game(fake, bot, world, people=[world.alice, world.bob],
                                      options={"length": "quick", "pictures": False,
                                               "timer": "5m"})
        computer = next(s for s in session.seats if s.is_computer)
        # Someone who did not play cannot ask for it.
        outsider = await fake.click(world.carol, result_message(fake, world.table),
                                    "Play again")
        assert outsider.ephemeral and "Only the players" in outsider.text
        assert bot.tables.registry.in_channel(world.table.id) is None

        again = await fake.click(world.bob, result_message(fake, world.table), "Play again")
        assert not again.ephemeral and again.message is not None
        lobby = session_in(bot, world.table)
        assert lobby.id != session.id and lobby.status is TableStatus.LOBBY
        assert lobby.table.host_id == world.bob.id
        assert lobby.table.options == session.table.options
        assert lobby.table.pictures is False  # the table options too
        assert (lobby.table.turn_seconds, lobby.table.tournament) == (300, False)
        assert [(s.user_id, s.name, s.level) for s in lobby.seats] == \
            [(world.bob.id, "bob", None), (None, computer.name, computer.level)]
        # Alice is asked to confirm: pinged, alone, in the new lobby.
        assert f"<@{world.alice.id}>" in again.message.content
        assert [int(u) for u in again.message.allowed_mentions["users"]] == [world.alice.id]
        # A second click finds the table open and says where.
        twice = await fake.click(world.alice, result_message(fake, world.table), "Play again")
        assert twice.ephemeral and "already a table here" in twice.text
        assert str(lobby.table.message_id) in twice.text

        await fake.click(world.alice, table_message(fake, lobby), "Join")
        await fake.click(world.bob, table_message(fake, lobby), "Start")
        await wait_settled(bot, lobby)
        assert lobby.status is TableStatus.PLAYING and len(lobby.seats) == 3


async def test_record_sends_the_game_file_privately(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await finished_game(fake, bot, world, people=[world.alice])
        asked = await fake.click(world.carol, result_message(fake, world.table), "Record")
        assert asked.ephemeral and asked.message.visible_to == world.carol.id
        [attachment] = asked.message.attachments
        assert attachment.filename == f"fivefold-fiasco-{session.id}.json"
        assert json.loads(attachment.data) == session.table.record


async def test_the_result_buttons_work_after_a_restart(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await finished_game(fake, bot, world, people=[world.alice, world.bob])
        record = session.table.record
    result = result_message(fake, world.table)
    async with running_bot(fake, tmp_path) as bot:
        assert bot.tables.registry.sessions() == []  # the finished table is only in the store now
        asked = await fake.click(world.bob, result, "Record")
        assert asked.ephemeral and json.loads(asked.message.attachments[0].data) == record
        again = await fake.click(world.alice, result, "Play again")
        assert not again.ephemeral
        lobby = session_in(bot, world.table)
        assert [s.user_id for s in lobby.seats] == [world.alice.id, None]


async def test_stale_and_forged_result_buttons_are_refused_privately(fake_world: FakeWorld,
                                                                     tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await finished_game(fake, bot, world, people=[world.alice])
        result = result_message(fake, world.table)
        unknown = await fake.click(world.alice, result, "ff:0123456789:end:again", force=True)
        assert unknown.ephemeral and "not from a table I know" in unknown.text
        # A table still in play has no result to replay or download.
        await fake.slash(world.alice, world.lobby, "play fiasco")
        playing = session_in(bot, world.lobby)
        await add_computer(fake, playing, world.alice)
        await fake.click(world.alice, table_message(fake, playing), "Start")
        early = await fake.click(world.alice, result, f"ff:{playing.id}:end:record", force=True)
        assert early.ephemeral and "did not finish with a result" in early.text
        # A result button copied into another channel does not open a table there.
        lobby_message = table_message(fake, playing)
        elsewhere = await fake.click(world.alice, lobby_message,
                                     result.buttons[0].custom_id, force=True)
        assert elsewhere.ephemeral and "another channel" in elsewhere.text
        assert bot.tables.registry.in_channel(world.table.id) is None


async def test_a_hints_table_and_a_lone_person_are_not_rated(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await finished_game(fake, bot, world, people=[world.alice, world.bob],
                            options={"hints": True})
        result = result_message(fake, world.table)
        assert "Not rated: this table had hints on." in result.content
        for user in (world.alice, world.bob):
            assert (await bot.store.stats(world.guild.id, user.id))[0].rating is None
        people_lines = [line for line in result.content.splitlines()[1:] if "computer" not in
                        line.lower() and "·" in line]
        assert people_lines and all(line.endswith("not rated") for line in people_lines)


async def test_two_players_pressing_play_again_at_once_open_one_table(fake_world: FakeWorld,
                                                                      tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await finished_game(fake, bot, world, people=[world.alice, world.bob])
        result = result_message(fake, world.table)
        both = await asyncio.gather(fake.click(world.alice, result, "Play again"),
                                    fake.click(world.bob, result, "Play again"))
        assert sorted(answer.ephemeral for answer in both) == [False, True]
        refused = next(answer for answer in both if answer.ephemeral)
        assert "already a table here" in refused.text
        lobbies = [s for s in bot.tables.registry.sessions() if s.status is TableStatus.LOBBY]
        assert len(lobbies) == 1 and lobbies[0] is session_in(bot, world.table)
