"""A watcher's private view of a game, and the server's open tables (``/tables``).

The watcher's view is drawn from the same :class:`~bot.tables.snapshots.TableSnapshot`
as the table message (:func:`cogs.render.table.public_lines`), with more of the latest
events: exactly what a person not seated may see, never a hand. The list of tables is
drawn from the table service's summaries, already cut to what the asker may see.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord

from bot.tables.snapshots import TableSnapshot
from bot.tables.watching import TableSummary
from cogs import ids
from cogs.render.embeds import EMBED_COLOUR
from cogs.render.hand import Menu
from cogs.render.pages import PAGE_SIZE, page_start
from cogs.render.static_view import StaticButton, StaticView, button
from cogs.render.table import heading, public_lines
from cogs.render.text import CONTENT_LIMIT, clip, jump_url, plural

RECENT_WATCHED = 6
"""How many of the latest events a watcher's view shows (the table message shows three)."""
WATCHING_NOTE = ("-# You are watching: you see what everyone at the table sees, never a hand. "
                 "This view follows the game for 14 minutes after your last click; Refresh "
                 "brings it back.")


def render_watch(shown: TableSnapshot, note: str | None = None) -> Menu:
    """``shown`` as its watcher sees it, with Refresh and Stop watching while it is played."""
    lines = [note] if note else []
    lines.append(f"**Watching {heading(shown)}**")
    lines += public_lines(shown, recent=RECENT_WATCHED)
    buttons = []
    if shown.playing:
        lines.append(WATCHING_NOTE)
        buttons = [button("Refresh", ids.watching_id(shown.table_id, "refresh"),
                          style=discord.ButtonStyle.primary),
                   button("Stop watching", ids.watching_id(shown.table_id, "stop"))]
    return Menu(clip("\n".join(lines), CONTENT_LIMIT), StaticView(buttons))


def duration_words(seconds: float) -> str:
    """A time span as people say it: ``under a minute``, ``12 min``, ``3 h 5 min``, ``2 days``."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return plural(hours // 24, "day")


def seats_words(table: TableSummary) -> str:
    """``2 people, 1 computer`` and what is free or whose turn it is."""
    count = len(table.people)
    seated = ["1 person" if count == 1 else f"{count} people"]
    if table.computers:
        seated.append(plural(table.computers, "computer"))
    words = ", ".join(seated)
    if table.lobby:
        return f"{words} · {plural(table.free, 'free seat')}" if table.free else \
            f"{words} · no free seat"
    return f"{words} · {table.turn}'s turn" if table.turn else words


def table_line(number: int, table: TableSummary, now: dt.datetime) -> str:
    """One table of the list: number, game, where, who sits, how long it has run."""
    where = jump_url(table.guild_id, table.channel_id, table.message_id)
    state = "lobby" if table.lobby else "playing"
    ran = duration_words((now - table.since).total_seconds())
    line = (f"**{number}. {table.title}** · {state} · {where}\n"
            f"{seats_words(table)} · {'open' if table.lobby else 'running'} for {ran}")
    if table.watching:
        line += f" · {table.watching} watching"
    return line


def listed_button(number: int, table: TableSummary, viewer: int
                  ) -> StaticButton | None:
    """``Join`` on a lobby with a free seat, ``Watch`` on a game; none where the viewer
    already sits (or nothing may be done)."""
    if viewer in table.people:
        return None
    if table.lobby:
        if not table.free:
            return None
        return button(f"{number} · Join", ids.listed_id(table.table_id, "join"),
                      style=discord.ButtonStyle.primary, row=(number - 1) % PAGE_SIZE // 5)
    return button(f"{number} · Watch", ids.listed_id(table.table_id, "watch"),
                  row=(number - 1) % PAGE_SIZE // 5)


def render_listing(tables: Sequence[TableSummary], offset: int, *, viewer: int,
                   now: dt.datetime) -> tuple[discord.Embed, discord.ui.View]:
    """The page of ``tables`` (those the viewer may see, newest first) from ``offset``."""
    embed = discord.Embed(title="Open tables in this server", colour=EMBED_COLOUR)
    if not tables:
        embed.description = ("No open table here that you can see. `/play` opens one; "
                             "`/daily` plays today's deal, the same for everyone.")
        return embed, StaticView([])
    start = page_start(offset, len(tables))
    shown = tables[start:start + PAGE_SIZE]
    embed.description = clip("\n".join(
        table_line(start + i + 1, table, now) for i, table in enumerate(shown)), 4096)
    pages = (len(tables) + PAGE_SIZE - 1) // PAGE_SIZE
    embed.set_footer(text=f"Page {start // PAGE_SIZE + 1} of {pages} · "
                          f"{plural(len(tables), 'table')}, newest first. Join a lobby with a "
                          "free seat; Watch a game (privately, never a hand).")
    buttons = [b for i, table in enumerate(shown)
               if (b := listed_button(start + i + 1, table, viewer)) is not None]
    if pages > 1:
        buttons += [button("Previous", ids.tables_id(max(0, start - PAGE_SIZE)),
                           disabled=start == 0, row=2),
                    button("Next", ids.tables_id(start + PAGE_SIZE),
                           disabled=start + PAGE_SIZE >= len(tables), row=2)]
    return embed, StaticView(buttons)


__all__ = ["PAGE_SIZE", "RECENT_WATCHED", "duration_words", "page_start", "render_listing",
           "render_watch", "table_line"]
