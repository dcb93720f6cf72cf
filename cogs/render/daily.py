"""The daily board (``/daily board``) and what ``/daily`` tells the person who plays.

Drawn from the ledger's :class:`~bot.tables.daily.DailyBoard` only: people as mentions
(Discord shows their names; every message here is sent with ``AllowedMentions.none()``),
scores and places, never a card.
"""

from __future__ import annotations

import datetime as dt

import discord

import games
from bot.tables.daily import BoardLine, DailyBoard
from cogs.render.embeds import EMBED_COLOUR
from cogs.render.stats import ordinal
from cogs.render.text import clip, plural

BOARD_LINES = 25
"""People a board lists at most (the best, then those still playing)."""


def board_line(line: BoardLine, seats: int) -> str:
    """``1. @ana · 12 pts · 1st of 3 at the table · 4 days in a row``."""
    if line.place is None:
        bits = [f"-. <@{line.user_id}>", "still playing, or did not finish"]
    else:
        bits = [f"**{line.place}.** <@{line.user_id}>", plural(line.score or 0, "pt")]
        if line.table_place is not None:
            bits.append(f"{ordinal(line.table_place)} of {seats} at the table")
    if line.streak > 1:
        bits.append(f"{line.streak} days in a row")
    return " · ".join(bits)


def board_title(shown: DailyBoard, *, today: bool) -> str:
    title = games.get(shown.game).title
    return f"{title} daily deal of {shown.day} ({'today' if today else 'yesterday'})"


def render_board(shown: DailyBoard, *, seats: int, today: bool,
                 next_at: dt.datetime) -> discord.Embed:
    """The board in full: places, scores, places at the table, streaks."""
    embed = discord.Embed(title=board_title(shown, today=today), colour=EMBED_COLOUR)
    if not shown.lines:
        embed.description = "Nobody here played this deal."
    else:
        embed.description = clip("\n".join(board_line(line, seats)
                                           for line in shown.lines[:BOARD_LINES]), 4096)
    embed.set_footer(text=footer(shown, next_at))
    return embed


def render_closed_board(shown: DailyBoard, *, today: bool, next_at: dt.datetime,
                        why: str) -> discord.Embed:
    """A board the asker may not see yet: how many played it, and why not."""
    embed = discord.Embed(title=board_title(shown, today=today), colour=EMBED_COLOUR,
                          description=why)
    embed.set_footer(text=footer(shown, next_at))
    return embed


def footer(shown: DailyBoard, next_at: dt.datetime) -> str:
    people = "1 person" if shown.played == 1 else f"{shown.played} people"
    return (f"{people} here played it, {shown.finished} finished. The same deal for "
            f"everyone on every server; the next one at {next_at:%H:%M} UTC. Not rated: "
            "this board is the daily deal's leaderboard.")


__all__ = ["BOARD_LINES", "board_line", "render_board", "render_closed_board"]
