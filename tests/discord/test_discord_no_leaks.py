"""Nothing leaks and nothing crosses: what a hostile member or a cheating player could try
through a real client, each refused privately and changing nothing."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.answers import answered_privately
from tests.botdriver import (
    add_computer,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    wait_settled,
)
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
        assert bot.sessions.in_channel(world.table.id) is None
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
