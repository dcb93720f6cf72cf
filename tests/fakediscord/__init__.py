"""A fake Discord (REST + gateway on 127.0.0.1) that the real discord.py client connects to.

Typical use (see `fixtures.py` for the ready-made `fake_discord` fixture)::

    async with FakeDiscord() as fake:          # starts the server and patches discord.py
        guild = fake.add_guild()
        table = fake.add_channel(guild, "table")
        alice = fake.add_user("alice")
        async with fake.run_client(bot):        # bot.start(token) until on_ready
            result = await fake.slash(alice, table, "play fiasco")
            assert result.ephemeral
            await fake.click(alice, fake.last_message(table), "Join")
    fake.assert_no_violations()
"""

from .core import DiscordAPIError, FakeClock, RequestRecord, Violation
from .messages import (
    Button,
    Select,
    SelectOption,
    StoredAttachment,
    StoredMessage,
    buttons,
    selects,
    visible_text,
)
from .server import FakeDiscord
from .users import InteractionNotAnswered, InteractionResult
from .world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

__all__ = [
    "Button",
    "DiscordAPIError",
    "FakeChannel",
    "FakeClock",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "InteractionNotAnswered",
    "InteractionResult",
    "RequestRecord",
    "Select",
    "SelectOption",
    "StoredAttachment",
    "StoredMessage",
    "Violation",
    "buttons",
    "selects",
    "visible_text",
]
