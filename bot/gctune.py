"""The garbage collector tuned for one long-running bot process with many tables.

CPython's cyclic collector runs when allocations outnumber deallocations by 700
(generation 0); every tenth of those also scans generation 1, and generation 2 (every
object that survived, start-up included) is scanned when it has grown by a quarter.
A busy bot allocates thousands of short-lived objects per interaction (payloads,
views, embeds), so the young collections run hundreds of times a second, and every
full one walks the whole heap (discord.py's caches, the modules, every open table)
while no interaction is answered. Three things keep those pauses short:

- :func:`tune` raises the young threshold, so short-lived objects mostly die by
  reference counting before a collection looks at them, and collects the middle
  generation four times less often than CPython would: under a backlog a click's
  objects outlive a young collection or two, and most die before the middle one;
- :func:`freeze_after_start` moves everything alive once the bot is ready (modules,
  caches, resumed tables) into the permanent generation, which no collection walks;
- :class:`PauseMeter` times every collection and logs a warning for one that held the
  event loop longer than :data:`SLOW_PAUSE`, so an operator sees it happen.

Only ``python -m bot`` calls these (not the tests, which run many bots in one process).
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 50_000
"""Allocations (net of those freed) before a generation-0 collection (CPython's default
is 700). A young collection walks every object still alive since the last one, and
under a backlog that is mostly the clicks in flight, which die soon after: the longer
the wait, the fewer of them it walks and moves up. Measured at 500 saturated tables
against 10,000 (docs/performance.md): the collector's share of the bot's CPU 5.8 %
against 10.1 %, the CPU an interaction 0.89 of before, memory a table unchanged (since
a click's own cycles are cut, :func:`cogs.discord_internals.let_go`, little
garbage waits for it)."""
MIDDLE_THRESHOLD = 40
"""Young collections before a middle one (CPython's default is 10). Measured at 500
saturated tables (docs/performance.md): the collector's share of the bot's CPU 10.4 %
against 12.8 %, its longest pause 178 against 319 ms, memory a table unchanged."""
SLOW_PAUSE = 0.1
"""Seconds: a collection longer than this is logged."""


def tune() -> None:
    """Collect the young and the middle generations less often; the old as CPython does."""
    _, _, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, old)


def freeze_after_start() -> int:
    """Collect once, then exempt every surviving object from later collections.

    Called once the bot is connected and its tables resumed; returns how many objects
    were frozen. Objects freed later are still freed by reference counting. The
    collection made here, before any table is played, is not one :data:`METER` counts.
    """
    gc.collect()
    gc.freeze()
    METER.reset()
    return gc.get_freeze_count()


class PauseMeter:
    """Times each collection through :data:`gc.callbacks`; keeps the longest.

    Two clocks: the wall clock (how long the event loop was held) and the thread's CPU
    time (the collector's own work, which a busy machine does not stretch).
    """

    def __init__(self) -> None:
        self.longest = 0.0
        self.longest_cpu = 0.0
        self.collections = 0
        self.by_generation = [0, 0, 0]
        """Collections of each generation (0, 1, 2: a full one)."""
        self.cpu_by_generation = [0.0, 0.0, 0.0]
        """Seconds of CPU the collector spent in each generation's collections, in all."""
        self._started = (0.0, 0.0)

    def reset(self) -> None:
        self.longest, self.longest_cpu, self.collections = 0.0, 0.0, 0
        self.by_generation = [0, 0, 0]
        self.cpu_by_generation = [0.0, 0.0, 0.0]

    def install(self) -> None:
        gc.callbacks.append(self)

    def uninstall(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
            return
        pause = time.perf_counter() - self._started[0]
        cpu = time.thread_time() - self._started[1]
        generation = min(max(int(info.get("generation", 0)), 0), 2)
        self.collections += 1
        self.by_generation[generation] += 1
        self.cpu_by_generation[generation] += cpu
        self.longest = max(self.longest, pause)
        self.longest_cpu = max(self.longest_cpu, cpu)
        if pause > SLOW_PAUSE:
            log.warning("a garbage collection (generation %s) held the bot for %.0f ms",
                        info.get("generation"), pause * 1000)


METER = PauseMeter()
"""The process's one meter (installed by ``python -m bot``)."""
