"""Answering every interaction within Discord's 3 s deadline, whatever the load.

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
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord.utils import MISSING

Interaction = discord.Interaction[Any]
T = TypeVar("T")

ANSWER_BUDGET = 1.5
"""Seconds after an interaction was created by when work must be done or be deferred:
half of Discord's 3 s, leaving room for a slow defer."""

BUSY = "The table is busy; try again in a moment."
"""The answer to a click the bot is too far behind to act on in time (nothing changed)."""

log = logging.getLogger(__name__)


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
