"""The ephemeral hand menu: the viewer's own cards as buttons, then every other decision.

Rendered only from ``view_for(seat)`` and ``legal_actions(seat)``, for the one
player who clicked. A card with one legal action plays it in one click; a card
with several (Fizzbin's discard onto a pile) opens a second step listing them.
Hands too large for one message are paged. At a table with hints on, the player
whose turn it is also gets a ``Hint`` button.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import discord

from bot.tables.session import Session
from cogs import ids
from cogs.render.cards import card_label, cards_label
from cogs.render.pictures import HAND_FILE, Picture, as_file, hand_scene_of
from cogs.render.pictures.painter import PAINTER
from cogs.render.pictures.scene import Scene, zone_words
from cogs.render.table import table_lines
from cogs.ui import button, clip, sentence, static_view
from games.core.actions import Action
from games.core.cards import Card
from games.core.game import Game
from games.core.zones import ZoneKind

ROWS = 5
PER_ROW = 5
MAX_DECISION_ROWS = 3
CONTENT_LIMIT = 2000


@dataclass
class Menu:
    content: str
    view: discord.ui.View
    picture: Picture | None = None  # the hand drawn, when the table has pictures on
    scene: Scene | None = None  # what the picture is to show, until it is drawn

    def files(self) -> list[discord.File]:
        """The attachments of the menu: the hand's picture, or none (an edit clears it)."""
        return [as_file(self.picture)] if self.picture is not None else []

    async def painted(self) -> Menu:
        """The menu with its picture drawn, in the painter's threads (not on the loop)."""
        if self.scene is not None and self.picture is None:
            self.picture = await PAINTER.picture(self.scene, HAND_FILE)
        return self


def own_cards(game: Game[Any], seat: int) -> list[tuple[Card, bool]]:
    """The cards ``seat`` holds, as that player sees them: (card, lies face up).

    The hand sorted as the game orders it (suit, then rank; Fumblaroo's trump first),
    the face-up cards after it: exactly the cards of the menu's buttons (a test replays
    whole games against it).
    """
    view = game.view_for(seat)
    held = [c for z in view.zones if z.kind is ZoneKind.HAND and z.owner == seat
            and z.cards is not None for c in z.cards]
    up = [c for z in view.zones if z.kind is ZoneKind.FACE_UP and z.owner == seat
          and z.cards is not None for c in z.cards]
    return [(c, False) for c in game.sorted_hand(held)] + [(c, True) for c in up]


def other_own_zones(session: Session, seat: int) -> list[str]:
    """Lines for the viewer's other own zones (Fibonachos' private deck, for one): a count,
    and the cards only where the rules let the owner see them (a private deck is face down)."""
    assert session.game is not None
    lines = []
    for z in session.game.view_for(seat).zones:
        if z.owner == seat and z.kind not in (ZoneKind.HAND, ZoneKind.COLLECTION,
                                              ZoneKind.PILE, ZoneKind.FACE_UP):
            down = " face down" if z.cards is None else ""
            lines.append(f"Your {zone_words(z)}: "
                         f"{z.count} cards{down}")
    return lines


def _status(session: Session, seat: int) -> str:
    """Whose turn it is, then what the rules ask now (:meth:`Game.rules_ask`), in one line."""
    game = session.game
    assert game is not None
    if game.over:
        return "The game is over."
    if not session.is_open:
        return "This table was ended."
    ask = sentence(game.rules_ask(seat))
    if game.to_act == seat:
        return f"**Your turn**: {ask}"
    if game.to_act is None:
        return f"Waiting. {ask}"
    return f"Waiting for {session.seats[game.to_act].name}. {ask}"


def waiting(session: Session, seat: int) -> bool:
    """Whether ``seat`` waits for another player in a game under way (its menu offers
    ``Refresh``)."""
    game = session.game
    return game is not None and session.is_open and not game.over and game.to_act != seat


def in_words(game: Game[Any], cards: list[Card]) -> str | None:
    """The cards named in words ("Swords 4, King"), for screen readers; None if no different."""
    names = [game.card_name(c) for c in cards]
    if names == [c.text for c in cards]:
        return None
    return ", ".join(names)


def render_hand(session: Session, seat: int, *, page: int = 0, focus: Card | None = None,
                note: str | None = None) -> Menu:
    """``seat``'s menu at the table's current version."""
    game = session.game
    assert game is not None
    table, version = session.table, session.version
    names = session.names()
    held_cards = own_cards(game, seat)
    hand = [card for card, _ in held_cards]
    legal = game.legal_actions(seat)
    held = set(hand)
    by_card: dict[Card, list[Action]] = {}
    decisions: list[Action] = []
    for action in legal:
        if action.card is not None and action.card in held:
            by_card.setdefault(action.card, []).append(action)
        else:
            decisions.append(action)

    lines = []
    if note:
        lines.append(f"> {note}")
    public = game.view_for(None)
    lines.append(f"**{game.title}** · {public.phase}")
    facts = [f"{name}: {value}" for name, value in public.facts if value]
    if facts:
        lines.append(" · ".join(facts))
    lines.extend(table_lines(table.game, public, names))
    lines.append(_status(session, seat))
    lines.append("**Your hand**: " + (cards_label(table.game, [c for c, up in held_cards
                                                                if not up]) or "no cards"))
    spoken = in_words(game, [c for c, up in held_cards if not up])
    if spoken:
        lines.append(f"-# In words: {spoken}")
    face_up = [c for c, up in held_cards if up]
    if face_up:
        lines.append("Face up in front of you: " + cards_label(table.game, face_up))
    lines.extend(other_own_zones(session, seat))

    if focus is not None and focus in by_card:
        lines.append(f"Where does {focus.text} go?")
        choices = [button(game.action_label(a, names), ids.action_id(table.id, version, str(a)),
                          style=discord.ButtonStyle.success) for a in by_card[focus]]
        choices = choices[: (ROWS - 1) * PER_ROW]
        choices.append(button("Back", ids.page_id(table.id, version, 0)))
        return Menu(clip("\n".join(lines), CONTENT_LIMIT), static_view(choices))

    hint = table.hints and game.to_act == seat and not game.over
    decision_buttons = [
        button(game.action_label(a, names), ids.action_id(table.id, version, str(a)),
               style=discord.ButtonStyle.success)
        for a in decisions[: MAX_DECISION_ROWS * PER_ROW - hint]
    ]
    if hint:
        decision_buttons.append(button("Hint", ids.hint_id(table.id)))
    if waiting(session, seat):
        decision_buttons.append(button("Refresh", ids.refresh_id(table.id, page)))
    card_buttons = [
        button(card_label(table.game, card) + (" (face up)" if up else ""),
               ids.card_id(table.id, version, card.text, i),
               style=discord.ButtonStyle.primary if card in by_card
               else discord.ButtonStyle.secondary,
               disabled=card not in by_card)
        for i, (card, up) in enumerate(held_cards)
    ]
    decision_rows = math.ceil(len(decision_buttons) / PER_ROW)
    card_rows = math.ceil(len(card_buttons) / PER_ROW)
    items: list[discord.ui.Button[discord.ui.View]] = []
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
        items.append(button("Previous", ids.page_id(table.id, version, max(page - 1, 0)),
                            disabled=page == 0, row=nav_row))
        items.append(button(f"Next ({page + 1}/{pages})",
                            ids.page_id(table.id, version, min(page + 1, pages - 1)),
                            disabled=page + 1 >= pages, row=nav_row))
    scene = hand_scene_of(game, seat, hand, legal) if table.pictures else None
    return Menu(clip("\n".join(lines), CONTENT_LIMIT), static_view(items), scene=scene)


def _place(items: list[discord.ui.Button[discord.ui.View]],
           buttons: list[discord.ui.Button[discord.ui.View]], *, first_row: int) -> None:
    for index, item in enumerate(buttons):
        item.row = first_row + index // PER_ROW
        items.append(item)
