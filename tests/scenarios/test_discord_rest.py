"""The bot's REST calls go on kept connections (bot/rest.py), through the fake Discord.

Every call of a game played by clicks, its pictures' uploads among them, is made by
:class:`bot.rest.RestSession`: it counts what it made, and the fake what it got.
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.rest import RestSession
from tests.botdriver import open_table, running_bot, take_turn, wait_settled
from tests.fakediscord.fixtures import FakeWorld


async def test_every_rest_call_of_a_game_uploads_and_all_goes_on_kept_connections(
        fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 5) as bot:
        lean = bot.http._HTTPClient__session  # type: ignore[attr-defined]
        assert isinstance(lean, RestSession)
        before, seen = lean.calls, len(fake.requests)

        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=2)
        rng = random.Random(5)
        people = {world.alice.id: world.alice, world.bob.id: world.bob}
        for _ in range(6):
            game = session.game
            assert game is not None and game.to_act is not None and not game.over
            person = people.get(session.seats[game.to_act].user_id or 0)
            if person is not None:
                await take_turn(fake, session, person, rng)
            await wait_settled(bot, session)

        made = fake.requests[seen:]
        uploads = [r for r in made if r.files]
        assert len(made) >= 12 and uploads, [(r.method, r.path) for r in made]
        assert lean.calls - before == len(made)
        assert lean.idle_connections() >= 1
        assert lean.opened * 3 <= lean.calls, "the connections were not kept"
