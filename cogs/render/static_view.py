"""The bot's own view for a message with buttons (:class:`StaticView` of
:class:`StaticButton`, made with :func:`button`): it only describes components, and clicks
are routed by custom id (``cogs.clicks.router``), never by a view kept in memory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

import discord

from cogs.render.text import unescaped


@dataclass(slots=True)
class StaticButton:
    """A button as the bot sends it: what discord.py's ``Button`` would say of it, no more.

    Its ``row`` may be set until it is laid out in a :class:`StaticView`.
    """

    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The component, as discord.py's ``Button.to_component_dict`` writes it."""
        payload: dict[str, Any] = {"type": 2, "style": self.style.value,
                                   "disabled": self.disabled}
        if self.label:
            payload["label"] = self.label
        if self.custom_id:
            payload["custom_id"] = self.custom_id
        return payload


class StaticView(discord.ui.View):
    """A view that only describes components: clicks are routed by custom id, not by it.

    Every message the bot sends with buttons has one, and a busy bot sends hundreds a
    second, so it is made for that alone: its buttons are laid out in rows once, as
    discord.py lays out a view's items (a button with a row goes there, one without to the
    first row with room; at most 25, five a row), and :meth:`to_components` writes them.
    ``discord.ui.View.__init__`` is deliberately not called: it draws a random id from the
    operating system, makes a future on the event loop and walks the class's declared
    items, all for a view that discord.py keeps and dispatches to, which this one never is
    (:meth:`is_finished`, and no item of it is dispatchable). discord.py reads a view it is
    given through :meth:`to_components`, :meth:`has_components_v2`, :meth:`is_finished`,
    :meth:`is_dispatchable` and :attr:`timeout`; those are all it needs here.
    """

    def __init__(self, buttons: Sequence[StaticButton] = ()) -> None:
        self.buttons = list(buttons)
        if len(self.buttons) > 25:
            raise ValueError("maximum number of children exceeded")
        weights = [0] * 5
        self._rows: list[int] = []
        for item in self.buttons:
            if item.row is not None:
                if not 0 <= item.row < 5:
                    raise ValueError("row cannot be negative or greater than or equal to 5")
                if weights[item.row] >= 5:
                    raise ValueError(f"item would not fit at row {item.row} (6 > 5 width)")
                row = item.row
            else:
                row = next((r for r, weight in enumerate(weights) if weight < 5), -1)
                if row < 0:
                    raise ValueError("could not find open space for item")
            weights[row] += 1
            self._rows.append(row)

    def __repr__(self) -> str:
        return f"<StaticView buttons={len(self.buttons)}>"

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        raise AttributeError("a static view never times out")

    @property
    def children(self) -> list[discord.ui.Item[Self]]:
        """The buttons as discord.py items, made when asked (nothing in the bot asks)."""
        return [discord.ui.Button(label=b.label, custom_id=b.custom_id, style=b.style,
                                  disabled=b.disabled, row=b.row) for b in self.buttons]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, top to bottom, each with its buttons in the order given."""
        rows: dict[int, list[dict[str, Any]]] = {}
        for row, item in zip(self._rows, self.buttons, strict=True):
            rows.setdefault(row, []).append(item.to_dict())
        return [{"type": 1, "components": rows[row]} for row in sorted(rows)]


def button(label: str, custom_id: str, *,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           disabled: bool = False, row: int | None = None) -> StaticButton:
    """A button; its label is plain text (Discord shows no markdown there), so a name
    escaped for messages (:func:`cogs.render.text.safe_name`) reads as it was typed."""
    return StaticButton(unescaped(label)[:80], custom_id, style, disabled, row)

