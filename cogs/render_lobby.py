"""The public lobby message: seats, options, the player range and the lobby buttons."""

from __future__ import annotations

import discord

import games
from bot.session import Session
from cogs import ids
from cogs.rules import options_text, player_range
from cogs.ui import EMBED_COLOUR, button, clip, static_view


def render_lobby(session: Session) -> tuple[discord.Embed, discord.ui.View]:
    table = session.table
    cls = games.get(table.game)
    count = len(table.seats)
    seats = "\n".join(
        f"{i + 1}. {seat.name}" + (" (computer)" if seat.is_computer else "")
        + (" (host)" if seat.user_id == table.host_id else "")
        for i, seat in enumerate(table.seats)
    ) or "nobody yet"
    embed = discord.Embed(
        title=f"{cls.title}: a table is open",
        description=f"{cls.goal}\nHost: <@{table.host_id}>. {cls.title} is for "
                    f"{player_range(cls)}. Join, or add computer players; the host starts.",
        colour=EMBED_COLOUR,
    )
    embed.add_field(name=f"Seats ({count}/{cls.max_players})", value=clip(seats), inline=False)
    embed.add_field(name="Options", value=clip(options_text(table.game, table.options)),
                    inline=False)
    embed.set_footer(text=f"Rules, or /rules {table.game}, explains the game.")
    full = count >= cls.max_players
    can_start = cls.min_players <= count <= cls.max_players
    view = static_view([
        button("Join", ids.lobby_id(table.id, "join"), style=discord.ButtonStyle.primary,
               disabled=full),
        button("Leave", ids.lobby_id(table.id, "leave")),
        button("Add computer player", ids.lobby_id(table.id, "cpu"), disabled=full),
        button("Start", ids.lobby_id(table.id, "start"), style=discord.ButtonStyle.success,
               disabled=not can_start),
        button("Cancel", ids.lobby_id(table.id, "cancel"), style=discord.ButtonStyle.danger),
        button("Rules", ids.table_view_id(table.id, "rules"), row=1),
    ])
    return embed, view
