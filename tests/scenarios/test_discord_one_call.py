"""One REST call per click where the answer is the clicked message itself.

A click on the lobby (Join, Leave, ...) is answered by the lobby as it now is, Discord's
UPDATE_MESSAGE, rather than an acknowledgement followed by an edit of the message; the
publisher then has nothing left to edit. (A hand menu's click is the menu's own update:
``tests/scenarios/test_discord_deadline.py``.)
"""

from __future__ import annotations

from tests.answers import updated_the_message
from tests.botdriver import running_bot, session_in, wait_settled
from tests.fakediscord.fixtures import FakeWorld


async def test_a_lobby_button_is_answered_by_the_lobby_itself_in_one_call(
        fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        opened = await fake.slash(world.alice, world.table, "play fiasco")
        lobby = opened.message
        assert lobby is not None and not opened.ephemeral, opened
        session = session_in(bot, world.table)
        await wait_settled(bot, session)
        requests = len(fake.requests)

        joined = await fake.click(world.bob, lobby, "Join")

        assert updated_the_message(joined) and not joined.ephemeral, joined
        assert world.bob.name in lobby.text and session.seats[1].user_id == world.bob.id
        await wait_settled(bot, session)
        calls = [(r.method, r.path) for r in fake.requests[requests:]]
        assert calls == [("POST", f"/interactions/{joined.id}/{joined.record.token}/callback")]

        left = await fake.click(world.bob, lobby, "Leave")
        assert updated_the_message(left) and world.bob.name not in lobby.text, left
