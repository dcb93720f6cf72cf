"""Turn pings: an edited message notifies nobody, so the person to act gets one short ping.

These are the people whose hand menus do not follow the game (no menu kept, or its
token expired: :func:`tests.botdriver.menus_never_follow`); for the others see
``tests/scenarios/test_discord_live_menus.py``.
"""

from __future__ import annotations

import random

from tests.botdriver import (
    menus_never_follow,
    open_table,
    running_bot,
    session_in,
    table_message,
    take_turn,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld


def pings(fake, channel):
    """The turn pings standing in the channel (not deleted)."""
    return [m for m in fake.public_messages(channel) if "it is your turn in" in m.content]


async def test_the_person_to_act_is_pinged_once_and_the_old_ping_is_removed(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    async with running_bot(fake, tmp_path) as bot:
        menus_never_follow(bot)
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        rng = random.Random(4)
        seen_pings = set()
        while not session.game.over:
            await wait_settled(bot, session)
            standing = pings(fake, world.table)
            to_act = session.seats[session.game.to_act].user_id
            assert len(standing) == 1, [m.content for m in standing]
            ping = standing[0]
            assert f"<@{to_act}>" in ping.content
            assert ping.allowed_mentions["users"] in ([to_act], [str(to_act)])
            assert not ping.allowed_mentions.get("parse")  # nobody else, no roles, no everyone
            assert str(table_message(fake, session).id) in ping.content  # links the table
            seen_pings.add(ping.id)
            await take_turn(fake, session, users[to_act], rng)
        await wait_settled(bot, session)
        assert pings(fake, world.table) == []  # the game is over: no ping is left standing
        assert len(seen_pings) > 2  # the turn passed back and forth


async def test_one_ping_at_a_time_when_computers_play_between_a_persons_turns(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        menus_never_follow(bot)
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   computers=2)
        rng = random.Random(5)
        await wait_settled(bot, session)
        first = pings(fake, world.table)
        assert [m.content.split(",")[0] for m in first] == [f"<@{world.alice.id}>"]
        # Computers play between Alice's turns: every time it comes back to her she is
        # pinged afresh, and there is never more than one ping standing.
        for _ in range(6):
            await take_turn(fake, session, world.alice, rng)
            await wait_settled(bot, session)
            if session.game.over:
                break
            standing = pings(fake, world.table)
            assert len(standing) == 1 and f"<@{world.alice.id}>" in standing[0].content


async def test_a_restart_leaves_one_ping_standing(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    async with running_bot(fake, tmp_path) as bot:
        menus_never_follow(bot)
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        rng = random.Random(6)
        for _ in range(3):
            await take_turn(fake, session, users[session.seats[session.game.to_act].user_id],
                            rng)
            await wait_settled(bot, session)
        [before] = pings(fake, world.table)
    async with running_bot(fake, tmp_path) as bot:
        session = session_in(bot, world.table)
        await wait_settled(bot, session)
        await fake.wait_for(lambda: len(pings(fake, world.table)) == 1
                            and pings(fake, world.table)[0].id != before.id, timeout=10)
        [after] = pings(fake, world.table)
        to_act = session.seats[session.game.to_act].user_id
        assert f"<@{to_act}>" in after.content
        assert fake.messages[before.id].deleted  # the ping of the previous run is gone
