"""A table played fast is shown a few moves at a time: at most one edit per interval.

``TABLE_EDIT_INTERVAL`` paces the edits of one table message, so moves made faster
than that (people clicking at once, computers without delay) share an edit, and the
last edit always shows the table as it is after the last move.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

from tests.botdriver import open_table, running_bot, table_message, wait_settled
from tests.fakediscord.fixtures import FakeWorld

INTERVAL = 0.6
MOVES = 6
BETWEEN_MOVES = 0.15  # six moves in under a second
JITTER = 0.15  # what a busy machine may add to one edit's way to Discord and not the next's


async def test_fast_moves_share_edits_one_interval_apart_and_the_last_shows_the_end(
        fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, table_edit_interval=INTERVAL) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        message = table_message(fake, session)
        edits: list[float] = []
        real_edit = fake.edit_message

        async def edit_message(edited: Any, *args: Any, **kwargs: Any) -> None:
            # When the edit reached Discord, as the bot paces them (from when each is
            # sent), not when Discord was done with it: on a busy machine that can come a
            # loop's turn or more later for one edit than for the next.
            if edited.id == message.id:
                edits.append(asyncio.get_running_loop().time())
            await real_edit(edited, *args, **kwargs)

        fake.edit_message = edit_message  # type: ignore[method-assign]
        rng = random.Random(3)
        for _ in range(MOVES):
            game = session.game
            assert game is not None and game.to_act is not None and not game.over
            seat = game.to_act
            user = session.seats[seat].user_id
            assert user is not None
            await bot.tables.actions.act(session, user, rng.choice(game.legal_actions(seat)),
                                         version=session.version)
            await asyncio.sleep(BETWEEN_MOVES)
        await wait_settled(bot, session)

        assert 1 <= len(edits) <= 3, edits  # six moves, not six edits
        gaps = [later - earlier for earlier, later in itertools.pairwise(edits)]
        # The bot sends them an interval apart; each reaches the fake a little after it was
        # sent, by up to a loop's turn on a busy machine (JITTER), and unpaced edits would
        # come BETWEEN_MOVES apart.
        assert all(gap >= INTERVAL - JITTER for gap in gaps), gaps
        game = session.game
        assert game is not None and game.to_act is not None
        to_act = session.seats[game.to_act].user_id
        assert f"<@{to_act}>'s turn" in message.text  # the last edit shows the last move
        assert any(event in message.text for event in list(session.recent)[-1:])
