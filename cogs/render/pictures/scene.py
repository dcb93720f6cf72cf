"""What a picture shows, decided once, from the public view (or the viewer's own).

A :class:`Scene` is plain, hashable data: the picture is drawn from it and the alt
text is written from it, so the two always say the same, and a scene equal to one
drawn before is never drawn again (the drawing is cached by scene).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import games
from cogs.render.pictures.faces import Face, face_of
from cogs.render.text import plural
from games.core.actions import Action
from games.core.cards import Card
from games.core.game import View
from games.core.zones import ZoneKind, zone_title

MAX_ROW_CARDS = 16
"""Cards shown in one labelled row at most; more are summed up as "+N"."""

TRUMP_NAMES: dict[str, dict[str, str]] = {
    "fazes": {"red": "R", "yellow": "Y", "green": "G", "black": "B"},
    "fumblaroo": {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"},
}
PARTNER = {"S": "C", "C": "S", "H": "D", "D": "H"}
TURN_MARK = "▶ "
"""A player line starting with it is the player to act (a gold arrow; "to play" in words)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One card place in a row: a face, or a face-down stack of ``count`` cards."""

    face: Face | None
    words: str  # the card in words, or "N cards face down"
    caption: str = ""  # who played it, under the card
    count: int = 1


@dataclass(frozen=True, slots=True)
class Row:
    """A labelled row of cards ("On the table", "Up-card", "Ana's pile")."""

    label: str
    slots: tuple[Slot, ...]
    more: int = 0  # cards not drawn (a long pile): said in the label and the alt text


@dataclass(frozen=True, slots=True)
class Scene:
    """A whole picture: a title, a line of facts, rows of cards, a line per player."""

    title: str
    facts: str
    rows: tuple[Row, ...]
    players: tuple[str, ...]

    def alt_text(self, limit: int = 1024) -> str:
        """The scene in words, every card shown named (Discord's description limit)."""
        parts = [self.title + "."]
        if self.facts:
            parts.append(self.facts + ".")
        for row in self.rows:
            cards = ", ".join(
                f"{slot.caption}: {slot.words}" if slot.caption else slot.words
                for slot in row.slots)
            extra = f" and {row.more} more" if row.more else ""
            parts.append(f"{row.label}: {cards or 'empty'}{extra}.")
        if self.players:
            said = [line.removeprefix(TURN_MARK) + (" (to play)" if line.startswith(TURN_MARK)
                                                    else "") for line in self.players]
            parts.append("Players: " + "; ".join(said) + ".")
        text = " ".join(parts)
        return text if len(text) <= limit else text[: limit - 1] + "…"


def trump_of(game: str, view: View) -> str:
    """The trump suit's letter, from the public facts ("" when there is none)."""
    names = TRUMP_NAMES.get(game, {})
    for name, value in view.facts:
        if name.lower() == "trump":
            return names.get(value.strip().lower(), "")
    return ""


def bowers_of(game: str, trump: str) -> frozenset[str]:
    """Fumblaroo's two cards above every trump: the twos of trump's colour."""
    if game != "fumblaroo" or not trump:
        return frozenset()
    return frozenset({f"2{trump}", f"2{PARTNER[trump]}"})


def row_of(label: str, cards: Sequence[Card], face: Callable[[Card], Face],
           words: Callable[[Card], str], captions: Sequence[str] = ()) -> Row:
    shown = cards[:MAX_ROW_CARDS]
    slots = tuple(Slot(face(c), words(c), captions[i] if i < len(captions) else "")
                  for i, c in enumerate(shown))
    return Row(label, slots, more=len(cards) - len(shown))


def table_scene(game: str, title: str, view: View, names: Sequence[str],
                card_name: Callable[[Card], str], player_lines: Sequence[str]) -> Scene:
    """The public table: the trick, face-up cards, piles' tops, the stock, the players."""
    trump = trump_of(game, view)
    bowers = bowers_of(game, trump)

    def face(card: Card) -> Face:
        return face_of(game, card, trump=trump, bowers=bowers)

    rows: list[Row] = []
    trick_cards = tuple(card for _, card in view.trick)
    if view.trick:
        rows.append(row_of("On the table", trick_cards, face, card_name,
                           [names[p] if 0 <= p < len(names) else f"seat {p + 1}"
                            for p, _ in view.trick]))
    for zone in view.zones:
        if zone.cards is None or zone.count == 0:
            continue
        if zone.kind is ZoneKind.TRICK:
            if zone.cards != trick_cards:
                rows.append(row_of(zone_title(zone, names), zone.cards, face, card_name))
        elif zone.kind is ZoneKind.FACE_UP:
            rows.append(row_of(zone_title(zone, names), zone.cards, face, card_name))
        elif zone.kind is ZoneKind.PILE and zone.top is not None:
            top = zone.top
            rows.append(Row(f"{zone_title(zone, names)} ({zone.count})",
                            (Slot(face(top), f"{card_name(top)} on top"),)))
    for zone in view.zones:
        if zone.kind is ZoneKind.STOCK and zone.count:
            rows.append(Row(zone_title(zone, names), (
                Slot(None, f"{plural(zone.count, 'card')} face down", count=zone.count),)))
    # A fact may name a card as the text does (``Taken up: ♦️2``); a picture says it in
    # words. A fact the picture draws as a row of its own (the prize) is not said twice.
    said = games.get(game).in_words
    drawn = {row.label.casefold() for row in rows}
    facts = " · ".join(f"{name}: {said(value)}" for name, value in view.facts
                       if value and name.casefold() not in drawn)
    return Scene(title, facts, tuple(rows), tuple(player_lines))


def hand_scene(game: str, view: View, cards: Sequence[Card], legal: Sequence[Action],
               card_name: Callable[[Card], str]) -> Scene:
    """The viewer's own cards in the order of the menu's buttons, unplayable ones dimmed."""
    trump = trump_of(game, view)
    bowers = bowers_of(game, trump)
    playable = {a.card for a in legal if a.card is not None}
    slots = []
    for card in cards:
        base = face_of(game, card, trump=trump, bowers=bowers)
        dim = bool(playable) and card not in playable
        face = Face(base.rank, base.letter, base.colour, base.shape, base.ringed, base.starred,
                    dim=dim)
        slots.append(Slot(face, card_name(card) + (" (not playable now)" if dim else "")))
    playable_now = sum(1 for slot in slots if slot.face is not None and not slot.face.dim)
    label = plural(len(slots), "card")
    if playable and playable_now < len(slots):
        label += f", {playable_now} playable now"
    rows = (Row(label, tuple(slots)),) if slots else ()
    return Scene("Your hand", "", rows, ())


__all__ = ["TURN_MARK", "Row", "Scene", "Slot", "hand_scene", "table_scene"]
