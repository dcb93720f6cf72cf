"""Nothing leaks and nothing crosses: what a hostile member or a cheating player could try
through a real client, each refused privately and changing nothing."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.answers import answered_privately
from tests.botdriver import (
    add_computer,
    menus_never_follow,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    wait_settled,
)
from tests.fakediscord import StoredMessage
from tests.fakediscord.fixtures import FakeWorld


async def test_odd_option_values_get_a_plain_refusal(fake_world: FakeWorld, tmp_path: Path,
                                                     caplog) -> None:
    """``"²"`` and 5,000 digits pass ``str.isdigit`` but not ``int()``: refused in words."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        for given, quoted in (("²", '"²"'), ("1" * 5000, '"' + "1" * 23 + "…\""),
                              ("2,٣", None)):
            refused = await fake.slash(world.alice, world.table, "play fazes",
                                       {"fazes": given})
            assert answered_privately(refused), refused
            assert "Those Fazes options will not do: `fazes` was given" in refused.text
            assert quoted is None or quoted in refused.text
            assert len(refused.text) < 200
        assert bot.tables.registry.in_channel(world.table.id) is None
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_status_in_a_direct_message_names_no_server(fake_world: FakeWorld,
                                                          tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path):
        opened = await fake.slash(world.alice, world.table, "play fiasco")
        assert not opened.ephemeral
        answer = await fake.slash(world.carol, fake.dm_channel(world.carol), "status", {})
        assert answered_privately(answer), answer
        assert "use it in one" in answer.text and "Open tables" not in answer.text


EVIL = "[Claim your prize](https://evil.example/x)"
"""A display name that, written as it is, becomes a link in any message."""
ESCAPED = r"\[Claim your prize](https://evil.example/x)"


def unescaped_link(text: str) -> bool:
    """Whether ``text`` holds the name as a live markdown link (its ``[`` not escaped)."""
    return re.search(r"(?<!\\)\[Claim your prize\]\(", text) is not None


async def test_display_names_are_written_escaped_everywhere(fake_world: FakeWorld,
                                                           tmp_path: Path) -> None:
    """The lobby, the table, its picture's alt text, a hand menu and the result write a
    name with markdown in it escaped, so it shows as typed and never as a link."""
    world, fake = fake_world, fake_world.fake
    mallory = fake.add_user(EVIL)
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(mallory, world.table, "play fiasco")
        session = session_in(bot, world.table)
        await fake.click(world.bob, table_message(fake, session), "Join")
        await add_computer(fake, session, mallory)
        await wait_settled(bot, session)
        lobby = table_message(fake, session)
        assert ESCAPED in lobby.text and not unescaped_link(lobby.text)
        await fake.click(mallory, lobby, "Start")
        await wait_settled(bot, session)
        shown = table_message(fake, session)
        assert ESCAPED in shown.text and not unescaped_link(shown.text)
        alt = " ".join(a.description or "" for a in shown.attachments)
        assert ESCAPED in alt and not unescaped_link(alt)
        menu = await fake.click(world.bob, shown, "Show my hand")
        assert not unescaped_link(menu.text)
        users = {mallory.id: mallory, world.bob.id: world.bob}
        await play_to_the_end(fake, bot, session, users, random.Random(5))
        await wait_settled(bot, session)
        await fake.wait_for(lambda: any("is over" in m.content
                                        for m in fake.public_messages(world.table)))
        written = [m.text for m in fake.public_messages(world.table)]
        assert any(ESCAPED in text for text in written)
        assert not any(unescaped_link(text) for text in written)


async def test_a_button_forged_elsewhere_reaches_no_table(fake_world: FakeWorld,
                                                          tmp_path: Path) -> None:
    """A custom id names its table, but only the table's own message (or the clicker's
    own menu) in the table's channel may use it: a forged ``ff:<table>:join`` from another
    server, or from another message of the channel, changes nothing and reads nothing."""
    world, fake = fake_world, fake_world.fake
    other = fake.add_guild("Elsewhere")
    yard = fake.add_channel(other, "yard")
    olga = fake.add_user("olga", guild=other)  # not a member of the table's server
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        lobby = session_in(bot, world.table)
        await fake.slash(olga, yard, "play fumblaroo")
        hers = table_message(fake, session_in(bot, yard))
        seats = [s.model_dump() for s in lobby.seats]
        for verb in ("join", "v:details", "v:rules", "cpu:hard", "hand"):
            forged = await fake.click(olga, hers, f"ff:{lobby.id}:{verb}", force=True)
            assert answered_privately(forged), forged
            assert "another channel" in forged.text, (verb, forged.text)
        assert [s.model_dump() for s in lobby.seats] == seats
        # In the table's channel, but on a message that is not the table's.
        note = await fake.slash(world.bob, world.table, "play fiasco")
        assert note.ephemeral and "already a table here" in note.text
        await fake.click(world.bob, table_message(fake, lobby), "Join")
        await add_computer(fake, lobby, world.alice)
        menus_never_follow(bot)  # the turn is then told by a ping: another public message
        await fake.click(world.alice, table_message(fake, lobby), "Start")
        await wait_settled(bot, lobby)

        def pings() -> list[StoredMessage]:
            return [m for m in fake.public_messages(world.table)
                    if "it is your turn" in m.content]

        await fake.wait_for(lambda: bool(pings()))
        turn = pings()[-1]
        for verb in ("hand", "v:details"):
            forged = await fake.click(world.carol, turn, f"ff:{lobby.id}:{verb}", force=True)
            assert answered_privately(forged) and "not on this table's message" in forged.text
        # The table's own message still answers.
        details = await fake.click(world.carol, table_message(fake, lobby), "Details")
        assert answered_privately(details) and "**Log**" in details.text


async def test_a_lobby_kick_holds_and_the_host_removes_any_computer(fake_world: FakeWorld,
                                                                    tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        lobby = session_in(bot, world.table)
        for person in (world.bob, world.carol):
            await fake.click(person, table_message(fake, lobby), "Join")
        kicked = await fake.slash(world.alice, world.table, "kick", {"player": world.bob.id})
        assert answered_privately(kicked) and "may not join it again" in kicked.text
        again = await fake.click(world.bob, table_message(fake, lobby), "Join")
        assert answered_privately(again) and "removed you from this table" in again.text
        typed = await fake.slash(world.bob, world.table, "join", {})
        assert answered_privately(typed) and "removed you" in typed.text
        assert lobby.seat_of(world.bob.id) is None
        # Carol adds a computer; only the host may take it off, by its seat number.
        await add_computer(fake, lobby, world.carol)
        assert [s.is_computer for s in lobby.seats] == [False, False, True]
        not_host = await fake.slash(world.carol, world.table, "kick", {"seat": 3})
        assert answered_privately(not_host) and "only the host" in not_host.text.lower()
        removed = await fake.slash(world.alice, world.table, "kick", {"seat": 3})
        assert answered_privately(removed) and "Computer 1 (hard) left" in removed.text
        assert [s.user_id for s in lobby.seats] == [world.alice.id, world.carol.id]
        await wait_settled(bot, lobby)
        assert "Computer 1" not in table_message(fake, lobby).text
        # In a game a computer's seat stays.
        await add_computer(fake, lobby, world.alice)
        await fake.click(world.alice, table_message(fake, lobby), "Start")
        await wait_settled(bot, lobby)
        stays = await fake.slash(world.alice, world.table, "kick", {"seat": 3})
        assert answered_privately(stays) and "to the end of the game" in stays.text
        assert len(lobby.seats) == 3
