"""``Same cards`` under a result: the finished game's deal again, to the same seats, unrated."""

from __future__ import annotations

import random

from bot.models import TableStatus
from bot.tables.same_cards import NO_NEW_SEAT, ONLY_ITS_PLAYERS
from cogs import ids
from tests.answers import (
    answered_privately,
    answered_publicly,
    updated_the_menu,
    updated_the_message,
)
from tests.botdriver import (
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld
from tests.scenarios.test_discord_hidden import assert_no_hidden_card_shown

OVER = "is over."


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def result_message(fake, channel):
    """The latest result message in ``channel``."""
    return [m for m in fake.public_messages(channel) if OVER in m.content][-1]


async def finished(fake, bot, world, *, seed: int):
    """Alice, Bob and a hard computer play Fiasco to its end."""
    people = [world.alice, world.bob]
    session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                               people=[world.bob], computers=1)
    await play_to_the_end(fake, bot, session, {u.id: u for u in people}, random.Random(seed))
    await wait_settled(bot, session)
    assert session.table.status is TableStatus.FINISHED
    await fake.wait_for(lambda: any(OVER in m.content for m in fake.public_messages(world.table)))
    return session


async def test_same_cards_deals_the_finished_game_again_to_the_same_seats_unrated(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    seeds = iter([21, 99])  # a new game would have another deal
    async with running_bot(fake, tmp_path, seed_source=lambda: next(seeds)) as bot:
        first = await finished(fake, bot, world, seed=1)
        old = first.table.record
        result = result_message(fake, world.table)
        assert [b.label for b in result.buttons] == ["Play again", "Same cards", "Record"]
        ratings = {u.id: await bot.ledger.stats(world.guild.id, u.id)
                   for u in (world.alice, world.bob)}

        asked = await fake.click(world.bob, result, "Same cards")
        assert answered_publicly(asked), asked
        lobby = session_in(bot, world.table)
        assert lobby.id != first.id
        assert asked.message.content == (f"<@{world.alice.id}>: bob deals the same cards "
                                         "again: Join to take your seat.")
        assert [int(u) for u in asked.message.allowed_mentions["users"]] == [world.alice.id]
        text = table_message(fake, lobby).text
        assert "**Same cards**" in text and "alice: saved for them (Join)" in text
        assert [s.name for s in lobby.seats] == ["alice (computer)", "bob", first.seats[2].name]

        # Nobody else sits down, and no seat can be added: the deal is for these seats.
        stranger = await fake.click(world.carol, table_message(fake, lobby), "Join")
        assert answered_privately(stranger) and stranger.text == sentence(ONLY_ITS_PLAYERS)
        assert table_message(fake, lobby).button("Add computer player").disabled
        more = await fake.click(world.bob, table_message(fake, lobby),
                                ids.lobby_id(lobby.id, "cpu"), force=True)
        assert answered_privately(more) and more.text == sentence(NO_NEW_SEAT), more

        # Alice takes her own seat; leaving saves it for her again; joining takes it back.
        for expected in ("alice", "alice (computer)", "alice"):
            verb = "Leave" if expected.endswith("(computer)") else "Join"
            clicked = await fake.click(world.alice, table_message(fake, lobby), verb)
            assert updated_the_message(clicked)  # the lobby itself is the answer
            await wait_settled(bot, lobby)
            assert lobby.seats[0].name == expected
        assert [s.user_id for s in lobby.seats] == [s.user_id for s in first.seats]

        await fake.click(world.bob, table_message(fake, lobby), "Start")
        await wait_settled(bot, lobby)
        assert lobby.table.record["seed"] == old["seed"]
        await play_to_the_end(fake, bot, lobby, {world.alice.id: world.alice,
                                                 world.bob.id: world.bob}, random.Random(4))
        await wait_settled(bot, lobby)
        new = lobby.table.record
        shared = min(len(new["deals"]), len(old["deals"]))
        assert shared >= 1 and new["deals"][:shared] == old["deals"][:shared]  # both played
        await fake.wait_for(lambda: result_message(fake, world.table).id > result.id)
        again = result_message(fake, world.table)
        assert "-# Not rated: the cards were those of an earlier game." in again.content
        assert "rating" not in again.content.replace("Not rated", "")
        for user_id, before in ratings.items():
            after = await bot.ledger.stats(world.guild.id, user_id)
            assert [(s.rating, s.games) for s in after] == [(s.rating, s.games + 1)
                                                            for s in before]
    menus, _ = assert_no_hidden_card_shown(fake, lobby, tmp_path, since=result.id)
    assert menus > 0


async def test_a_saved_seat_not_taken_at_the_start_is_played_until_its_player_takes_it(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await finished(fake, bot, world, seed=2)
        result = result_message(fake, world.table)
        outsider = await fake.click(world.carol, result, "Same cards")
        assert answered_privately(outsider) and "only the players" in outsider.text.lower()

        await fake.click(world.alice, result, "Same cards")
        lobby = session_in(bot, world.table)
        await fake.click(world.alice, table_message(fake, lobby), "Start")
        await wait_settled(bot, lobby)
        assert lobby.status is TableStatus.PLAYING
        assert any("bob had not joined" in line for line in lobby.recent)
        assert lobby.seats[1].is_computer

        lost = await fake.click(world.bob, table_message(fake, lobby), "Show my hand")
        assert answered_privately(lost), lost
        assert "you had not joined when the game started" in lost.text
        back = await fake.click(world.bob, lost.message, "Take my seat back")
        assert updated_the_menu(back), back
        assert lobby.seats[1].user_id == world.bob.id
