"""How far behind the event loop is, so that answers to clicks go first and the rest waits.

One event loop serves every table of the process. Past its capacity, work queues on it,
and Discord's deadline (an interaction acknowledged within 3 s) is missed by whatever
queued longest. Two things keep the deadline however loaded the bot is: a click that
arrives too late to be acted on in time is refused at once, cheaply ("the table is busy",
:mod:`cogs.clicks.deadline`), and everything that answers nobody waits while the loop is
behind: table edits, menus that follow the game, computer turns (:func:`calm`). A click's
first response then has the loop to itself: the priority lane is everything else
stepping aside.

:class:`LoopLoad` measures the loop's *lag*: a task asks to wake every
:data:`INTERVAL` seconds and notes how late it woke. A loop with time to spare wakes it
on time; a loop with a backlog runs every callback queued before it first. Lag is
measured on the bot's own clock (no trust in Discord's), costs one wake-up per
interval, and rises within one interval of the loop falling behind.

One monitor serves the process (:data:`LOAD`): :func:`bot.app.FivefoldBot.setup_hook`
starts it on the bot's loop and ``close`` stops it. Where it is not running (the tests'
table service without a bot), :func:`calm` never waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)

INTERVAL = 0.05
"""Seconds between two looks at the loop's lag."""
BEHIND = 0.1
"""Lag, in seconds, from which the loop counts as behind: work that answers nobody waits."""
CALM_AT_MOST = 2.0
"""Seconds a piece of background work waits for the loop at most, so that nothing is held
back for good by a loop that never catches up (it then goes, a little late)."""


class LoopLoad:
    """The running loop's lag, and a way for background work to wait until it is small."""

    def __init__(self, *, interval: float = INTERVAL, behind: float = BEHIND) -> None:
        self.interval = interval
        self.behind_at = behind
        self.lag = 0.0
        self.peak = 0.0  # the largest lag seen since start (logged at stop)
        self.samples = 0  # looks at the loop since start
        self.waits = 0  # pieces of work that waited for the loop (logged at stop)
        self._calm = asyncio.Event()
        self._calm.set()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def behind(self) -> bool:
        """Whether the loop is behind now (work that answers nobody should wait)."""
        return self._watching() and self.lag >= self.behind_at

    def start(self) -> None:
        """Watch the running loop (again, if watching another one that has ended)."""
        loop = asyncio.get_running_loop()
        if self._watching() and self._loop is loop:
            return
        self._loop, self.lag, self.peak, self.waits, self.samples = loop, 0.0, 0.0, 0, 0
        self._calm = asyncio.Event()  # an event belongs to the loop that first waits on it
        self._calm.set()
        self._task = loop.create_task(self._watch(), name="loop-load")

    def stop(self) -> None:
        task, self._task, self._loop = self._task, None, None
        if task is not None:
            task.cancel()
            log.info("the event loop was at most %.0f ms behind; background work waited for "
                     "it %d time(s)", self.peak * 1000, self.waits)
        self.lag = 0.0
        self._calm.set()

    def _watching(self) -> bool:
        if self._task is None or self._task.done():
            return False
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            self.lag = max(0.0, loop.time() - asked)
            self.peak = max(self.peak, self.lag)
            self.samples += 1
            if self.lag >= self.behind_at:
                self._calm.clear()
            else:
                self._calm.set()

    async def calm(self, at_most: float = CALM_AT_MOST) -> None:
        """Return once the loop is not behind (at once if it is not), or after ``at_most``
        seconds whatever the loop does."""
        if not self.behind:
            return
        self.waits += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._calm.wait(), at_most)


LOAD = LoopLoad()
"""The process's monitor."""


__all__ = ["BEHIND", "CALM_AT_MOST", "INTERVAL", "LOAD", "LoopLoad"]
