"""The public table message, rendered from the public view and the recent events only.

Nothing here reads a hand: hidden zones are shown as counts, so the message is
the same for every reader and safe to post in the channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

import discord

import games
from bot.models import TableStatus
from bot.session import Session
from cogs import ids
from cogs.pictures import Picture, as_file
from cogs.ui import EMBED_COLOUR, button, clip, fit, static_view
from games.core.game import View
from games.core.zones import ZoneKind, ZoneView

MAX_FACE_UP = 40


@dataclass
class Rendered:
    """A message's content, embed, components and who it may ping."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None
    mentions: discord.AllowedMentions
    picture: Picture | None = None  # the table drawn, shown as the embed's image

    def with_picture(self, picture: Picture | None) -> Self:
        """The same message showing ``picture`` as its embed's image."""
        if picture is None:
            return self
        self.embed.set_image(url=picture.url)
        self.picture = picture
        return self

    def files(self) -> list[discord.File]:
        """The picture as an attachment, or nothing."""
        return [as_file(self.picture)] if self.picture is not None else []


def zone_title(zone: ZoneView, names: list[str]) -> str:
    """``collection:2`` -> "Cy's collection", ``stock`` -> "Stock"."""
    base, _, _ = zone.name.partition(":")
    words = base.replace("_", " ")
    if zone.owner is not None and 0 <= zone.owner < len(names):
        return f"{names[zone.owner]}'s {words}"
    return words.capitalize()


def zone_text(zone: ZoneView) -> str:
    if zone.cards is None:
        return f"{zone.count} card{'s' if zone.count != 1 else ''} face down"
    if not zone.cards:
        return "empty"
    if zone.kind in (ZoneKind.WASTE, ZoneKind.STOCK) or len(zone.cards) > MAX_FACE_UP:
        top = " ".join(c.text for c in zone.cards[:3])
        return f"{zone.count} cards (top {top})" if zone.kind is not ZoneKind.WASTE \
            else f"{zone.count} cards"
    return " ".join(c.text for c in zone.cards)


def seat_lines(session: Session, view: View) -> str:
    names = session.names()
    hands = {z.owner: z.count for z in view.zones if z.kind is ZoneKind.HAND}
    notes = view.seat_notes or ("",) * len(names)
    places = session.game.outcome.places if session.game and session.game.outcome else None
    lines = []
    for seat, held in enumerate(session.seats):
        marker = "▶ " if view.to_act == seat else ""
        bits = [f"{marker}**{held.label}**"]
        if seat < len(notes) and notes[seat]:
            bits.append(notes[seat])
        if seat in hands and not view.over:
            bits.append(f"{hands[seat]} in hand")
        bits.append(f"{view.scores[seat]} pts")
        if places is not None:
            bits.append(f"place {places[seat]}")
        lines.append(" · ".join(bits))
    if view.teams:
        lines.append("Teams: " + "; ".join(" & ".join(names[p] for p in team)
                                           for team in view.teams))
    return "\n".join(lines)


def render_table(session: Session) -> Rendered:
    """The table message of a started (or finished, or ended) game."""
    game = session.game
    assert game is not None
    table = session.table
    names = session.names()
    view = game.view_for(None)
    cls = games.get(table.game)
    embed = discord.Embed(title=clip(f"{cls.title}: {view.phase}", 256), colour=EMBED_COLOUR)
    content: str | None = None
    mentions = discord.AllowedMentions.none()
    if view.over:
        winners = ", ".join(names[w] for w in view.winners) or "nobody"
        embed.description = f"**Game over.** Winners: {winners}."
    elif table.status is TableStatus.CANCELLED:
        embed.description = "**This table was ended.** No result is recorded."
    elif view.to_act is not None:
        seat = table.seats[view.to_act]
        if seat.user_id is not None:
            content = f"<@{seat.user_id}>, it is your turn."
            mentions = discord.AllowedMentions(users=[discord.Object(seat.user_id)],
                                               everyone=False, roles=False)
            embed.description = f"Turn: <@{seat.user_id}> ({seat.name})"
        else:
            embed.description = f"Turn: {seat.label} is thinking"
    for name, value in view.facts:
        embed.add_field(name=clip(name, 256), value=clip(value or "-"), inline=True)
    if view.trick:
        embed.add_field(name="On the table",
                        value=clip(", ".join(f"{names[p]}: {c.text}" for p, c in view.trick)),
                        inline=False)
    told = {name.lower() for name, _ in view.facts}  # a game's own fact outranks the zone
    on_table = tuple(card for _, card in view.trick)
    for zone in view.zones:
        if zone.kind is ZoneKind.HAND or (zone.count == 0 and zone.kind is not ZoneKind.STOCK):
            continue
        if zone_title(zone, names).lower() in told:
            continue
        if zone.kind is ZoneKind.TRICK and zone.cards == on_table:
            continue  # "On the table" shows the same cards with who played them
        if len(embed.fields) >= 20:
            break
        embed.add_field(name=clip(zone_title(zone, names), 256), value=clip(zone_text(zone)),
                        inline=zone.kind is not ZoneKind.TRICK)
    embed.add_field(name="Players", value=clip(seat_lines(session, view)), inline=False)
    if session.recent:
        embed.add_field(name="Recent", value=clip("\n".join(session.recent)[-1000:]),
                        inline=False)
    if view.over and table.status is TableStatus.FINISHED:
        embed.set_footer(text=f"Table {table.id}. The attached file is this game's record, "
                              "every deal and move: keep it, or replay it with "
                              "python -m games replay.")
    else:
        embed.set_footer(text=f"Table {table.id}. Show my hand to see your cards and play.")
    buttons = [] if view.over or not session.is_open else [
        button("Show my hand", ids.hand_id(table.id), style=discord.ButtonStyle.primary)]
    return Rendered(content, fit(embed), static_view(buttons) if buttons else None, mentions)


def render_closed_lobby(session: Session) -> Rendered:
    """A lobby that was cancelled before the game started."""
    cls = games.get(session.table.game)
    embed = discord.Embed(title=f"{cls.title}: table closed", colour=EMBED_COLOUR,
                          description="\n".join(session.recent) or "The table was cancelled.")
    return Rendered(None, embed, None, discord.AllowedMentions.none())
