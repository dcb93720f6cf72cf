"""The table and the hand as pictures (Pillow), the text staying for screen readers.

A picture is drawn from a :class:`~cogs.render.pictures.scene.Scene`, cached by content,
so a table that did not change is never drawn twice. :func:`table_scene_for` says what a
table message's picture shows, from the table's snapshot
(:class:`~bot.tables.snapshots.TableSnapshot`), never from the live game; a hand menu's
scene comes from its own snapshot (:mod:`cogs.render.hand`). A :class:`Picture` holds the
PNG bytes, the alt text that names every card shown (the attachment's description), and
the file name. The bot draws them in threads (:mod:`cogs.render.pictures.painter`), never
on the event loop; :func:`table_picture` and :func:`hand_picture` draw at once a game that
sits at no table, for tests, samples and ``bench.pictures``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.tables.snapshots import TableSnapshot
from cogs.render.pictures.draw import MAX_BYTES, render_png
from cogs.render.pictures.scene import TURN_MARK, Scene, hand_scene, table_scene
from cogs.render.text import plural
from games.core.actions import Action
from games.core.cards import Card
from games.core.game import Game, View
from games.core.zones import ZoneKind


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn picture: its bytes, its description in words, its file name."""

    png: bytes
    alt: str
    filename: str

    @property
    def url(self) -> str:
        """How an embed points at it once attached."""
        return f"attachment://{self.filename}"


TABLE_FILE = "table.png"
HAND_FILE = "hand.png"


def player_lines(view: View, names: Sequence[str]) -> list[str]:
    """One plain line per player: the turn, score, cards in hand, the game's own note.

    Nothing else: the note says the tricks or the Spicy a player has won, so a count of
    the cards won beside it would say one fact twice ("3 tricks · tricks 9")."""
    hands = {z.owner: z.count for z in view.zones if z.kind is ZoneKind.HAND}
    notes = view.seat_notes or ("",) * len(names)
    lines = []
    for seat, name in enumerate(names):
        bits = [(TURN_MARK if view.to_act == seat else "") + name]
        points = view.scores[seat] if seat < len(view.scores) else 0
        bits.append(plural(points, "pt"))
        if seat in hands and not view.over:
            bits.append(f"{hands[seat]} in hand")
        if seat < len(notes) and notes[seat]:
            bits.append(notes[seat])
        lines.append(" · ".join(bits))
    return lines


def picture_of(scene: Scene, filename: str,
               draw: Callable[[Scene], bytes] = render_png) -> Picture | None:
    """``scene`` drawn (None if it cannot be sent: too large)."""
    png = draw(scene)
    if len(png) > MAX_BYTES:
        return None
    return Picture(png, scene.alt_text(), filename)


def public_scene(game: str, title: str, view: View, names: Sequence[str],
                 card_name: Callable[[Card], str]) -> Scene:
    """What the public ``view`` of a game shows (cheap: drawing it is the cost)."""
    return table_scene(game, f"{title}: {view.phase}", view, names, card_name,
                       player_lines(view, names))


def table_scene_for(shown: TableSnapshot) -> Scene | None:
    """The scene of the table message showing ``shown``, when the table has pictures on."""
    if not shown.pictures:
        return None
    return public_scene(shown.game, shown.title, shown.public, shown.names, shown.card_name)


def table_scene_of(game: Game[Any], names: Sequence[str]) -> Scene:
    """The public table of a game that sits at no table (samples, tests, ``bench.pictures``)."""
    return public_scene(game.name, game.title, game.view_for(None), names, game.card_name)


def table_picture(game: Game[Any], names: Sequence[str]) -> Picture | None:
    """The public table of a game at no table, drawn here and now (None if too large)."""
    return picture_of(table_scene_of(game, names), TABLE_FILE)


def as_file(picture: Picture) -> discord.File:
    """``picture`` as an attachment, described in words for screen readers."""
    return discord.File(io.BytesIO(picture.png), filename=picture.filename,
                        description=picture.alt)


def hand_scene_of(game: Game[Any], seat: int, cards: Sequence[Card],
                  legal: Sequence[Action]) -> Scene | None:
    """What ``seat``'s hand picture shows at a game that sits at no table (samples, tests):
    its ``cards`` as the menu lists them, the unplayable ones dimmed (None for no cards).
    A table's hand menu draws its own from its snapshot (:mod:`cogs.render.hand`)."""
    if not cards:
        return None
    return hand_scene(game.name, game.view_for(seat), cards, legal, game.card_name)


def hand_picture(game: Game[Any], seat: int, cards: Sequence[Card],
                 legal: Sequence[Action]) -> Picture | None:
    """``seat``'s hand picture, drawn here and now."""
    scene = hand_scene_of(game, seat, cards, legal)
    return picture_of(scene, HAND_FILE) if scene is not None else None


__all__ = ["HAND_FILE", "TABLE_FILE", "Picture", "as_file", "hand_picture", "hand_scene_of",
           "picture_of", "player_lines", "public_scene", "table_picture", "table_scene_for",
           "table_scene_of"]
