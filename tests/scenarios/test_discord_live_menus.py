"""Hand menus that follow the game (``cogs/upkeep/live_menus.py``), through the fake Discord.

Every person opens ``Show my hand`` once and from then on plays only in the menu the
bot keeps editing: the turn reaches them there, with no ping. Tokens expire: the fake
Discord refuses a late edit (401, 50027) and records it as a violation, so a bot that
edited a menu after its time would fail these tests; after the expiry the ping brings
the player back to a fresh menu.
"""

from __future__ import annotations

import random

import pytest

import games
from cogs.upkeep.live_menus import ACTIVE_FOR, LIFETIME
from cogs.upkeep.publisher import PING_MARK
from tests.answers import updated_the_menu
from tests.botdriver import (
    enabled_choices,
    live_menus,
    menus_never_follow,
    open_table,
    play_to_the_end,
    running_bot,
    table_message,
    wait_settled,
)
from tests.custom_ids import is_action
from tests.fakediscord import InteractionResult, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser
from tests.scenarios.test_discord_game import shortest_options
from tests.scenarios.test_discord_timers import Clock, timed_bot

EXPIRED = 15 * 60 + 1  # past Discord's 15 minutes (and so past the bot's 14)


def pings_posted(fake, channel) -> list[StoredMessage]:
    """Every turn ping posted in ``channel``, deleted ones too, oldest first."""
    return [m for m in fake.messages.values()
            if m.channel_id == channel.id and PING_MARK in m.content]


def standing_pings(fake, channel) -> list[StoredMessage]:
    return [m for m in pings_posted(fake, channel) if not m.deleted]


async def show_hand(fake, session, user: FakeUser) -> StoredMessage:
    shown = await fake.click(user, table_message(fake, session), "Show my hand")
    assert shown.ephemeral and shown.message is not None, shown
    return shown.message


async def play_in(fake, menu: StoredMessage, user: FakeUser, rng: random.Random | None = None
                  ) -> InteractionResult:
    """``user`` makes a legal move in ``menu`` (two steps where a card needs them): a random
    one, or without ``rng`` the first enabled (the shortest games: Fizzbin draws from the
    stack, Fumblaroo's bidder orders up)."""
    choices = enabled_choices(menu)
    assert choices, f"{user.name} has nothing to click: {menu.text}"
    result = await fake.click(user, menu, rng.choice(choices) if rng else choices[0])
    assert updated_the_menu(result) and result.message is menu, result
    if "Where does" in result.text:
        step = [c for c in enabled_choices(menu) if is_action(c)]
        result = await fake.click(user, menu, rng.choice(step) if rng else step[0])
        assert updated_the_menu(result), result
    return result


def fewest_people(world: FakeWorld, game: str) -> list[FakeUser]:
    """As few people as ``game`` seats (the shortest whole game), all of them people."""
    return [world.alice, world.bob, world.carol][: games.get(game).min_players]


@pytest.mark.parametrize("game", games.names())
async def test_a_whole_game_played_only_in_the_menus_the_bot_keeps_up_to_date(
    game, fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    people = fewest_people(world, game)
    rng = None  # the first legal move: rules coverage is elsewhere, this is about the menus
    async with running_bot(fake, tmp_path, seed_source=lambda: 11) as bot:
        live_menus(bot).clock = fake.clock.now  # tokens age on the fake Discord's clock
        session = await open_table(fake, bot, people[0], world.table, game,
                                   people=people[1:], options=shortest_options(game))
        menus = {u.id: await show_hand(fake, session, u) for u in people}
        users = {u.id: u for u in people}
        told = {m.id for m in pings_posted(fake, world.table)}  # before anyone had a menu
        turns = 0
        expired: dict[int, tuple[StoredMessage, int]] = {}  # menus past their time, and edits
        waiting_for_ping: set[int] = set()
        while True:
            await wait_settled(bot, session)
            if session.game.over:
                break
            user = users[session.seats[session.game.to_act].user_id]
            new_pings = [m for m in pings_posted(fake, world.table) if m.id not in told]
            told |= {m.id for m in new_pings}
            mentioned = [m for m in new_pings if f"<@{user.id}>" in m.content]
            if user.id in waiting_for_ping:
                # Their menu's token is past its time: the bot left it alone and pinged them.
                assert mentioned and "**Your turn**" not in menus[user.id].text
                menus[user.id] = await show_hand(fake, session, user)  # back through the ping
                waiting_for_ping.discard(user.id)
            else:
                # The bot brought the menu round to the player's turn by itself: no ping.
                assert "**Your turn**" in menus[user.id].text, menus[user.id].text
                assert not mentioned, [m.content for m in mentioned]
            await play_in(fake, menus[user.id], user, rng)
            turns += 1
            if turns == 6:
                # Everyone walks away for a quarter of an hour: every kept token expires.
                # The player to act has been shown their turn; their next click renews it.
                await wait_settled(bot, session)
                fake.clock.advance(EXPIRED)
                now_to_act = session.seats[session.game.to_act].user_id
                expired = {u: (m, m.edit_count) for u, m in menus.items() if u != now_to_act}
                waiting_for_ping = set(expired)
        await wait_settled(bot, session)
        assert expired, "the game ended before the tokens could expire"
        for old, edits in expired.values():
            assert old.edit_count == edits  # never edited after its time
        for user_id, menu in menus.items():  # the end of the game reached the live menus
            if user_id not in waiting_for_ping:
                assert "The game is over." in menu.text, menu.text
        # One menu per person, and one more each time an expired one was replaced.
        ephemeral = [m for m in fake.messages.values() if m.ephemeral]
        assert len(ephemeral) == len(people) + len(expired) - len(waiting_for_ping)


async def test_a_quick_fiasco_pings_only_people_without_a_live_menu(
    fake_world: FakeWorld, tmp_path
):
    """The ping churn of issue 14 (27 pings posted and deleted in one quick Fiasco)."""
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    posted = {}
    for follow in (False, True):
        channel = world.table if follow else world.lobby
        (tmp_path / str(follow)).mkdir()
        async with running_bot(fake, tmp_path / str(follow), seed_source=lambda: 7) as bot:
            if not follow:
                menus_never_follow(bot)  # as before menus followed the game
            session = await open_table(fake, bot, world.alice, channel, "fiasco",
                                       people=[world.bob])
            if follow:
                menus = {u: await show_hand(fake, session, user) for u, user in users.items()}
                rng = random.Random(7)
                while not session.game.over:
                    await wait_settled(bot, session)
                    if session.game.over:
                        break
                    user_id = session.seats[session.game.to_act].user_id
                    await play_in(fake, menus[user_id], users[user_id], rng)
            else:
                await play_to_the_end(fake, bot, session, users, random.Random(7))
            await wait_settled(bot, session)
        posted[follow] = pings_posted(fake, channel)
    # Before: a ping every time the turn changed hands. After: only the first turn's, for the
    # player to act before anyone had opened a menu.
    assert len(posted[False]) > 20
    assert len(posted[True]) == 1, [m.content for m in posted[True]]


async def test_a_menu_the_player_dismissed_is_forgotten_and_the_ping_comes_back(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        live_menus(bot).clock = fake.clock.now
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        users = {u.id: u for u in (world.alice, world.bob)}
        menus = {u: await show_hand(fake, session, user) for u, user in users.items()}
        first = users[session.seats[session.game.to_act].user_id]
        second = next(u for u in users.values() if u is not first)
        await fake.delete_message(menus[second.id])  # dismissed: its edits now fail (10008)
        fake.clock.advance(ACTIVE_FOR + 1)  # and they have not used a menu for a while
        await play_in(fake, menus[first.id], first, random.Random(1))
        await wait_settled(bot, session)
        assert session.seats[session.game.to_act].user_id == second.id
        assert 10008 in [r.error_code for r in fake.errors]  # the bot tried, and let it go
        [ping] = standing_pings(fake, world.table)
        assert f"<@{second.id}>" in ping.content
        assert not live_menus(bot).is_live(session, second.id)


async def test_refresh_shows_a_waiting_player_the_game_as_it_is_now(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 5) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fazes",
                                   people=[world.bob, world.carol])
        users = {u.id: u for u in (world.alice, world.bob, world.carol)}
        menus = {u: await show_hand(fake, session, user) for u, user in users.items()}
        leader = users[session.seats[session.game.to_act].user_id]
        await play_in(fake, menus[leader.id], leader, random.Random(2))
        await wait_settled(bot, session)
        # The third player's menu is not edited for another player's card; Refresh shows it.
        third = next(u for u in users.values()
                     if u is not leader and session.seat_of(u.id) != session.game.to_act)
        assert "On the table" not in menus[third.id].text
        answer = await fake.click(third, menus[third.id], "Refresh")
        assert updated_the_menu(answer)

        assert "On the table" in menus[third.id].text and "was led" in menus[third.id].text


async def test_a_menu_is_left_alone_in_the_last_minute_of_its_token(
    fake_world: FakeWorld, tmp_path
):
    """Discord would still take the edit (its 15 minutes are not up); the bot stays inside."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        live_menus(bot).clock = fake.clock.now
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        users = {u.id: u for u in (world.alice, world.bob)}
        menus = {u: await show_hand(fake, session, user) for u, user in users.items()}
        first = users[session.seats[session.game.to_act].user_id]
        second = next(u for u in users.values() if u is not first)
        edits = menus[second.id].edit_count
        fake.clock.advance(LIFETIME + 1)
        await play_in(fake, menus[first.id], first)  # a click: a new token, the menu renewed
        await wait_settled(bot, session)
        assert session.seats[session.game.to_act].user_id == second.id
        assert menus[second.id].edit_count == edits
        [ping] = standing_pings(fake, world.table)
        assert f"<@{second.id}>" in ping.content
        assert "**Your turn**" not in menus[first.id].text and live_menus(bot).is_live(
            session, first.id)


async def test_a_person_who_just_played_is_not_pinged_when_computers_bring_the_turn_back(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 4) as bot:
        live = live_menus(bot)
        live.clock = fake.clock.now
        live.lifetime = 0  # no menu follows the game: only having just acted keeps the ping off
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   computers=2, level="Easy")
        [first] = standing_pings(fake, world.table)  # she had not acted yet
        for _ in range(4):
            menu = await show_hand(fake, session, world.alice)
            await play_in(fake, menu, world.alice)
            await wait_settled(bot, session)
            assert session.seats[session.game.to_act].user_id == world.alice.id
            assert standing_pings(fake, world.table) == []  # she played a moment ago
        fake.clock.advance(ACTIVE_FOR + 1)  # she looks away; the table changes again
        bot.get_cog("TableCommands").publisher.table_changed(session)
        await wait_settled(bot, session)
        [again] = standing_pings(fake, world.table)
        assert f"<@{world.alice.id}>" in again.content and again.id != first.id


async def test_half_time_reminds_a_player_even_when_their_menu_showed_the_turn(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"timer": "1m"})
        users = {u.id: u for u in (world.alice, world.bob)}
        menus = {u: await show_hand(fake, session, user) for u, user in users.items()}
        first = users[session.seats[session.game.to_act].user_id]
        second = next(u for u in users.values() if u is not first)
        await play_in(fake, menus[first.id], first)
        await wait_settled(bot, session)
        assert "**Your turn**" in menus[second.id].text
        assert not [m for m in standing_pings(fake, world.table) if f"<@{second.id}>" in m.content]
        clock.advance(31)  # half their minute is gone, and they have not moved
        await fake.wait_for(lambda: any(
            "Half your time" in m.content and f"<@{second.id}>" in m.content
            for m in standing_pings(fake, world.table)), timeout=5)
