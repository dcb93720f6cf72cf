"""A hand menu's answer never waits long for its picture: the text first, the picture after.

A click is answered with the clicker's menu, and at a table with pictures on that
menu carries the hand drawn (:mod:`cogs.render.pictures.painter`, in threads). Under load
the drawing may queue behind others; the answer waits for it at most
:data:`PICTURE_WAIT` seconds (and never past the interaction's budget,
:data:`cogs.answers.ANSWER_BUDGET`). A picture still drawing then goes out
alone once drawn, by an edit of the menu that adds it, unless that menu has been
answered anew or the table has moved on meanwhile (the newer answer carries its
own picture: an old one must not replace it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.load import LOAD
from bot.tables.seats import require_holder
from bot.tables.session import Session
from cogs.answers import ANSWER_BUDGET, age
from cogs.discord_internals import edit_original
from cogs.render.hand import Menu
from cogs.render.pictures.painter import PAINTER
from cogs.render.pictures.picture import HAND_FILE, Picture, as_file
from cogs.upkeep.tasks import settled

Interaction = discord.Interaction[Any]
PICTURE_WAIT = 0.25
"""Seconds an answer waits for its picture at most; a later picture follows the text."""


class HandPictures:
    """Answers hand menus with their picture when it is quick, after them when it is not."""

    def __init__(self) -> None:
        # (table, seat) -> the answer whose late picture may still be added.
        self._latest: dict[tuple[str, int], object] = {}
        self._following: set[asyncio.Task[None]] = set()

    async def answer(self, interaction: Interaction, session: Session, seat: int, menu: Menu,
                     send: Callable[[Menu], Awaitable[None]]) -> None:
        """``send(menu)``, with its picture if drawn in time; a late picture follows."""
        key = (session.id, seat)
        self._latest.pop(key, None)  # this answer replaces any picture still to follow
        if menu.scene is None:
            await send(menu)
            return
        wait = min(PICTURE_WAIT, ANSWER_BUDGET - age(interaction))
        menu.picture, drawing = await PAINTER.within(menu.scene, HAND_FILE, wait)
        require_holder(session, interaction.user.id, seat)  # the seat may have passed on
        await send(menu)
        if drawing is None:
            return
        token = object()
        self._latest[key] = token
        task = asyncio.get_running_loop().create_task(
            self._follow(interaction, session, key, token, session.version, drawing),
            name=f"hand-picture-{session.id}-{seat}")
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    async def _follow(self, interaction: Interaction, session: Session, key: tuple[str, int],
                      token: object, version: int,
                      drawing: asyncio.Task[Picture | None]) -> None:
        """Add the late picture to the menu, if that menu still shows the same table."""
        picture = await drawing
        await LOAD.calm()  # answers to clicks first
        if self._latest.get(key) is not token:
            return  # answered anew since: that answer has its own picture
        del self._latest[key]
        if picture is None or session.version != version:
            return
        with contextlib.suppress(discord.HTTPException):  # the menu is gone: nothing lost
            await edit_original(interaction, attachments=[as_file(picture)])

    async def idle(self) -> None:
        """Wait until every late picture has been sent (shutdown and tests)."""
        await settled(self._following)


__all__ = ["PICTURE_WAIT", "HandPictures"]
