"""The public table message, rendered from a snapshot of the public view and the recent
events only (:class:`~bot.tables.snapshots.TableSnapshot`, never the live game).

Short enough for a phone (about 15 lines at the largest tables): the title says the
game and the phase; then whose turn it is with the public facts, the cards on the
table (the trick, face-up cards, the top of each pile), one line per player, the last
three events and the game's goal. Collections, whole piles and the full log are behind
the private ``Details`` button, the rules behind ``Rules``.

Nothing here reads a hand: hidden zones are shown as counts, so the message is the
same for every reader and safe to post in the channel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

import discord

import games
from bot.models import TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import TableSnapshot
from bot.tables.timers import countdown
from cogs import ids
from cogs.render.embeds import EMBED_COLOUR, fit
from cogs.render.pictures import Picture, as_file
from cogs.render.pictures.scene import Scene
from cogs.render.static_view import StaticView, button
from cogs.render.text import clip, plural
from games.core import words
from games.core.game import View
from games.core.zones import ZoneKind, ZoneView, zone_title

RECENT_SHOWN = 3
TURN = "▶"


@dataclass
class Rendered:
    """A message's content, embed, components and who it may ping."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None
    mentions: discord.AllowedMentions
    picture: Picture | None = None  # the table drawn, shown as the embed's image
    scene: Scene | None = None  # what the picture is to show, until it is drawn
    table: TableSnapshot | None = None  # the game shown: a final one's record goes with it

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


def zone_text(game: str, zone: ZoneView) -> str:
    """A zone's cards as on the buttons, or how many lie face down."""
    return words.zone_text(games.get(game), zone)


def status_line(shown: TableSnapshot) -> str:
    """Whose turn it is (or the result), then the public facts, in one line."""
    view, names = shown.public, shown.names
    if view.over:
        winners = ", ".join(names[w] for w in view.winners) or "nobody"
        head = f"**Game over.** Winners: {winners}."
    elif shown.status is TableStatus.CANCELLED:
        head = "**This table was ended.** No result is recorded."
    elif view.to_act is not None:
        label, person = shown.labels[view.to_act], shown.people[view.to_act]
        head = f"{label} is thinking" if person is None else f"<@{person}>'s turn"
        if person is not None and shown.deadline is not None:
            head += f", time up {countdown(shown.deadline)}"
    else:
        head = "Dealing"
    facts = words.fact_words(view, names)
    return " · ".join([head, *facts])


def table_lines(game: str, view: View, names: Sequence[str]) -> list[str]:
    """The cards on the table: the trick (who played what), face-up cards, piles' tops."""
    return words.table_lines(games.get(game), view, names)


def player_lines(shown: TableSnapshot) -> list[str]:
    """One short line per player: the turn marker, name (a computer's with its level),
    score, cards in hand, the game's note."""
    view, names = shown.public, shown.names
    hands = {z.owner: z.count for z in view.zones if z.kind is ZoneKind.HAND}
    notes = view.seat_notes or ("",) * len(names)
    marker = shown.playing
    lines = []
    for seat, label in enumerate(shown.labels):
        turn = marker and view.to_act == seat
        bits = [f"{TURN} **{label}**" if turn else f"**{label}**",
                plural(view.scores[seat], "pt")]
        if seat in hands and marker:
            bits.append(plural(hands[seat], "card"))
        bits += [f"{plural(z.count, 'card')} in {z.name.partition(':')[0]}"  # a private deck
                 for z in view.zones if z.kind is ZoneKind.STOCK and z.owner == seat and marker]
        if seat < len(notes) and notes[seat]:
            bits.append(notes[seat])
        if shown.places is not None:
            bits.append(f"place {shown.places[seat]}")
        lines.append(" · ".join(bits))
    if view.teams:
        lines.append("Teams: " + "; ".join(" & ".join(names[p] for p in team)
                                           for team in view.teams))
    return lines


def public_lines(shown: TableSnapshot, *, recent: int = RECENT_SHOWN) -> list[str]:
    """The table in lines, as the table message shows it and a watcher's view repeats it:
    whose turn, the cards on the table, the players, the last ``recent`` events, the goal."""
    lines = [status_line(shown), *table_lines(shown.game, shown.public, shown.names),
             *player_lines(shown)]
    lines += [f"-# {event}" for event in shown.log[-recent:]]
    goal = games.get(shown.game).goal
    if goal:
        lines.append(f"-# {goal}")
    return lines


def heading(shown: TableSnapshot) -> str:
    """The game, its phase, and how many watch it (said only when someone does)."""
    title = f"{shown.title} · {shown.public.phase}"
    if shown.watching:
        title += f" · {shown.watching} watching"
    return title


def render_table(shown: TableSnapshot) -> Rendered:
    """The table message of a started (or finished, or ended) game, as ``shown``."""
    embed = discord.Embed(title=clip(heading(shown), 256), colour=EMBED_COLOUR,
                          description=clip("\n".join(public_lines(shown)), 4096))
    if shown.public.over and shown.status is TableStatus.FINISHED:
        embed.set_footer(text="Details shows the last moves in words. The attached file is "
                              "this game's record, every deal and move, to keep.")
    buttons = [button("Details", ids.table_view_id(shown.table_id, "details")),
               button("Rules", ids.table_view_id(shown.table_id, "rules"))]
    if shown.playing:  # so the table is open too
        buttons[:0] = [button("Show my hand", ids.hand_id(shown.table_id),
                              style=discord.ButtonStyle.primary)]
        if not shown.private:
            buttons.insert(1, button("Watch", ids.watch_id(shown.table_id)))
    return Rendered(None, fit(embed), StaticView(buttons), discord.AllowedMentions.none(),
                    table=shown)


def render_details(shown: TableSnapshot) -> str:
    """The private ``Details``: every public zone in full, the facts, the whole log."""
    names = shown.names
    view = shown.public
    lines = [f"**{shown.title}** · {view.phase}"]
    lines += [f"{name}: {value}" for name, value in view.facts if value]
    notes = view.seat_notes or ("",) * len(names)
    for seat, name in enumerate(names):
        extra = f" ({notes[seat]})" if seat < len(notes) and notes[seat] else ""
        lines.append(f"**{name}**: {plural(view.scores[seat], 'pt')}{extra}")
    told = {name.lower() for name, _ in view.facts}  # a game's own fact outranks the zone
    for zone in view.zones:
        if zone.kind is ZoneKind.HAND or zone.count == 0 \
                or zone_title(zone, names).lower() in told:
            continue
        lines.append(f"{zone_title(zone, names)}: {zone_text(shown.game, zone)}")
    if shown.rounds:
        lines.append("Rounds: " + "; ".join(
            ", ".join(f"{names[p]} {points:+d}" for p, points in enumerate(scores))
            for scores in shown.rounds))
    if shown.log:
        lines.append("**Log**")
        lines += list(shown.log)
    return clip("\n".join(lines), 2000)


def render_closed_lobby(session: Session) -> Rendered:
    """A lobby that was cancelled before the game started, or a table that a restart could
    not rebuild (whose game may even be unknown to this version of the bot)."""
    name = session.table.game
    title = games.get(name).title if name in games.names() else name
    embed = discord.Embed(title=clip(f"{title}: table closed", 256), colour=EMBED_COLOUR,
                          description="\n".join(session.recent) or "The table was cancelled.")
    return Rendered(None, embed, None, discord.AllowedMentions.none())
