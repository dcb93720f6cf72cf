"""Keeps each table's public message up to date, one edit in flight per table.

The session manager calls :meth:`Publisher.table_changed` after every change;
the publisher marks the table dirty and, if no edit is running for it, starts
one. An edit renders the state as it is when it is sent, so a burst of changes
becomes at most two edits and the latest state always wins. The edit that shows
a finished game attaches its record (:mod:`cogs.export`).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.utils import MISSING

from bot.models import TableStatus
from bot.session import Session
from cogs.export import record_file
from cogs.render_lobby import render_lobby
from cogs.render_table import Rendered, render_closed_lobby, render_table

log = logging.getLogger(__name__)


def render(session: Session) -> Rendered:
    """The public message of ``session`` in its current state."""
    if session.game is not None:
        return render_table(session)
    if session.table.status is TableStatus.LOBBY:
        embed, view = render_lobby(session)
        return Rendered(None, embed, view, discord.AllowedMentions.none())
    return render_closed_lobby(session)


class Publisher:
    """The :class:`bot.turns.TableListener` of the Discord layer."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._dirty: set[str] = set()
        self._running: dict[str, asyncio.Task[None]] = {}

    def table_changed(self, session: Session) -> None:
        self._dirty.add(session.id)
        if session.id not in self._running:
            task = asyncio.get_running_loop().create_task(
                self._run(session), name=f"publish-{session.id}")
            self._running[session.id] = task

    async def _run(self, session: Session) -> None:
        try:
            while session.id in self._dirty:
                self._dirty.discard(session.id)
                await self._edit(session)
        finally:
            self._running.pop(session.id, None)

    async def _edit(self, session: Session) -> None:
        message_id = session.table.message_id
        if message_id is None:
            return
        shown = render(session)
        message = self.client.get_partial_messageable(session.channel_id).get_partial_message(
            message_id)
        # The record (every hand) only once the game is over; replaced, not added, on a re-edit.
        record = record_file(session)
        try:
            await message.edit(content=shown.content, embed=shown.embed, view=shown.view,
                               allowed_mentions=shown.mentions,
                               attachments=[record] if record is not None else MISSING)
        except discord.NotFound:
            log.warning("table %s: its message is gone", session.id)
        except discord.HTTPException:
            log.exception("table %s: could not edit its message", session.id)

    async def idle(self) -> None:
        """Wait until no edit is running (for shutdown and tests)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    def cancel(self) -> None:
        for task in self._running.values():
            task.cancel()
