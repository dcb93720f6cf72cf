"""An answered click's discord.py objects are freed by reference counting, not left to the
garbage collector.

discord.py ties each ``Interaction`` to its ``InteractionResponse`` and each item of the
view it builds from the clicked message to that view: reference cycles, which keep the
message, the member and every component alive until a collection finds them. The click's
router breaks both once the click is answered
(:func:`cogs.discord_internals.let_go`). Here the collector is switched off while
people play: whatever discord.py objects are left after the clicks are exactly what a
cycle keeps.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import discord

from tests.answers import updated_the_menu
from tests.botdriver import enabled_choices, open_table, running_bot, table_message, wait_settled
from tests.fakediscord.fixtures import FakeWorld
from tests.scenarios.test_discord_game import shortest_options

MOVES = 12


def alive(kind: type) -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, kind))


@contextmanager
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def test_answered_clicks_leave_no_cycles_behind(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    people = [world.alice, world.bob]
    async with running_bot(fake, tmp_path, seed_source=lambda: 11) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fibonachos",
                                   people=[world.bob], options=shortest_options("fibonachos"))
        users = {u.id: u for u in people}
        clicks = 0
        with no_collector():
            interactions, views = alive(discord.Interaction), alive(discord.ui.View)
            for _ in range(MOVES):
                await wait_settled(bot, session)
                if session.game.over:
                    break
                user = users[session.seats[session.game.to_act].user_id]
                shown = await fake.click(user, table_message(fake, session), "Show my hand")
                assert shown.ephemeral and shown.message is not None, shown
                played = await fake.click(user, shown.message, enabled_choices(shown.message)[0])
                assert updated_the_menu(played), played
                clicks += 2
            await wait_settled(bot, session)
            left = alive(discord.Interaction) - interactions
            views_left = alive(discord.ui.View) - views
        assert clicks >= 8
        # Each person's latest menu is kept to follow the game (its interaction's token
        # edits it): one interaction a person, none for the other clicks.
        assert left <= len(people), (left, clicks)
        assert views_left == 0, views_left
