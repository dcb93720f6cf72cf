"""Answering every interaction within Discord's 3 s deadline, whatever the load.

A click or command that reaches its handler :data:`SHED_AFTER` seconds after Discord
created it has waited behind the process's backlog: acting on it would answer late, and
the work would deepen the backlog for the clicks behind it. :func:`shed` refuses it at
once with :data:`BUSY`, privately, changing nothing (one REST call, no table touched); the
person clicks again a moment later. Shedding costs a fraction of acting, so a bot past its
capacity drains its backlog instead of answering ever later, and every answer it gives
still arrives in time (``bench.bot`` counts shed clicks apart from late ones). Meanwhile
the work that answers nobody waits for the loop (:func:`bot.load.LoopLoad.calm`).

Age alone at the gateway does not show every backlog. A burst of clicks read together is
young when read; run all at once, each step of each of them waits for a step of every
other, so all of them are answered after the work of all of them, late together. So clicks
take turns in a lane of bounded width (:data:`cogs.clicks.handlers.LANE`, first come first
served): a burst is answered in order, and the time each waits is the work ahead of it.
One whose turn comes :data:`LANE_LINE` seconds after Discord made it is refused as busy
then; the lane's width bounds what is left to do for it, so its answer is still in time.
A click that waits on something other than the loop once acknowledged (a hint, deferred
while its search runs in a worker) steps out of the lane then (:class:`Lane`,
:func:`step_out`), so that wait keeps no other click from its turn. A click deferred because
its own work ran long (:func:`in_time`) keeps its place: that work is the loop's, which the
lane shares out.

The refusal is made twice over, by one test (:func:`too_late`). First at the gateway
(:class:`Gate`), the moment discord.py reads the event, before it builds an
``Interaction``, finds the clicked item and starts the handler's task: on a loop that
far behind, that work and the wait for the handler's turn are what would make the
answer late, so an interaction already too old is answered busy from its raw payload
(or, past Discord's deadline, dropped: Discord would refuse any answer). Then in the
handler (:func:`shed`), for one that aged past the line while it waited its turn there
(a click: its turn in the lane, at :data:`LANE_LINE`; a command: at :data:`SHED_AFTER`).

A click that acts waits for the session's lock and for its action to be durable
(:meth:`bot.tables.actions.Actions.act`) before the menu can show the result. Usually that is a
few milliseconds and the menu is the answer itself (one REST call). Under load the
lock and the store's queue can hold it for longer, and an answer after 3 s is
refused: the person sees "This interaction failed" although their card was played.

:func:`in_time` awaits such work until :data:`ANSWER_BUDGET` seconds after Discord
created the interaction (its snowflake's time, so time spent queued before the
handler ran counts too); if the work is not done by then, the interaction is
deferred (acknowledged, "thinking") and the work goes on. :func:`edit_menu` and
:func:`send_menu` then answer either way: as the response, or, once deferred, by
editing the original message or with a followup. The work itself is never
cancelled: the action is applied and saved however late its answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import aiohttp
import discord
from discord.utils import MISSING

from cogs.answers import ANSWER_BUDGET, age, snowflake_age
from cogs.discord_internals import (
    Parser,
    answer_by_token,
    edit_original,
    gateway_parsers,
    respond,
)

Interaction = discord.Interaction[Any]
T = TypeVar("T")

DEADLINE = 3.0
"""Discord's: an interaction not acknowledged by then has failed."""
SHED_AFTER = 1.0
"""Seconds after an interaction was created from which the gateway refuses it as busy when
it reads it (and a command's handler when it starts; a click's handler waits for
:data:`LANE_LINE`): the work of a click answers within about a second more even on a
loaded bot, and a busy answer goes out in a few milliseconds."""
LANE_LINE = 2.0
"""Seconds after a click was created from which it is refused as busy when its turn in the
lane comes (see the module docstring): later than :data:`SHED_AFTER`, since a click that
has its turn has only its own work ahead of it, and that of the few beside it in the lane,
a few hundred milliseconds under load; measured with ``bench.bot`` at 1,000 and 2,000
saturated tables, where 1.75 s refused more and 2.25 s left a p99 of 2.7 s."""

BUSY = "The table is busy; try again in a moment."
"""The answer to a click the bot is too far behind to act on in time (nothing changed)."""
EPHEMERAL = 64
"""The message flag of an answer only its clicker sees."""
SHED_TYPES = frozenset({2, 3})
"""Interaction types answered busy when too late: slash commands and clicks. An
autocomplete cannot carry a message (it is dropped when past the deadline, else left to
discord.py) and a modal's answer keeps what the person typed (it is always acted on)."""

log = logging.getLogger(__name__)


class Shedding:
    """Counts shed interactions and says so in the log, once in a while (a busy bot sheds
    in bursts, and a line per click would cost what shedding saves)."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self.count = 0
        self._said = 0
        self._last: float | None = None

    def note(self, old: float) -> None:
        self.count += 1
        now = time.monotonic()
        if self._last is None or now - self._last >= self.every:
            log.warning("the bot is behind: %d interaction(s) answered busy since the last "
                        "note (past Discord's deadline: dropped), the latest %.1f s old",
                        self.count - self._said, old)
            self._said, self._last = self.count, now


SHEDDING = Shedding()


class Lane:
    """At most ``width`` clicks handled at once, first come first served (see the module
    docstring): a click waits for a place (:meth:`turn`) and holds it until it is answered
    or acknowledged (:func:`step_out`)."""

    def __init__(self, width: int) -> None:
        self._places = asyncio.Semaphore(width)
        self.clicks = 0
        """Clicks in the lane now: waiting for a place, or handled (stepped out or not),
        until their handler returns."""

    async def acquire(self) -> None:
        """Wait for a place."""
        await self._places.acquire()

    def release(self) -> None:
        """Give a place back to the next in line."""
        self._places.release()

    def full(self) -> bool:
        """Whether every place is taken (a click now would wait its turn)."""
        return self._places.locked()

    @contextlib.asynccontextmanager
    async def turn(self, interaction: Interaction) -> AsyncIterator[None]:
        """Hold a place for ``interaction`` while the block runs, or until it steps out."""
        self.clicks += 1
        try:
            await self.acquire()
            place = _Place(self, interaction.id)
            token = _PLACE.set(place)
            try:
                yield
            finally:
                place.leave()
                _PLACE.reset(token)
        finally:
            self.clicks -= 1


class _Place:
    """One click's place in a :class:`Lane`, given back once."""

    __slots__ = ("held", "interaction_id", "lane")

    def __init__(self, lane: Lane, interaction_id: int) -> None:
        self.lane, self.interaction_id, self.held = lane, interaction_id, True

    def leave(self) -> None:
        if self.held:
            self.held = False
            self.lane.release()


_PLACE: contextvars.ContextVar[_Place | None] = contextvars.ContextVar("lane_place",
                                                                      default=None)
"""The place in the lane of the click whose handler runs in this task, if any."""


def step_out(interaction: Interaction) -> None:
    """``interaction`` has been acknowledged: its place in the lane goes to the next click
    (nothing if it holds none, as a slash command or a click outside the lane)."""
    place = _PLACE.get()
    if place is not None and place.interaction_id == interaction.id:
        place.leave()


def too_late(old: float, line: float = SHED_AFTER) -> bool:
    """Whether an interaction ``old`` seconds old is too late to be acted on in time."""
    return old >= line


def answerable(old: float) -> bool:
    """Whether Discord still takes an answer to an interaction ``old`` seconds old."""
    return old < DEADLINE


async def shed(interaction: Interaction, line: float = SHED_AFTER) -> bool:
    """Whether ``interaction`` came too late to be acted on in time; if so it has been
    answered :data:`BUSY` (or, already past Discord's deadline, not at all: Discord would
    refuse the answer) and must be left alone."""
    old = age(interaction)
    if not too_late(old, line):
        return False
    SHEDDING.note(old)
    if answerable(old) and not interaction.response.is_done():
        try:
            await respond(interaction, BUSY, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("a busy answer was refused (%.1f s old): %s", age(interaction), exc)
    return True


async def not_shed(interaction: Interaction) -> bool:
    """The command tree's check: a slash command too late to run in time is shed too."""
    return not await shed(interaction)


CLICK = 3
"""The interaction type of a click on a message's component."""
ACTION_ROW = 1
COMPONENTS_V2 = 1 << 15
"""The message flag of a layout of containers and sections (not rows of buttons)."""


def clicked_only(data: Any) -> Any:
    """A click's payload with its message's components cut to the one clicked (its row
    with it alone), or to none when the message does not carry it; anything else as it is.

    discord.py parses the clicked message's every component twice per click (into the
    ``Interaction``'s message, then into a view to find the dynamic item), a hand menu's
    25 buttons each time, and nothing here reads the others: routing needs the clicked
    one alone, and whether it is there (:func:`cogs.clicks.router.is_routed`). A layout
    other than rows of components (components v2), or anything malformed, is left whole.
    """
    if not isinstance(data, dict) or data.get("type") != CLICK:
        return data
    message, inner = data.get("message"), data.get("data")
    if not isinstance(message, dict) or not isinstance(inner, dict):
        return data
    rows, custom_id = message.get("components"), inner.get("custom_id")
    flags = message.get("flags", 0)
    if (not isinstance(rows, list) or not isinstance(custom_id, str)
            or not isinstance(flags, int) or flags & COMPONENTS_V2):
        return data
    kept: list[Any] = []
    for row in rows:
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            return data
        children = row.get("components")
        if not isinstance(children, list):
            return data
        for child in children:
            if (isinstance(child, dict) and child.get("custom_id") == custom_id
                    and child.get("type") == inner.get("component_type") and not kept):
                kept = [{**row, "components": [child]}]
    return {**data, "message": {**message, "components": kept}}


class Gate:
    """Refuses, where discord.py reads them from the gateway, the interactions already too
    late to act on (the first of the two refusals above).

    :meth:`install` wraps the connection's ``INTERACTION_CREATE`` parser (discord.py keeps
    one per event name, in ``parsers``; every shard of the client shares it). An
    interaction on time goes on to discord.py untouched. One too late is answered busy
    with a single REST call made from its raw id and token, the same call discord.py's
    ``send_message`` makes, on a task of its own; one past Discord's deadline is dropped.
    Either way nothing else runs for it: no ``Interaction``, no item, no handler.

    A click on time goes on with its message's components cut to the one clicked
    (:func:`clicked_only`), which spares discord.py parsing the rest twice.
    """

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._answers: set[asyncio.Task[None]] = set()
        self._parse: Parser | None = None

    def install(self) -> None:
        parsers = gateway_parsers(self.client)
        if self._parse is None:
            self._parse = parsers["INTERACTION_CREATE"]
            parsers["INTERACTION_CREATE"] = self.parse

    def remove(self) -> None:
        if self._parse is not None:
            gateway_parsers(self.client)["INTERACTION_CREATE"] = self._parse
            self._parse = None

    def parse(self, data: Any) -> None:
        assert self._parse is not None
        if data.get("type") not in SHED_TYPES:
            self._parse(data)
            return
        try:
            interaction_id, token = int(data["id"]), data["token"]
        except (KeyError, TypeError, ValueError):
            interaction_id, token = 0, None
        if not isinstance(token, str) or interaction_id <= 0:
            self._parse(data)  # not what Discord sends: discord.py's own parser says so
            return
        old = snowflake_age(interaction_id)
        if not too_late(old):
            self._parse(clicked_only(data))
            return
        SHEDDING.note(old)
        if answerable(old):
            task = asyncio.get_running_loop().create_task(
                self._busy(interaction_id, token, old), name="busy-answer")
            self._answers.add(task)
            task.add_done_callback(self._answers.discard)

    async def _busy(self, interaction_id: int, token: str, old: float) -> None:
        try:
            await answer_by_token(self.client, interaction_id, token, BUSY, flags=EPHEMERAL)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            # Refused or not delivered: the person sees the click fail, nothing changed.
            log.info("a busy answer was not delivered (%.1f s old at the gateway): %r", old, exc)


async def in_time(interaction: Interaction, work: Awaitable[T], *,
                  budget: float | None = None) -> T:
    """The result of ``work``; ``interaction`` deferred first if ``work`` runs past the budget."""
    task = asyncio.ensure_future(work)
    remaining = (ANSWER_BUDGET if budget is None else budget) - age(interaction)
    if remaining > 0:
        await asyncio.wait({task}, timeout=remaining)
    if not task.done():
        await defer(interaction)
    return await task


async def defer(interaction: Interaction) -> None:
    """Acknowledge ``interaction`` now, if not yet answered; a refused defer is only logged
    (the work goes on, and its answer will say what happened or be logged in turn)."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer()
    except discord.HTTPException as exc:
        log.warning("could not defer a slow interaction (%.1f s old): %s", age(interaction), exc)


async def edit_menu(interaction: Interaction, *, content: str | None,
                    view: discord.ui.View | None,
                    attachments: list[discord.File] = MISSING) -> None:
    """Replace the clicked message (a hand menu): the response, or an edit once deferred."""
    if interaction.response.is_done():
        await edit_original(interaction, content=content, view=view, attachments=attachments)
    else:
        await respond(interaction, content, update=True, view=view, files=attachments)


async def send_menu(interaction: Interaction, content: str | None, *,
                    view: discord.ui.View, files: list[discord.File]) -> None:
    """A new ephemeral message: the response, or a followup once deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content or "", view=view, files=files, ephemeral=True)
    else:
        await respond(interaction, content, view=view, files=files, ephemeral=True)
