"""What a button's custom id says, read through the product's own scheme (:mod:`cogs.ids`).

A test asks here what a button is (a card of a hand menu, another decision, a page...) and
what it names (its card, the table version its menu was drawn for, its move in record
notation), never by slicing the id by hand: an id is read with the templates the bot routes
clicks with (:mod:`cogs.clicks.router`), and forged with the builders the bot draws buttons
with, so a test and the bot can never read one id two ways.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from cogs import ids

TEMPLATES: Mapping[str, str] = {
    "lobby": ids.LOBBY_TEMPLATE,
    "computer": ids.COMPUTER_TEMPLATE,
    "hand": ids.HAND_TEMPLATE,
    "hint": ids.HINT_TEMPLATE,
    "take back": ids.TAKE_BACK_TEMPLATE,
    "table view": ids.TABLE_VIEW_TEMPLATE,
    "end": ids.END_TEMPLATE,
    "rules": ids.RULES_TEMPLATE,
    "card": ids.CARD_TEMPLATE,
    "action": ids.ACTION_TEMPLATE,
    "page": ids.PAGE_TEMPLATE,
    "refresh": ids.REFRESH_TEMPLATE,
    "leaderboard": ids.LEADERBOARD_TEMPLATE,
    "watch": ids.WATCH_TEMPLATE,
    "watching": ids.WATCHING_TEMPLATE,
    "listed": ids.LISTED_TEMPLATE,
    "tables": ids.TABLES_TEMPLATE,
}
"""Every kind of custom id the bot routes, by its template in :mod:`cogs.ids`."""

PUBLIC_KINDS = frozenset({"lobby", "hand", "table view", "end", "watch"})
"""The kinds a public table message may carry: the lobby's buttons, Show my hand, Watch,
Details and Rules, Play again, Record and Same cards. None of them can name a card."""


@dataclass(frozen=True)
class CustomId:
    """A custom id as the bot reads it: its kind and the fields its template names."""

    kind: str
    fields: Mapping[str, str]


def parse(custom_id: str | None) -> CustomId | None:
    """``custom_id`` read by the one template of :mod:`cogs.ids` it matches in full; None
    for no id, or one the bot routes nowhere (forged, foreign, or of no kind it knows)."""
    if not custom_id:
        return None
    found = [(kind, match) for kind, template in TEMPLATES.items()
             if (match := re.fullmatch(template, custom_id))]
    if not found:
        return None
    assert len(found) == 1, f"{custom_id!r} reads as each of {[k for k, _ in found]}"
    kind, match = found[0]
    return CustomId(kind, match.groupdict())


def kind_of(custom_id: str | None) -> str | None:
    """The kind of ``custom_id`` (a key of :data:`TEMPLATES`), None if it has none."""
    parsed = parse(custom_id)
    return None if parsed is None else parsed.kind


def is_card(custom_id: str | None) -> bool:
    """A card button of a hand menu."""
    return kind_of(custom_id) == "card"


def is_action(custom_id: str | None) -> bool:
    """A hand menu's button for any decision other than a card (a claim, a bid, a pass,
    where a card goes)."""
    return kind_of(custom_id) == "action"


def is_move(custom_id: str | None) -> bool:
    """A hand-menu button that makes a move: a card, or any other decision."""
    return kind_of(custom_id) in ("card", "action")


def is_public(custom_id: str | None) -> bool:
    """Of a kind a public message may carry (:data:`PUBLIC_KINDS`)."""
    return kind_of(custom_id) in PUBLIC_KINDS


def _fields(custom_id: str, *kinds: str) -> Mapping[str, str]:
    parsed = parse(custom_id)
    assert parsed is not None and parsed.kind in kinds, f"{custom_id!r} is not a {kinds} id"
    return parsed.fields


def card_of(custom_id: str) -> str:
    """The card a card button plays, in record notation (``S4``)."""
    return _fields(custom_id, "card")["card"]


def version_of(custom_id: str) -> int | None:
    """The table version a hand-menu button was drawn for (cards, decisions and pages carry
    one); None for an id that carries none (Refresh, the public buttons)."""
    parsed = parse(custom_id)
    assert parsed is not None, f"{custom_id!r} is no id the bot routes"
    version = parsed.fields.get("version")
    return None if version is None else int(version)


def move_words(custom_id: str) -> str:
    """What the record's action line says of this move: the card of a card button (the
    line reads ``play S4``), or the whole action of any other decision."""
    fields = _fields(custom_id, "card", "action")
    return fields["card"] if "card" in fields else ids.action_text(fields["action"])


def naming_card(custom_id: str, card: str) -> str:
    """The card button ``custom_id``, forged to name ``card`` instead (its table, version
    and index kept): a click no menu offered."""
    fields = _fields(custom_id, "card")
    return ids.card_id(fields["table"], int(fields["version"]), card, int(fields["index"]))


__all__ = ["PUBLIC_KINDS", "TEMPLATES", "CustomId", "card_of", "is_action", "is_card",
           "is_move", "is_public", "kind_of", "move_words", "naming_card", "parse",
           "version_of"]
