"""The answer to a person whose seat a computer holds: why, and ``Take my seat back``.

Shown instead of a hand when such a person presses ``Show my hand`` (or types
``/hand``). A person who left or timed out gets the button; a kicked one is told
the seat stays the computer's (see :mod:`bot.tables.seats`).
"""

from __future__ import annotations

import discord

from bot.tables.seats import LostSeat
from cogs import ids
from cogs.render.static_view import StaticView, button


def render_take_back(lost: LostSeat) -> tuple[str, discord.ui.View | None]:
    """The content and buttons of the answer; no buttons when the seat cannot come back."""
    if lost.refusal is not None:
        return f"A computer plays your seat: {lost.refusal}.", None
    view = StaticView([button("Take my seat back", ids.take_back_id(lost.table_id),
                               style=discord.ButtonStyle.success)])
    return (f"A computer plays your seat: {lost.why}. Take it back and play on from here "
            "(or type /join).", view)
