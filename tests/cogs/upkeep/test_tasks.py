"""Waiting for the upkeep's background tasks to end (cogs.upkeep.tasks.settled)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from cogs.upkeep.tasks import settled


@pytest.mark.parametrize("kind", ["mapping", "set"])
def test_settled_gives_ended_tasks_the_turn_that_takes_them_out(kind: str) -> None:
    """A task that has ended is still listed until its done callback, already queued, has
    run. From Python 3.12 gathering only ended tasks does not give the loop a turn, so
    without one of its own :func:`settled` would spin for ever (the bot's shutdown and
    the tests' waits hung so). Run in a thread of its own, so that a spin fails the test
    rather than hanging the suite."""
    outcome: list[str] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        ended: asyncio.Future[None] = loop.create_future()
        ended.set_result(None)
        # As a task's done callback does: queued when it ended, run at the loop's next turn.
        running: Any
        if kind == "mapping":
            running = {"table": ended}
            loop.call_soon(running.pop, "table")
        else:
            running = {ended}
            loop.call_soon(running.discard, ended)
        await settled(running)
        outcome.append("settled")

    thread = threading.Thread(target=asyncio.run, args=(scenario(),), daemon=True)
    thread.start()
    thread.join(10)
    assert outcome == ["settled"]
