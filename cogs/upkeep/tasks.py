"""Waiting for the upkeep's background tasks to end (:func:`settled`): the publisher's and
the live menus' edits and the hand menus' late pictures, at shutdown and in the tests."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any


async def settled(running: Mapping[Any, asyncio.Task[None]] | AbstractSet[asyncio.Task[None]]
                  ) -> None:
    """Wait until ``running`` (tasks, or a mapping to them) is empty: its tasks take
    themselves out as they end, by a done callback, and may start others before they do
    (the publisher's and the live menus' edits, the hand menus' late pictures).

    Each pass gives the loop a turn after the gather: from Python 3.12 a gather of tasks
    that have all ended returns without one, so the done callbacks that take them out,
    already queued, would never run and this loop would spin for ever.
    """
    while running:
        tasks = running.values() if isinstance(running, Mapping) else running
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0)
