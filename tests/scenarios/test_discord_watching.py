"""Beyond one table: ``/tables`` and watching a game, through the fake Discord.

``/tables`` lists the server's open tables a person may see, newest first, with ``Join``
and ``Watch``; ``Watch`` gives a private view of the public table that the bot keeps up
to date, never a hand, and that a restart does not lose.
"""

from __future__ import annotations

import random

from bot.models import TableStatus
from bot.tables.watching import SEATED
from cogs import ids
from cogs.clicks.browsing import HIDDEN, NOT_ON_TABLE, NOT_YOURS
from tests.answers import answered_privately, updated_the_menu
from tests.botdriver import (
    enabled_choices,
    live_menus,
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    take_turn,
    wait_settled,
)
from tests.custom_ids import is_card, kind_of
from tests.fakediscord import StoredMessage
from tests.fakediscord.fixtures import FakeWorld


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


async def lobby_in(fake, bot, host, channel, game: str = "fiasco"):
    result = await fake.slash(host, channel, f"play {game}")
    assert result.message is not None and not result.ephemeral, result
    return session_in(bot, channel)


async def watch(fake, session, user) -> StoredMessage:
    """``user`` presses Watch on the table message: their private view."""
    shown = await fake.click(user, table_message(fake, session), "Watch")
    assert answered_privately(shown) and shown.message is not None, shown
    return shown.message


async def test_tables_lists_the_servers_tables_newest_first_with_join_and_watch(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    other = fake.add_guild("Another server")
    elsewhere = fake.add_channel(other, "far-away")
    dave = fake.add_user("dave", guild=other)
    async with running_bot(fake, tmp_path) as bot:
        game = await open_table(fake, bot, world.alice, world.table, "fiasco", computers=1)
        lobby = await lobby_in(fake, bot, world.bob, world.lobby, "fazes")
        await lobby_in(fake, bot, dave, elsewhere)  # another server's: never listed here

        shown = await fake.slash(world.carol, world.lobby, "tables")
        assert answered_privately(shown), shown
        text = shown.message.text
        first, second = text.index("1. Fazes"), text.index("2. Fiasco")
        assert first < second  # newest first
        assert "far-away" not in text and text.count("**") == 4  # two tables, no third
        assert f"/{world.guild.id}/{world.lobby.id}/{lobby.table.message_id}" in text
        assert f"/{world.guild.id}/{world.table.id}/{game.table.message_id}" in text
        assert "1 person · 7 free seats" in text  # Fazes seats 3 to 8
        turn = game.seats[game.to_act()].label
        assert f"1 person, 1 computer · {turn}'s turn · running for" in text
        assert [b.label for b in shown.message.buttons] == ["1 · Join", "2 · Watch"]

        # The host of the lobby is seated there, and the player at the game plays it.
        mine = await fake.slash(world.bob, world.lobby, "tables")
        assert [b.label for b in mine.message.buttons] == ["2 · Watch"]
        theirs = await fake.slash(world.alice, world.lobby, "tables")
        assert [b.label for b in theirs.message.buttons] == ["1 · Join"]

        joined = await fake.click(world.carol, shown.message, "1 · Join")
        assert updated_the_menu(joined), joined
        assert joined.message.content.startswith("You joined the table. https://discord.com")
        assert lobby.seat_of(world.carol.id) is not None
        assert "2 people · 6 free seats" in shown.message.text
        assert [b.label for b in shown.message.buttons] == ["2 · Watch"]


async def test_tables_shows_only_channels_the_asker_can_see(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    world.table.hidden_from.add(world.carol.id)
    async with running_bot(fake, tmp_path) as bot:
        game = await open_table(fake, bot, world.alice, world.table, "fiasco", computers=1)
        hidden = await fake.slash(world.carol, world.lobby, "tables")
        assert answered_privately(hidden) and "No open table here" in hidden.message.text
        seen = await fake.slash(world.bob, world.lobby, "tables")
        assert "1. Fiasco" in seen.message.text

        # A Watch or Join forged for that table is refused: she may not even look.
        for forged in (ids.listed_id(game.id, "watch"), ids.listed_id(game.id, "join")):
            refused = await fake.click(world.carol, hidden.message, forged, force=True)
            assert answered_privately(refused) and refused.text == sentence(HIDDEN), refused
        assert not game.watchers and game.seat_of(world.carol.id) is None


async def test_a_server_with_many_tables_pages_them(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    channels = [fake.add_channel(world.guild, f"table-{i}") for i in range(12)]
    async with running_bot(fake, tmp_path, max_tables_per_host=20) as bot:
        for channel in channels:
            await lobby_in(fake, bot, world.alice, channel)
        shown = await fake.slash(world.bob, world.lobby, "tables")
        first = shown.message
        assert "Page 1 of 2 · 12 tables" in first.text
        assert "**10. Fiasco**" in first.text and "**11." not in first.text
        assert channels[-1].name not in first.text  # links, not names
        assert f"/{channels[-1].id}/" in first.text.split("**2.")[0]  # the newest first
        assert [b.label for b in first.buttons][-2:] == ["Previous", "Next"]
        assert first.button("Previous").disabled

        turned = await fake.click(world.bob, first, "Next")
        assert updated_the_menu(turned), turned
        assert "Page 2 of 2" in first.text and "**11. Fiasco**" in first.text
        assert "**12. Fiasco**" in first.text and "**10." not in first.text
        assert f"/{channels[0].id}/" in first.text  # the oldest last
        assert first.button("Next").disabled
        back = await fake.click(world.bob, first, "Previous")
        assert updated_the_menu(back) and "Page 1 of 2" in first.text


async def test_a_watcher_follows_the_public_table_and_never_sees_a_hand(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    rng = random.Random(5)
    async with running_bot(fake, tmp_path, seed_source=lambda: 7) as bot:
        live_menus(bot).clock = fake.clock.now
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1)
        view = await watch(fake, session, world.carol)
        assert view.text.startswith("**Watching Fumblaroo")
        assert [b.label for b in view.buttons] == ["Refresh", "Stop watching"]
        assert {kind_of(b.custom_id) for b in view.buttons} == {"watching"}
        await wait_settled(bot, session)
        assert "1 watching" in table_message(fake, session).text
        assert session.watchers == {world.carol.id}

        # The game goes on; her view follows it, move by move, without a click of hers.
        people = {world.alice.id: world.alice, world.bob.id: world.bob}
        for _ in range(3):
            edits = view.edit_count
            await wait_settled(bot, session)
            person = people[session.seats[session.to_act()].user_id]
            await take_turn(fake, session, person, rng)
            await wait_settled(bot, session)
            assert view.edit_count > edits
            assert f"**Watching {session.game.title}" in view.text
            assert session.recent[-1] in view.text

        # She cannot act: no hand for her, and a card forged from a player's menu is refused.
        hand = await fake.click(world.carol, table_message(fake, session), "Show my hand")
        assert answered_privately(hand) and "not seated" in hand.text, hand
        seat = session.to_act()
        player = people[session.seats[seat].user_id]
        menu = await fake.click(player, table_message(fake, session), "Show my hand")
        card = next(c for c in enabled_choices(menu.message) if is_card(c))
        version = session.version
        forged = await fake.click(world.carol, view, card, force=True)
        assert "not seated" in forged.text and session.version == version, forged
        assert session.to_act() == seat

        await play_to_the_end(fake, bot, session, people, rng)
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.FINISHED
        assert "Game over" in view.text and not view.buttons  # watching ended with the game
        late = await fake.click(world.carol, view, ids.watching_id(session.id, "refresh"),
                                force=True)
        assert updated_the_menu(late) and "This game is over" in late.text, late


async def test_a_seated_player_may_not_watch_and_watch_comes_from_the_table(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=1)
        refused = await fake.click(world.alice, table_message(fake, session), "Watch")
        assert answered_privately(refused) and refused.text == sentence(SEATED), refused
        # Watch copied onto another message (a forged click) is refused.
        other = await fake.slash(world.carol, world.table, "tables")
        forged = await fake.click(world.carol, other.message, ids.watch_id(session.id),
                                  force=True)
        assert answered_privately(forged) and forged.text == sentence(NOT_ON_TABLE), forged
        # The list's Watch belongs on the person's own list, never on a public message.
        public = await fake.click(world.carol, table_message(fake, session),
                                  ids.listed_id(session.id, "watch"), force=True)
        assert answered_privately(public) and public.text == sentence(NOT_YOURS), public
        assert not session.watchers


async def test_stop_watching_and_watching_again_after_a_restart(fake_world: FakeWorld,
                                                                 tmp_path):
    world, fake = fake_world, fake_world.fake
    rng = random.Random(2)
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=1)
        view = await watch(fake, session, world.carol)
        listed = await fake.slash(world.carol, world.lobby, "tables")
        assert "1 watching" in listed.message.text
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        session = session_in(bot, world.table)
        assert not session.watchers  # kept in memory only
        back = await fake.click(world.carol, view, "Refresh")
        assert updated_the_menu(back) and back.message is view, back
        assert session.watchers == {world.carol.id}
        await wait_settled(bot, session)
        assert "1 watching" in table_message(fake, session).text
        edits = view.edit_count
        person = {world.alice.id: world.alice, world.bob.id: world.bob}[
            session.seats[session.to_act()].user_id]
        await take_turn(fake, session, person, rng)
        await wait_settled(bot, session)
        assert view.edit_count > edits  # followed again

        stopped = await fake.click(world.carol, view, "Stop watching")
        assert updated_the_menu(stopped) and "You stopped watching" in view.text
        assert not view.buttons and not session.watchers
        await wait_settled(bot, session)
        assert "watching" not in table_message(fake, session).text
