"""The public lobby message (seats, options, the player range, the lobby buttons), and the
ephemeral chooser of a new computer player's level."""

from __future__ import annotations

from typing import Any

import discord

import games
from bot.models import TAKEN_OVER, Seat
from bot.tables.lobby import DEFAULT_LEVEL
from bot.tables.session import Session
from bot.tables.timers import timer_of, timer_words
from cogs import ids
from cogs.render.embeds import EMBED_COLOUR
from cogs.render.static_view import StaticView, button
from cogs.render.text import clip
from games.core.game import Game
from games.core.seats import players_text

LEVEL_WORDS = {
    "hard": "thinks ahead over the cards it cannot see",
    "easy": "plays by rules of thumb, a good first opponent",
}
"""What the chooser says of each level it offers (:data:`cogs.ids.COMPUTER_LEVELS`)."""
UNRATED = ("Hints are on: the Hint button in your hand shows what the hard computer "
           "would play, so this game is not rated (it still counts in /stats).")
SAME_CARDS = ("**Same cards**: the deal of an earlier game again, with its seats, so you can "
              "play the hand you played and compare; not rated. Each of its players joins "
              "their own seat; a seat still waiting at Start is played by a hard computer "
              "until its player takes it back (/join).")


def seat_line(index: int, seat: Seat, host_id: int) -> str:
    """One seat of the lobby: its number, who holds it (or for whom it waits), the host."""
    if seat.replaced_because == "saved":
        return f"{index + 1}. {seat.name.removesuffix(TAKEN_OVER)}: saved for them (Join)"
    return f"{index + 1}. {seat.label}" + (" (host)" if seat.user_id == host_id else "")


def player_range(cls: type[Game[Any]]) -> str:
    """``exactly 3 players`` or ``3 to 8 players``, as the lobby and the rules say it."""
    return players_text(cls.min_players, cls.max_players, dash=" to ")


def options_text(game: str, chosen: dict[str, object]) -> str:
    """Every option of ``game`` with its value (the defaults included)."""
    model = games.get(game).options_model
    parts = []
    for name, info in model.model_fields.items():
        value = chosen.get(name, info.get_default(call_default_factory=True))
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, list | tuple):
            value = ",".join(map(str, value))
        parts.append(f"{name}: {value}")
    return ", ".join(parts) or "none"


def render_lobby(session: Session) -> tuple[discord.Embed, discord.ui.View]:
    table = session.table
    cls = games.get(table.game)
    count = len(table.seats)
    seats = "\n".join(seat_line(i, seat, table.host_id)
                      for i, seat in enumerate(table.seats)) or "nobody yet"
    embed = discord.Embed(
        title=f"{cls.title}: a table is open",
        description=(f"*{cls.pitch}*\n" if cls.pitch else "") +
                    f"{cls.goal}\nHost: <@{table.host_id}>. {cls.title} is for "
                    f"{player_range(cls)}. Join, or add computer players; the host starts."
                    + (f"\n{UNRATED}" if table.hints else "")
                    + (f"\n{SAME_CARDS}" if table.fixed is not None else ""),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name=f"Seats ({count}/{cls.max_players})", value=clip(seats), inline=False)
    embed.add_field(name="Options", value=clip(options_text(table.game, table.options)),
                    inline=False)
    if table.turn_seconds is not None:  # None: a lobby stored before tables had timers
        embed.add_field(name="Turn timer", value=clip(timer_words(timer_of(table, 0.0))),
                        inline=False)
    embed.set_footer(text=f"Rules, or /rules {table.game}, explains the game.")
    full = count >= cls.max_players or table.fixed is not None
    saved = any(seat.replaced_because == "saved" for seat in table.seats)
    can_start = cls.min_players <= count <= cls.max_players
    view = StaticView([
        button("Join", ids.lobby_id(table.id, "join"), style=discord.ButtonStyle.primary,
               disabled=full and not saved),
        button("Leave", ids.lobby_id(table.id, "leave")),
        button("Add computer player", ids.lobby_id(table.id, "cpu"), disabled=full),
        button("Start", ids.lobby_id(table.id, "start"), style=discord.ButtonStyle.success,
               disabled=not can_start),
        button("Cancel", ids.lobby_id(table.id, "cancel"), style=discord.ButtonStyle.danger),
        button("Rules", ids.table_view_id(table.id, "rules"), row=1),
    ])
    return embed, view


def render_computer_chooser(session: Session, note: str | None = None
                            ) -> tuple[str, discord.ui.View]:
    """The ephemeral question ``Add computer player`` asks: which level, hard first.

    It stays open after a click (``note`` says who joined), so adding three computers
    is three clicks; its buttons are disabled once the table is full.
    """
    table = session.table
    full = len(table.seats) >= games.get(table.game).max_players
    lines = [note] if note else []
    if full:
        lines.append("The table is full.")
    else:
        lines.append("Add another computer player?" if note else
                     "Add a computer player at which level?")
        lines += [f"**{level.capitalize()}** {LEVEL_WORDS[level]}."
                  for level in ids.COMPUTER_LEVELS]
    view = StaticView([
        button(level.capitalize(), ids.computer_id(table.id, level), disabled=full,
               style=discord.ButtonStyle.primary if level == DEFAULT_LEVEL
               else discord.ButtonStyle.secondary)
        for level in ids.COMPUTER_LEVELS
    ])
    return "\n".join(lines), view
