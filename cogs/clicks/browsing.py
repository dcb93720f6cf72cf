"""The clicks beyond one table: Watch, a watcher's view, and the ``/tables`` list's buttons.

Each is one call into the table service and one answer, like :mod:`cogs.clicks.handlers`,
and each first checks where the click comes from, as every table button does: ``Watch``
from that table's own message; a watcher's ``Refresh`` and ``Stop watching``, and the
list's ``Join``, ``Watch`` and pages, from the clicker's own private message. A person
is shown a table only where they can see its channel (:func:`can_see`), whichever way
the click reached the bot (a forged id included).

The buttons are routed by custom id alone (``DynamicItem`` templates of :mod:`cogs.ids`),
so a watcher's ``Refresh`` after a restart finds the table, counts them as watching
again and brings their view back to life.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import AsyncIterator
from typing import Any

import discord

from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.session import Session
from cogs import ids
from cogs.answers import NO_MENTIONS, answered_on_failure, is_ephemeral, say
from cogs.clicks import router
from cogs.clicks.deadline import in_time
from cogs.render.text import display_name, jump_url, sentence
from cogs.render.watch import render_listing, render_watch
from cogs.upkeep.live_menus import LiveMenus

Interaction = discord.Interaction[Any]

NOT_ON_TABLE = "that button is not on this table's message"
NOT_YOURS = "that button belongs on a private message of yours"
HIDDEN = "that table is in a channel you cannot see"
STOPPED = "You stopped watching. Watch on the table message brings your view back."


def can_see(interaction: Interaction, channel_id: int) -> bool:
    """Whether the clicker may see the channel or thread ``channel_id`` of their server.

    A private thread is never shown: who is in one is not told to the bot.
    """
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None or isinstance(channel, discord.CategoryChannel | discord.ForumChannel):
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        return False
    return channel.permissions_for(member).view_channel


class Watching:
    """The handlers of Watch, the watcher's view and the ``/tables`` list."""

    def __init__(self, tables: TableService, live: LiveMenus) -> None:
        self.tables = tables
        self.live = live

    @contextlib.asynccontextmanager
    async def refusing(self, interaction: Interaction, *, replace: bool = False
                       ) -> AsyncIterator[None]:
        """A refusal answered privately with its reason, changing nothing; ``replace``: by
        replacing the clicked private message (a watcher's view that has nothing left)."""
        async with answered_on_failure(interaction, "a click"):
            try:
                yield
            except TableError as exc:
                if replace and is_ephemeral(interaction) and not interaction.response.is_done():
                    await interaction.response.edit_message(content=sentence(exc.message),
                                                            view=None, embed=None)
                else:
                    await say(interaction, sentence(exc.message))

    async def _visible(self, interaction: Interaction, table_id: str) -> Session:
        """The table ``table_id``, if the clicker may see where it is."""
        session = await self.tables.registry.find(table_id)
        if interaction.guild_id is None or session.table.guild_id != interaction.guild_id \
                or not can_see(interaction, session.channel_id):
            raise TableError(HIDDEN)
        return session

    # --- Watch -----------------------------------------------------------------------------

    async def watch(self, interaction: Interaction, table_id: str, *, listed: bool) -> None:
        """``Watch``, on the table message or (``listed``) in ``/tables``: a new private view
        of the game that follows it."""
        async with self.refusing(interaction):
            if listed and not is_ephemeral(interaction):
                raise TableError(NOT_YOURS)
            session = await self._visible(interaction, table_id)
            if not listed and (interaction.message is None
                               or interaction.message.id != session.table.message_id):
                raise TableError(NOT_ON_TABLE)
            with self.live.answering(session, interaction.user.id):
                shown = render_watch(self.tables.watch(session, interaction.user.id))
                await interaction.response.send_message(shown.content, view=shown.view,
                                                        ephemeral=True,
                                                        allowed_mentions=NO_MENTIONS)
                self.live.keep_watching(session, interaction)

    async def watching(self, interaction: Interaction, table_id: str, what: str) -> None:
        """A watcher's ``Refresh`` (their view as the game is now, followed again) or
        ``Stop watching``."""
        async with self.refusing(interaction, replace=True):
            if not is_ephemeral(interaction):
                raise TableError(NOT_YOURS)
            session = await self._visible(interaction, table_id)
            user_id = interaction.user.id
            with self.live.answering(session, user_id):
                if what == "stop":
                    self.tables.unwatch(session, user_id)
                    self.live.forget(session, user_id)
                    await interaction.response.edit_message(content=STOPPED, view=None)
                    return
                shown = render_watch(self.tables.watch(session, user_id))
                await interaction.response.edit_message(content=shown.content, view=shown.view,
                                                        allowed_mentions=NO_MENTIONS)
                self.live.keep_watching(session, interaction)

    # --- the /tables list ------------------------------------------------------------------

    def listing_page(self, interaction: Interaction, offset: int
                     ) -> tuple[discord.Embed, discord.ui.View]:
        """The page of the server's tables the clicker may see, from ``offset``."""
        guild_id = interaction.guild_id or 0
        tables = [t for t in self.tables.listing(guild_id) if can_see(interaction, t.channel_id)]
        return render_listing(tables, offset, viewer=interaction.user.id,
                              now=dt.datetime.now(dt.UTC))

    async def page(self, interaction: Interaction, offset: int) -> None:
        """``Previous`` or ``Next`` under the list: the list, as it is now, at that page."""
        async with self.refusing(interaction):
            if not is_ephemeral(interaction) or interaction.guild_id is None:
                raise TableError(NOT_YOURS)
            embed, view = self.listing_page(interaction, offset)
            await interaction.response.edit_message(content=None, embed=embed, view=view)

    async def listed(self, interaction: Interaction, table_id: str, what: str) -> None:
        """A table's ``Join`` or ``Watch`` in the list."""
        if what == "watch":
            await self.watch(interaction, table_id, listed=True)
            return
        async with self.refusing(interaction):
            if not is_ephemeral(interaction):
                raise TableError(NOT_YOURS)
            session = await self._visible(interaction, table_id)
            done = await in_time(interaction, self.tables.lobby.join(
                session, interaction.user.id, display_name(interaction)))
            table = session.table
            where = jump_url(table.guild_id, table.channel_id, table.message_id)
            embed, view = self.listing_page(interaction, 0)
            note = f"{sentence(done)} {where}"
            if interaction.response.is_done():
                await interaction.edit_original_response(content=note, embed=embed, view=view)
            else:
                await interaction.response.edit_message(content=note, embed=embed, view=view)


def watching_of(interaction: Interaction) -> Watching | None:
    cog: Any = interaction.client.get_cog("Browse")
    return cog.watching if cog is not None else None


class BrowsingButton(router.RoutedButton, template=r"(?!)"):
    """Rebuilt from its custom id as every table button is (:mod:`cogs.clicks.router`); the
    work is in :class:`Watching`."""

    async def callback(self, interaction: Interaction) -> None:
        await route(interaction, type(self), self.match)

    @staticmethod
    async def act(watching: Watching, interaction: Interaction, match: dict[str, str]) -> None:
        raise NotImplementedError


class WatchButton(BrowsingButton, template=ids.WATCH_TEMPLATE):
    @staticmethod
    async def act(watching: Watching, interaction: Interaction, match: dict[str, str]) -> None:
        await watching.watch(interaction, match["table"], listed=False)


class WatchingButton(BrowsingButton, template=ids.WATCHING_TEMPLATE):
    @staticmethod
    async def act(watching: Watching, interaction: Interaction, match: dict[str, str]) -> None:
        await watching.watching(interaction, match["table"], match["what"])


class ListedButton(BrowsingButton, template=ids.LISTED_TEMPLATE):
    @staticmethod
    async def act(watching: Watching, interaction: Interaction, match: dict[str, str]) -> None:
        await watching.listed(interaction, match["table"], match["what"])


class TablesPageButton(BrowsingButton, template=ids.TABLES_TEMPLATE):
    @staticmethod
    async def act(watching: Watching, interaction: Interaction, match: dict[str, str]) -> None:
        await watching.page(interaction, int(match["offset"]))


ITEMS: tuple[type[BrowsingButton], ...] = (WatchButton, WatchingButton, ListedButton,
                                           TablesPageButton)
TEMPLATES = {WatchButton: ids.WATCH_TEMPLATE, WatchingButton: ids.WATCHING_TEMPLATE,
             ListedButton: ids.LISTED_TEMPLATE, TablesPageButton: ids.TABLES_TEMPLATE}


async def route(interaction: Interaction, item: type[BrowsingButton],
                match: dict[str, str]) -> None:
    """Hand the click to its handler (or say the tables are restarting)."""
    watching = watching_of(interaction)
    if watching is None:
        await say(interaction, "The tables are restarting; try again.")
        return
    await item.act(watching, interaction, match)


def fallback(item: type[BrowsingButton]) -> Any:
    """The handler of a click discord.py drops (its id is not on the clicked message):
    the same handler, which refuses it with the reason."""
    async def dropped(interaction: Interaction, match: re.Match[str]) -> None:
        await route(interaction, item, match.groupdict())
    return dropped


__all__ = ["ITEMS", "TEMPLATES", "Watching", "can_see", "fallback"]
