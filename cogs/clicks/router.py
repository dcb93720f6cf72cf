"""Routing clicks by custom id alone: ``DynamicItem`` templates, so buttons survive restarts.

Each template (see :mod:`cogs.ids`) turns a click into a call on the
:class:`cogs.clicks.handlers.Clicks` of the loaded cog. discord.py dispatches a dynamic
item only when its template matches *and* the clicked message carries that
custom id; :func:`is_routed` mirrors that test so every other click (a forged
or unknown id) can be answered instead of failing silently.

Other cogs route their own dynamic items (the leaderboard's pages) and tell
this module with :func:`add_route`, so :func:`is_routed` leaves their clicks to
discord.py and :func:`route_unrouted` hands them a dropped one (a forged id, or
one no longer on its message) to answer.

Every click waits its turn in the lane of the :class:`~cogs.clicks.handlers.Clicks`
(:data:`~cogs.clicks.handlers.LANE` handlers at a time, first come first served), and one
whose turn comes :data:`~cogs.clicks.deadline.LANE_LINE` seconds after Discord made it is
answered busy (:mod:`cogs.clicks.deadline`). A hint, acknowledged before its search in a
worker, steps out of the lane then (:func:`~cogs.clicks.deadline.step_out`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs import ids
from cogs.answers import is_ephemeral
from cogs.clicks.deadline import LANE_LINE, shed
from cogs.clicks.handlers import Clicks
from cogs.clicks.rules import show_rules
from cogs.discord_internals import let_go

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[discord.ui.View]
Fallback = Callable[[Interaction, "re.Match[str]"], Awaitable[None]]


def clicks_of(interaction: Interaction) -> Clicks | None:
    cog: Any = interaction.client.get_cog("TableCommands")
    return cog.clicks if cog is not None else None


class RoutedButton(discord.ui.DynamicItem[Button], template=r"(?!)"):
    """Shared plumbing: the item is rebuilt from its custom id, the real work is in Clicks."""

    def __init__(self, custom_id: str, match: dict[str, str]) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label="-"))
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RoutedButton:
        return cls(str(getattr(item, "custom_id", "")), match.groupdict())

    async def callback(self, interaction: Interaction) -> None:
        try:
            clicks = clicks_of(interaction)
            if clicks is None:
                if not await shed(interaction):
                    await interaction.response.send_message(
                        "The tables are restarting; try again.", ephemeral=True)
                return
            async with clicks.lane.turn(interaction):
                if await shed(interaction, LANE_LINE):
                    return  # too late to act on in time: answered "busy", nothing changed
                await self.handle(clicks, interaction)
        finally:
            let_go(self, interaction)  # answered: nothing reads its view or response again

    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        raise NotImplementedError


class LobbyButton(RoutedButton, template=ids.LOBBY_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.lobby(interaction, self.match["table"], self.match["verb"])


class ComputerButton(RoutedButton, template=ids.COMPUTER_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.computer(interaction, self.match["table"], self.match["level"])


class HintButton(RoutedButton, template=ids.HINT_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.hint(interaction, self.match["table"])


class HandButton(RoutedButton, template=ids.HAND_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.show_hand(interaction, self.match["table"])


class TakeBackButton(RoutedButton, template=ids.TAKE_BACK_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.take_back(interaction, self.match["table"])


class TableViewButton(RoutedButton, template=ids.TABLE_VIEW_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.table_view(interaction, self.match["table"], self.match["what"])


class CardButton(RoutedButton, template=ids.CARD_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.card(interaction, self.match["table"], int(self.match["version"]),
                          self.match["card"])


class ActionButton(RoutedButton, template=ids.ACTION_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.action(interaction, self.match["table"], int(self.match["version"]),
                            self.match["action"])


class PageButton(RoutedButton, template=ids.PAGE_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.page(interaction, self.match["table"], int(self.match["version"]),
                          int(self.match["page"]))


class RefreshButton(RoutedButton, template=ids.REFRESH_TEMPLATE):
    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await clicks.refresh(interaction, self.match["table"], int(self.match["page"]))


class EndButton(RoutedButton, template=ids.END_TEMPLATE):
    """``Play again`` and ``Record`` under a result message (see :mod:`cogs.upkeep.ending`)."""

    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        cog: Any = interaction.client.get_cog("TableCommands")
        await cog.endings.click(interaction, self.match["table"], self.match["what"])


class RulesButton(RoutedButton, template=ids.RULES_TEMPLATE):
    """A section of a game's rules; it edits the rules message it is on (a private one)."""

    async def handle(self, clicks: Clicks, interaction: Interaction) -> None:
        await show_rules(interaction, self.match["game"], self.match["section"],
                         edit=is_ephemeral(interaction))


ITEMS: tuple[type[RoutedButton], ...] = (LobbyButton, ComputerButton, HandButton, HintButton,
                                         TableViewButton, CardButton, ActionButton,
                                         PageButton, TakeBackButton, RefreshButton, EndButton,
                                         RulesButton)
_PATTERNS = [
    (re.compile(template), item)
    for template, item in zip((ids.LOBBY_TEMPLATE, ids.COMPUTER_TEMPLATE, ids.HAND_TEMPLATE,
                               ids.HINT_TEMPLATE, ids.TABLE_VIEW_TEMPLATE, ids.CARD_TEMPLATE,
                               ids.ACTION_TEMPLATE, ids.PAGE_TEMPLATE, ids.TAKE_BACK_TEMPLATE,
                               ids.REFRESH_TEMPLATE, ids.END_TEMPLATE,
                               ids.RULES_TEMPLATE), ITEMS, strict=True)
]


_ROUTES: dict[str, tuple[re.Pattern[str], Fallback]] = {}
"""Other cogs' custom-id templates, each with the handler for a click discord.py drops."""


def add_route(template: str, fallback: Fallback) -> None:
    """Another cog routes ``template`` itself; ``fallback`` answers its dropped clicks."""
    _ROUTES[template] = (re.compile(template), fallback)


def remove_route(template: str) -> None:
    _ROUTES.pop(template, None)


def _match(custom_id: str) -> tuple[type[RoutedButton], re.Match[str]] | None:
    for pattern, item in _PATTERNS:
        found = pattern.fullmatch(custom_id)
        if found is not None:
            return item, found
    return None


def _other_route(custom_id: str) -> tuple[Fallback, re.Match[str]] | None:
    for pattern, fallback in list(_ROUTES.values()):
        found = pattern.fullmatch(custom_id)
        if found is not None:
            return fallback, found
    return None


def is_routed(interaction: Interaction) -> bool:
    """Whether discord.py will hand this click to a dynamic item (see the module docstring)."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    component_type = data.get("component_type")
    known = _match(custom_id) is not None or _other_route(custom_id) is not None
    if not known or interaction.message is None:
        return False
    for row in interaction.message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id and \
                    getattr(child.type, "value", None) == component_type:
                return True
    return False


async def route_unrouted(interaction: Interaction) -> None:
    """A click discord.py drops: a well-formed id goes to its handler, anything else is unknown.

    Such a click names a button that is not on its message: one removed when its
    table ended, or a forged one. Its handler gives the real reason ("this game
    is over", "you do not hold S4"); another cog's id goes to that cog's fallback.
    """
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    other = _other_route(custom_id)
    if other is not None and data.get("component_type") == discord.ComponentType.button.value:
        fallback, match = other
        await fallback(interaction, match)
        return
    clicks = clicks_of(interaction)
    if clicks is None:
        return
    found = _match(custom_id)
    if found is None or data.get("component_type") != discord.ComponentType.button.value:
        await clicks.unknown(interaction)
        return
    item, match = found
    await item(custom_id, match.groupdict()).handle(clicks, interaction)
