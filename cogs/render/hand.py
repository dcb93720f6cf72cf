"""The ephemeral hand menu: the viewer's own cards as buttons, then every other decision.

Rendered only from a :class:`~bot.tables.snapshots.MenuSnapshot` (the seat's view, the
public view, its legal actions and their words), for the one player who clicked: the
table service takes it, so nothing here reads the live game. A card with one legal
action plays it in one click; a card with several (Fizzbin's discard onto a pile) opens
a second step listing them. Hands too large for one message are paged. At a table with
hints on, the player whose turn it is also gets a ``Hint`` button.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import discord

from bot.tables.snapshots import MenuSnapshot
from cogs import ids
from cogs.render.cards import card_label, cards_label
from cogs.render.pictures import HAND_FILE, Picture, as_file
from cogs.render.pictures.painter import PAINTER
from cogs.render.pictures.scene import Scene, hand_scene
from cogs.render.static_view import StaticButton, StaticView, button
from cogs.render.table import table_lines
from cogs.render.text import CONTENT_LIMIT, clip, plural, sentence
from games.core.actions import Action
from games.core.cards import Card
from games.core.words import fact_words
from games.core.zones import ZoneKind, zone_words

ROWS = 5
PER_ROW = 5
MAX_DECISION_ROWS = 3


@dataclass
class Menu:
    content: str
    view: discord.ui.View
    picture: Picture | None = None  # the hand drawn, when the table has pictures on
    scene: Scene | None = None  # what the picture is to show, until it is drawn

    def files(self) -> list[discord.File]:
        """The attachments of the menu: the hand's picture, or none (an edit clears it)."""
        return [as_file(self.picture)] if self.picture is not None else []

    async def painted(self, *, urgent: bool = False) -> Menu:
        """The menu with its picture drawn, in the painter's workers (not on the loop);
        ``urgent`` when someone waits for it (see :meth:`Painter.picture`)."""
        if self.scene is not None and self.picture is None:
            self.picture = await PAINTER.picture(self.scene, HAND_FILE, urgent=urgent)
        return self


def other_own_zones(menu: MenuSnapshot) -> list[str]:
    """Lines for the viewer's other own zones (Fibonachos' private deck, for one): a count,
    and the cards only where the rules let the owner see them (a private deck is face down)."""
    lines = []
    for z in menu.view.zones:
        if z.owner == menu.seat and z.kind not in (ZoneKind.HAND, ZoneKind.COLLECTION,
                                                   ZoneKind.PILE, ZoneKind.FACE_UP):
            down = " face down" if z.cards is None else ""
            lines.append(f"Your {zone_words(z)}: {plural(z.count, 'card')}{down}")
    return lines


def _status(menu: MenuSnapshot) -> str:
    """Whose turn it is, then what the rules ask now (:meth:`Game.rules_ask`), in one line."""
    if menu.over:
        return "The game is over."
    if not menu.is_open:
        return "This table was ended."
    ask = sentence(menu.ask)
    if menu.to_act == menu.seat:
        return f"**Your turn**: {ask}"
    if menu.to_act is None:
        return f"Waiting. {ask}"
    name = menu.names[menu.to_act]
    rest = ask.removeprefix("Waiting for the lead")
    if rest != ask:  # said once: "Waiting for Ana to lead; red is trump."
        return f"Waiting for {name} to lead{rest}"
    return f"Waiting for {name}. {ask}"


def in_words(menu: MenuSnapshot, cards: list[Card]) -> str | None:
    """The cards named in words ("Swords 4, King"), for screen readers; None if no different."""
    names = [menu.card_name(c) for c in cards]
    if names == [c.text for c in cards]:
        return None
    return ", ".join(names)


def render_hand(menu: MenuSnapshot, *, page: int = 0, focus: Card | None = None,
                note: str | None = None) -> Menu:
    """The menu ``menu`` describes (one seat's, at one version of the table)."""
    table_id, version, names = menu.table_id, menu.version, list(menu.names)
    held_cards = [(c, False) for c in menu.hand] + [(c, True) for c in menu.face_up]
    hand = [card for card, _ in held_cards]
    held = set(hand)
    by_card: dict[Card, list[Action]] = {}
    decisions: list[Action] = []
    for action in menu.legal:
        if action.card is not None and action.card in held:
            by_card.setdefault(action.card, []).append(action)
        else:
            decisions.append(action)

    lines = []
    if note:
        lines.append(f"> {note}")
    public = menu.public
    lines.append(f"**{menu.title}** · {public.phase}")
    facts = fact_words(public, names, said=menu.ask)
    if facts:
        lines.append(" · ".join(facts))
    lines.extend(table_lines(menu.game, public, names))
    lines.append(_status(menu))
    lines.append("**Your hand**: " + (cards_label(menu.game, list(menu.hand)) or "no cards"))
    spoken = in_words(menu, list(menu.hand))
    if spoken:
        lines.append(f"-# In words: {spoken}")
    if menu.face_up:
        lines.append("Face up in front of you: " + cards_label(menu.game, list(menu.face_up)))
    if not menu.over:
        lines.extend(menu.notes)
    lines.extend(other_own_zones(menu))

    if focus is not None and focus in by_card:
        lines.append(f"Where does {card_label(menu.game, focus)} go?")
        choices = [button(menu.label(a), ids.action_id(table_id, version, str(a)),
                          style=discord.ButtonStyle.success) for a in by_card[focus]]
        choices = choices[: (ROWS - 1) * PER_ROW]
        choices.append(button("Back", ids.page_id(table_id, version, 0)))
        return Menu(clip("\n".join(lines), CONTENT_LIMIT), StaticView(choices))

    hint = menu.hints and menu.to_act == menu.seat and not menu.over
    decision_buttons = [
        button(menu.label(a), ids.action_id(table_id, version, str(a)),
               style=discord.ButtonStyle.success)
        for a in decisions[: MAX_DECISION_ROWS * PER_ROW - hint]
    ]
    if hint:
        decision_buttons.append(button("Hint", ids.hint_id(table_id)))
    if menu.waiting:
        decision_buttons.append(button("Refresh", ids.refresh_id(table_id, page)))
    card_buttons = [
        button(card_label(menu.game, card) + (" (face up)" if up else ""),
               ids.card_id(table_id, version, card.text, i),
               style=discord.ButtonStyle.primary if card in by_card
               else discord.ButtonStyle.secondary,
               disabled=card not in by_card)
        for i, (card, up) in enumerate(held_cards)
    ]
    decision_rows = math.ceil(len(decision_buttons) / PER_ROW)
    card_rows = math.ceil(len(card_buttons) / PER_ROW)
    items: list[StaticButton] = []
    if card_rows + decision_rows <= ROWS:
        _place(items, card_buttons, first_row=0)
        _place(items, decision_buttons, first_row=card_rows)
    else:
        rows_for_cards = max(1, ROWS - decision_rows - 1)
        per_page = rows_for_cards * PER_ROW
        pages = math.ceil(len(card_buttons) / per_page)
        page = min(max(page, 0), pages - 1)
        _place(items, card_buttons[page * per_page:(page + 1) * per_page], first_row=0)
        _place(items, decision_buttons, first_row=rows_for_cards)
        nav_row = rows_for_cards + decision_rows
        items.append(button("Previous", ids.page_id(table_id, version, max(page - 1, 0)),
                            disabled=page == 0, row=nav_row))
        items.append(button(f"Next ({page + 1}/{pages})",
                            ids.page_id(table_id, version, min(page + 1, pages - 1)),
                            disabled=page + 1 >= pages, row=nav_row))
    scene = hand_scene(menu.game, menu.view, hand, menu.legal, menu.card_name) \
        if menu.pictures and hand else None
    return Menu(clip("\n".join(lines), CONTENT_LIMIT), StaticView(items), scene=scene)


def _place(items: list[StaticButton], buttons: list[StaticButton], *, first_row: int) -> None:
    for index, item in enumerate(buttons):
        item.row = first_row + index // PER_ROW
        items.append(item)
