"""Hand menus that follow the game: each person's latest menu is edited when it changes for them.

A hand menu is an ephemeral message, and Discord lets the bot edit one only through
the token of the interaction that sent it or last updated it (its "original
response"), for 15 minutes from when that token was issued. So for every person at a
table this module keeps the latest menu interaction (``Show my hand``, ``/hand``, or
any later click on the menu itself, which renews the token) for :attr:`LiveMenus.lifetime`,
a minute inside Discord's limit, and edits that menu when the game changes *for that
player* (:func:`menu_state`): the turn reaches them, the cards they may play change,
the trick they are in is won, a round or the game ends. Another player's card alone
does not edit every menu at the table.

Edits are coalesced per person the way :class:`cogs.upkeep.publisher.Publisher` coalesces
table edits: one edit in flight, rendered when it is sent, so the latest state wins.
While a click of that person is being answered their menu is *held*: the click's own
answer shows the new state (with what it did), and no edit races it. An edit that
fails (the menu was dismissed, 10015/10008; the token is no longer valid, 50027) just
forgets that menu, and the publisher is told so the turn ping can bring the player
back. A menu is never edited once its time is up. Menus live in memory only: after a
restart the ping is the way back, as it was before menus followed the game.

A watcher's view (``Watch``, :mod:`cogs.clicks.browsing`) is kept here the same way, by
the same rules (one edit in flight, the latest state wins, never past its token's time),
and edited after every move, since a watcher wants to see the cards fall; it shows the
public snapshot only (:func:`cogs.render.watch.render_watch`), and is forgotten when its
person stops watching, takes a seat, or the game ends (after the edit that shows the end).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.load import LOAD
from bot.tables.session import Session, TableListener
from bot.tables.snapshots import MenuKey, MenuSnapshot, menu_key, menu_of, table_of
from cogs.answers import NO_MENTIONS
from cogs.discord_internals import edit_original
from cogs.render.hand import Menu, render_hand
from cogs.render.watch import render_watch
from cogs.upkeep.tasks import settled

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

LIFETIME = 14 * 60.0
"""Seconds a kept menu is edited for, counted from when its token was issued (Discord: 15 min)."""
ACTIVE_FOR = 5.0
"""Seconds after using their menu that a person counts as watching: no turn ping for them."""
RECENT_IN_NOTE = 2
"""How many of the latest events an edited menu quotes above the hand."""

Edit = Callable[..., Awaitable[None]]
MenuOwner = tuple[str, int]  # (table id, user id)


def menu_state(menu: MenuSnapshot) -> MenuKey:
    """What, when it changes, is worth editing a seat's menu (``menu``) for.

    Whether it is their turn, what they may do, the cards they hold (in the order the
    menu shows them: Fumblaroo's trump moves them), how many tricks and rounds are
    done, whether the game or the table ended. Not the other players' cards as they
    fall: a menu that waits is refreshed by its ``Refresh`` button, or when the turn
    or the trick comes round. :func:`bot.tables.snapshots.menu_key` reads the same from
    the game without a snapshot, as each change asks of every kept menu at its table.
    """
    return menu.key


def watch_key(session: Session) -> MenuKey:
    """What, when it changes, is worth editing a watcher's view for: any move (the version),
    the table closing; read from the table, without a snapshot."""
    return (session.table.status, session.table.version)


def token_age(interaction: Interaction) -> float:
    """Seconds since Discord issued ``interaction``'s token (its snowflake's time)."""
    age = (dt.datetime.now(dt.UTC) - interaction.created_at).total_seconds()
    return max(0.0, age)


@dataclass
class LiveMenu:
    """One person's latest hand menu: the interaction whose token edits it."""

    interaction: Interaction
    issued: float  # on :attr:`LiveMenus.clock`
    page: int
    shown: MenuKey | None
    watching: bool = False  # a watcher's view rather than a hand menu


class LiveMenus:
    """Every kept hand menu of this bot, by table and person."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 lost: Callable[[Session], None] | None = None,
                 edit: Edit = edit_original) -> None:
        # The clock token lifetimes are measured on; tests move it (the fake Discord's).
        self.clock = clock
        self.edit = edit  # edits a kept menu through its token (tests: a stand-in's)
        self.lifetime = LIFETIME
        self.active_for = ACTIVE_FOR
        # Told when a menu could not be edited: the player may need the ping again.
        self.lost = lost
        self._menus: dict[str, dict[int, LiveMenu]] = {}
        self._used: dict[str, dict[int, float]] = {}  # when each person last used a menu
        self._held: set[MenuOwner] = set()
        self._dirty: set[MenuOwner] = set()
        self._running: dict[MenuOwner, asyncio.Task[None]] = {}

    # --- keeping --------------------------------------------------------------------------

    @contextlib.contextmanager
    def answering(self, session: Session, user_id: int) -> Iterator[None]:
        """Hold ``user_id``'s menu while a click of theirs is answered (see the module)."""
        key = (session.id, user_id)
        self._held.add(key)
        # They are clicking now, so they are watching: a turn that reaches them while
        # this click is answered (the action may run in a task of its own, see
        # cogs.clicks.deadline.in_time) needs no ping, whether or not their token is still fresh.
        self._used.setdefault(session.id, {})[user_id] = self.clock()
        try:
            yield
        finally:
            self._held.discard(key)
            if key in self._dirty:
                self._start(session, user_id)

    def keep(self, session: Session, menu: MenuSnapshot, interaction: Interaction, *,
             page: int = 0) -> None:
        """``interaction`` has just shown ``menu``: keep it. What it shows is the snapshot's
        state, not the table's now (rendering no second snapshot, and a table that moved on
        while the answer went out still gets its edit)."""
        if not session.in_play:
            self.forget(session, interaction.user.id)  # nothing left to follow
            return
        self._used.setdefault(session.id, {})[interaction.user.id] = self.clock()
        self._keep(session, interaction, LiveMenu(
            interaction, self._issued(interaction), page, menu_state(menu)))

    def keep_watching(self, session: Session, interaction: Interaction) -> None:
        """``interaction`` has just shown its person's view of the game they watch: keep it."""
        if not session.in_play or interaction.user.id not in session.watchers:
            self.forget(session, interaction.user.id)
            return
        self._keep(session, interaction, LiveMenu(
            interaction, self._issued(interaction), 0, watch_key(session), watching=True))

    def _issued(self, interaction: Interaction) -> float:
        return self.clock() - token_age(interaction)

    def _keep(self, session: Session, interaction: Interaction, menu: LiveMenu) -> None:
        user_id = interaction.user.id
        # Its token is all a kept menu needs: the message clicked (a table with its embed and
        # buttons, or the menu itself) would be held for 14 minutes per person for nothing.
        interaction.message = None
        self._menus.setdefault(session.id, {})[user_id] = menu
        if (session.id, user_id) in self._running:
            # An edit through the older token is in flight: follow it with the state now.
            self._dirty.add((session.id, user_id))
            menu.shown = None

    def is_live(self, session: Session, user_id: int) -> bool:
        """Whether ``user_id`` has a menu at this table that is still kept up to date."""
        menu = self._menus.get(session.id, {}).get(user_id)
        return menu is not None and self._fresh(menu)

    def needs_no_ping(self, session: Session, user_id: int) -> bool:
        """Whether the turn reaching ``user_id`` needs no ping: their menu follows the game,
        or they used a menu here within the last few seconds (they are watching)."""
        used = self._used.get(session.id, {}).get(user_id)
        recent = used is not None and self.clock() - used < self.active_for
        return recent or self.is_live(session, user_id)

    def _fresh(self, menu: LiveMenu) -> bool:
        return self.clock() - menu.issued < self.lifetime

    def forget(self, session: Session, user_id: int) -> None:
        menus = self._menus.get(session.id)
        if menus is not None:
            menus.pop(user_id, None)
            if not menus:
                del self._menus[session.id]

    # --- following the game --------------------------------------------------------------

    def table_changed(self, session: Session) -> None:
        """The table changed: bring every kept menu there up to date (coalesced per person)."""
        for user_id in list(self._menus.get(session.id, {})):
            self._dirty.add((session.id, user_id))
            self._start(session, user_id)
        if not session.in_play:
            self._used.pop(session.id, None)  # no more turns to ping for

    def _start(self, session: Session, user_id: int) -> None:
        key = (session.id, user_id)
        if key in self._running or key in self._held:
            return
        self._running[key] = asyncio.get_running_loop().create_task(
            self._run(session, user_id), name=f"menu-{session.id}-{user_id}")

    async def _run(self, session: Session, user_id: int) -> None:
        key = (session.id, user_id)
        try:
            while key in self._dirty and key not in self._held:
                await LOAD.calm()  # answers to clicks first
                if key in self._held:
                    break  # a click of theirs is being answered: its answer shows the game
                self._dirty.discard(key)
                await self._refresh(session, user_id)
        finally:
            self._running.pop(key, None)

    async def _refresh(self, session: Session, user_id: int) -> None:
        """Edit ``user_id``'s kept menu if the game changed for them; forget it when done."""
        menu = self._menus.get(session.id, {}).get(user_id)
        if menu is None:
            return
        now = self._now(session, user_id, menu) if self._fresh(menu) else None
        if now is None:
            self.forget(session, user_id)  # seat handed over, or token too old: never edit
            return
        state, draw, seat = now
        if state == menu.shown:
            return  # nothing changed for them: no snapshot, no render
        shown = await draw().painted()
        if (user_id not in session.watchers if menu.watching
                else session.seat_of(user_id) != seat):
            # Their seat passed on, or they stopped watching, while it was drawn: what it
            # shows is not theirs to see any more.
            self.forget(session, user_id)
            return
        try:
            await self.edit(menu.interaction, content=shown.content, view=shown.view,
                            attachments=shown.files(), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("table %s: a hand menu could not be edited (%s %s); forgetting it",
                     session.id, exc.status, exc.code)
            self.forget(session, user_id)
            if self.lost is not None:
                self.lost(session)
            return
        menu.shown = state
        if not session.in_play:
            self.forget(session, user_id)  # its last edit: the end of the game

    def _now(self, session: Session, user_id: int, menu: LiveMenu
             ) -> tuple[MenuKey, Callable[[], Menu], int | None] | None:
        """What ``menu`` would show now: its state (read cheaply, no snapshot), how to draw
        it, and the seat it is of (None for a watcher's view); None when it has nothing
        left to follow (the seat or the watching ended)."""
        if not session.started:
            return None
        if menu.watching:
            if user_id not in session.watchers:
                return None
            return watch_key(session), lambda: render_watch(table_of(session)), None
        seat = session.seat_of(user_id)
        if seat is None:
            return None
        recent = list(session.recent)[-RECENT_IN_NOTE:]
        return menu_key(session, seat), lambda: render_hand(
            menu_of(session, seat), page=menu.page, note="; ".join(recent) or None), seat

    # --- shutdown and tests ----------------------------------------------------------------

    def busy(self) -> bool:
        """Whether an edit is in flight or waiting to start."""
        return bool(self._running)

    async def idle(self) -> None:
        """Wait until no edit is running."""
        await settled(self._running)

    def cancel(self) -> None:
        for task in self._running.values():
            task.cancel()


class FollowingListener:
    """The table service's :class:`TableListener`: every change goes to the kept menus
    first, then to the publisher (the table, the pings); reminders to the publisher."""

    def __init__(self, menus: LiveMenus, publisher: TableListener) -> None:
        self.menus = menus
        self.publisher = publisher

    def table_changed(self, session: Session) -> None:
        self.menus.table_changed(session)
        self.publisher.table_changed(session)

    def turn_reminder(self, session: Session, user_id: int) -> None:
        self.publisher.turn_reminder(session, user_id)


__all__ = ["ACTIVE_FOR", "LIFETIME", "FollowingListener", "LiveMenu", "LiveMenus", "menu_state",
           "watch_key"]
