"""Answering every interaction within Discord's 3 s deadline, whatever the load.

A click or command that reaches its handler :data:`SHED_AFTER` seconds after Discord
created it has waited behind the process's backlog: acting on it would answer late, and
the work would deepen the backlog for the clicks behind it. :func:`shed` refuses it at
once with :data:`BUSY`, privately, changing nothing (one REST call, no table touched); the
person clicks again a moment later. Shedding costs a fraction of acting, so a bot past its
capacity drains its backlog instead of answering ever later, and every answer it gives
still arrives in time (``bench.bot`` counts shed clicks apart from late ones). Meanwhile
the work that answers nobody waits for the loop (:func:`bot.load.LoopLoad.calm`).

A click that acts waits for the session's lock and for its action to be durable
(:meth:`bot.tables.actions.Actions.act`) before the menu can show the result. Usually that is a
few milliseconds and the menu is the answer itself (one REST call). Under load the
lock and the store's queue can hold it for longer, and an answer after 3 s is
refused: the person sees "This interaction failed" although their card was played.

:func:`in_time` awaits such work until :data:`ANSWER_BUDGET` seconds after Discord
created the interaction (its snowflake's time, so time spent queued before the
handler ran counts too); if the work is not done by then, the interaction is
deferred (acknowledged, "thinking") and the work goes on. :func:`edit_menu` and
:func:`send_menu` then answer either way: as the response, or, once deferred, by
editing the original message or with a followup. The work itself is never
cancelled: the action is applied and saved however late its answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord.utils import MISSING

Interaction = discord.Interaction[Any]
T = TypeVar("T")

DEADLINE = 3.0
"""Discord's: an interaction not acknowledged by then has failed."""
SHED_AFTER = 1.0
"""Seconds after an interaction was created from which its handler refuses it as busy:
the work of a click answers within about a second more even on a loaded bot, and a busy
answer goes out in a few milliseconds."""
ANSWER_BUDGET = 1.5
"""Seconds after an interaction was created by when work must be done or be deferred:
half of Discord's 3 s, leaving room for a slow defer."""

BUSY = "The table is busy; try again in a moment."
"""The answer to a click the bot is too far behind to act on in time (nothing changed)."""

log = logging.getLogger(__name__)


class Shedding:
    """Counts shed interactions and says so in the log, once in a while (a busy bot sheds
    in bursts, and a line per click would cost what shedding saves)."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self.count = 0
        self._said = 0
        self._last: float | None = None

    def note(self, old: float) -> None:
        self.count += 1
        now = time.monotonic()
        if self._last is None or now - self._last >= self.every:
            log.warning("the bot is behind: %d interaction(s) answered busy since the last "
                        "note, the latest %.1f s old", self.count - self._said, old)
            self._said, self._last = self.count, now


SHEDDING = Shedding()


async def shed(interaction: Interaction) -> bool:
    """Whether ``interaction`` came too late to be acted on in time; if so it has been
    answered :data:`BUSY` (or, already past Discord's deadline, not at all: Discord would
    refuse the answer) and must be left alone."""
    old = age(interaction)
    if old < SHED_AFTER:
        return False
    SHEDDING.note(old)
    if old < DEADLINE and not interaction.response.is_done():
        try:
            await interaction.response.send_message(BUSY, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("a busy answer was refused (%.1f s old): %s", age(interaction), exc)
    return True


async def not_shed(interaction: Interaction) -> bool:
    """The command tree's check: a slash command too late to run in time is shed too."""
    return not await shed(interaction)


def age(interaction: Interaction) -> float:
    """Seconds since Discord created ``interaction`` (never below 0: clocks drift)."""
    return max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())


async def in_time(interaction: Interaction, work: Awaitable[T], *,
                  budget: float | None = None) -> T:
    """The result of ``work``; ``interaction`` deferred first if ``work`` runs past the budget."""
    task = asyncio.ensure_future(work)
    remaining = (ANSWER_BUDGET if budget is None else budget) - age(interaction)
    if remaining > 0:
        await asyncio.wait({task}, timeout=remaining)
    if not task.done():
        await defer(interaction)
    return await task


async def defer(interaction: Interaction) -> None:
    """Acknowledge ``interaction`` now, if not yet answered; a refused defer is only logged
    (the work goes on, and its answer will say what happened or be logged in turn)."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer()
    except discord.HTTPException as exc:
        log.warning("could not defer a slow interaction (%.1f s old): %s", age(interaction), exc)


async def edit_menu(interaction: Interaction, *, content: str | None,
                    view: discord.ui.View | None,
                    attachments: list[discord.File] = MISSING) -> None:
    """Replace the clicked message (a hand menu): the response, or an edit once deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=view,
                                                 attachments=attachments)
    else:
        await interaction.response.edit_message(content=content, view=view,
                                                attachments=attachments)


async def send_menu(interaction: Interaction, content: str | None, *,
                    view: discord.ui.View, files: list[discord.File]) -> None:
    """A new ephemeral message: the response, or a followup once deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content or "", view=view, files=files, ephemeral=True)
    else:
        await interaction.response.send_message(content, view=view, files=files,
                                                ephemeral=True)
