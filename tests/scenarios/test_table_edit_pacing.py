"""A table played fast is shown a few moves at a time: at most one edit per interval.

``TABLE_EDIT_INTERVAL`` paces the edits of one table message, so moves made faster
than that (people clicking at once, computers without delay) share an edit, and the
last edit always shows the table as it is after the last move.

The publisher paces its edits on a clock of its own, which this test moves: the moves
come at set moments of that clock and every wait of the publisher ends only when the
test moves the clock past it, so the edits' moments are exact, however busy the machine.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cogs.upkeep.publisher import Publisher
from tests.botdriver import open_table, running_bot, table_message, until, wait_settled
from tests.fakediscord.fixtures import FakeWorld

INTERVAL = 0.6
MOVES = 6
BETWEEN_MOVES = 0.15  # six moves in under a second


class PacingClock:
    """The publisher's clock, moved only by the test; a sleep on it ends once the test has
    moved the clock to its end (:meth:`advance`)."""

    def __init__(self, now: float) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    @property
    def sleeping(self) -> int:
        return len(self._sleepers)

    async def sleep(self, seconds: float) -> None:
        sleeper = (self.now + seconds, asyncio.get_running_loop().create_future())
        self._sleepers.append(sleeper)
        try:
            await sleeper[1]
        finally:
            if sleeper in self._sleepers:  # cancelled (the bot stopping)
                self._sleepers.remove(sleeper)

    async def advance(self, seconds: float, settled: Callable[[], Awaitable[None]]) -> None:
        """Move the clock ``seconds`` on, waking each sleep at its own end, in order, and
        awaiting ``settled()`` after each before the clock goes on."""
        end = self.now + seconds
        while self._sleepers and (first := min(self._sleepers, key=lambda s: s[0]))[0] <= end:
            self._sleepers.remove(first)
            self.now = max(self.now, first[0])
            first[1].set_result(None)
            await settled()
        self.now = end


async def test_fast_moves_share_edits_one_interval_apart_and_the_last_shows_the_end(
        fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, table_edit_interval=INTERVAL) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        await wait_settled(bot, session)
        message = table_message(fake, session)
        publisher: Publisher = bot.get_cog("TableCommands").publisher  # type: ignore[union-attr]
        # From an interval after the real clock's now: the edits of the start are past.
        start = publisher.monotonic() + INTERVAL
        clock = PacingClock(start)
        publisher.monotonic, publisher.sleep = clock, clock.sleep

        async def publisher_waits() -> None:
            """Until the table's edit is sent, or waits its turn on the clock."""
            await until(lambda: len(publisher._running) == clock.sleeping, 10,
                        "the publisher to edit the table or wait its turn")

        edits: list[float] = []  # when each edit of the table message reached Discord
        real_edit = fake.edit_message

        async def edit_message(edited: Any, *args: Any, **kwargs: Any) -> None:
            if edited.id == message.id:
                edits.append(clock.now)
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
            await publisher_waits()
            await clock.advance(BETWEEN_MOVES, publisher_waits)
        await clock.advance(INTERVAL, publisher_waits)  # the last wait ends
        await wait_settled(bot, session)

        # Six moves 0.15 s apart, not six edits: the first at once, each next one an
        # interval after the one before, showing every move made meanwhile.
        assert len(edits) == 3, edits
        gaps = [later - earlier for earlier, later in itertools.pairwise(edits)]
        assert edits[0] == start and gaps == pytest.approx([INTERVAL, INTERVAL]), edits
        game = session.game
        assert game is not None and game.to_act is not None
        to_act = session.seats[game.to_act].user_id
        assert f"<@{to_act}>'s turn" in message.text  # the last edit shows the last move
        assert any(event in message.text for event in list(session.recent)[-1:])
