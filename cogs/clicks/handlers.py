"""What a click or a command does: one call into the table service, one answer.

Every handler translates its interaction into one call to the table service
(:class:`bot.tables.service.TableService`: who, which table, what, which menu version), which
makes every check under the table's lock, and renders what comes back: a hand menu is
drawn from the snapshot the service took, never from the live game. A refusal is a
``TableError`` caught in one place, :meth:`Clicks.refusing`, and answered with its
message: on a hand menu by updating that menu (so its token renews), elsewhere by an
ephemeral message; a refusal that comes with the clicker's menu shows that menu under
the reason. A slash command and its button share one handler (``/join`` and Join,
``/hand`` and Show my hand, ``/leave``, ``/start``): the command names no table, so the
handler takes the one in its channel; a button is honoured only from its table's own
message, or the clicker's own menu, in the table's channel (:func:`require_origin`),
whatever its custom id names. Work that may wait (an action, a lobby change)
runs through :func:`cogs.clicks.deadline.in_time`, which defers the interaction if the
work is still running near Discord's deadline; the answer then edits the deferred menu.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import discord
from discord.utils import MISSING

from bot.models import StoredTable
from bot.tables.errors import UNKNOWN_TABLE, TableError
from bot.tables.seats import LostSeat, require_holder
from bot.tables.service import TableService
from bot.tables.session import Session
from bot.tables.snapshots import CardChoice, Choice, MenuSnapshot, Reply
from cogs import ids
from cogs.answers import APOLOGY, answered_on_failure, is_ephemeral, say
from cogs.clicks.deadline import Lane, defer, edit_menu, in_time, send_menu, step_out
from cogs.clicks.rules import show_rules
from cogs.discord_internals import respond
from cogs.render.hand import Menu, render_hand
from cogs.render.lobby import render_computer_chooser
from cogs.render.lost_seat import render_take_back
from cogs.render.table import render_details
from cogs.render.text import display_name, sentence
from cogs.upkeep.cooldowns import Throttle
from cogs.upkeep.hand_pictures import HandPictures
from cogs.upkeep.live_menus import LiveMenus
from games.core.cards import Card

Interaction = discord.Interaction[Any]
THROTTLED = frozenset({"join", "leave"})
"""The lobby verbs counted against ``COMMANDS_PER_MINUTE``
(:class:`cogs.upkeep.cooldowns.Throttle`)."""
UNANSWERED_KEPT = 1000
"""Moves whose answer Discord refused, remembered until their player next opens a hand."""
LANE = 128
"""Click handlers that run at once (:attr:`Clicks.lane`); the others wait their turn, first
come first served. Wide enough to keep the loop busy while handlers wait for the store and
Discord; narrow enough that a burst is answered in turn, not all together and late. A click
acknowledged before its work is done (a hint, whose search runs in a worker) gives its
place up then."""
LobbyAnswer = Callable[[Interaction, Session], Awaitable[None]]


class TableMessage(Protocol):
    """The table message's keeper (:class:`cogs.upkeep.publisher.Publisher`), as a lobby
    click uses it: held while the click is answered, and answering it with the table."""

    def answering(self, session: Session) -> contextlib.AbstractContextManager[None]: ...

    async def answer(self, interaction: Interaction, session: Session) -> bool: ...


ELSEWHERE = "that button belongs to a table in another channel"
NOT_ITS_MESSAGE = ("that button is not on this table's message; use the table message (/table "
                   "posts it again)")


def require_origin(interaction: Interaction, table: StoredTable) -> None:
    """TableError unless the click came from the table's own message, or from the clicker's
    own private menu, in the table's channel.

    discord.py hands on a click whose custom id is not on the clicked message (a button
    gone after an edit must still get its reason), so a forged ``ff:<table>:join`` sent
    from another server's message would otherwise reach the table. An ephemeral message
    is only ever the clicker's own (a hand menu, the computer chooser); until the table's
    message id is known (a moment after ``/play``) the channel alone is checked.
    """
    if interaction.channel_id != table.channel_id:
        raise TableError(ELSEWHERE)
    message = interaction.message
    if message is None or message.flags.ephemeral or table.message_id is None:
        return
    if message.id != table.message_id:
        raise TableError(NOT_ITS_MESSAGE)


def action_note(reply: Reply) -> str | None:
    """What a menu click did, above the menu: its events (the first three), or nothing
    when it only opened a card's second step."""
    if reply.focus is not None:
        return None
    return "; ".join(reply.words[:3]) or "done"


class Clicks:
    """The handlers behind every button of the lobby, table and hand menus, and the
    commands that do what a button does."""

    def __init__(self, tables: TableService, live: LiveMenus | None = None,
                 table: TableMessage | None = None, *,
                 seating: Throttle | None = None) -> None:
        self.pictures = HandPictures()  # hand pictures: in time, or after the text
        self.tables = tables
        # Join and Leave, buttons and commands: a few a minute per person (each writes).
        self.seating = seating
        # The menus that follow the game (cogs.upkeep.live_menus); every menu answer is kept.
        self.live = live
        # (table, seat) -> what was played, for moves Discord showed as failed.
        self._unanswered: dict[tuple[str, int], str] = {}
        # How a lobby button is answered once its verb is done, when not by the table.
        self._lobby_answers: dict[str, LobbyAnswer] = {"cpu": self._computer_chooser}
        # The table message's keeper: a click on it is answered with the table itself.
        self.table = table
        # Clicks take turns (cogs.clicks.router): a burst is answered in order, each in time.
        self.lane = Lane(LANE)

    def _answering(self, session: Session, interaction: Interaction
                   ) -> contextlib.AbstractContextManager[None]:
        """Hold the clicker's kept menu while this click is answered (no edit races it)."""
        if self.live is None:
            return contextlib.nullcontext()
        return self.live.answering(session, interaction.user.id)

    def _kept(self, session: Session, menu: MenuSnapshot, interaction: Interaction, *,
              page: int = 0) -> None:
        """The clicker's menu was just answered with ``menu``: it follows the game now."""
        if self.live is not None:
            self.live.keep(session, menu, interaction, page=page)

    def _remember_unanswered(self, session: Session, seat: int, words: str) -> None:
        """A move was applied but its answer never reached the player: say so next time."""
        self._unanswered.pop((session.id, seat), None)
        self._unanswered[(session.id, seat)] = words
        while len(self._unanswered) > UNANSWERED_KEPT:
            del self._unanswered[next(iter(self._unanswered))]

    def _went_through(self, session: Session, seat: int) -> str | None:
        """The note for a move whose answer was lost, once (then forgotten)."""
        words = self._unanswered.pop((session.id, seat), None)
        if words is None:
            return None
        return (f"your last move went through ({words}), though Discord may have shown "
                "it as failed")

    @contextlib.asynccontextmanager
    async def refusing(self, interaction: Interaction, *, typed: bool = False
                       ) -> AsyncIterator[None]:
        """Answer a refusal ephemerally with its reason; nothing has changed.

        ``typed``: a slash command's (its failure apology does not point at the menu).
        """
        what, apology = ("a command", APOLOGY) if typed else \
            ("a click", f"{APOLOGY} Try Show my hand again.")
        async with answered_on_failure(interaction, what, apology=apology):
            try:
                yield
            except TableError as exc:
                if is_ephemeral(interaction):
                    await edit_menu(interaction, content=exc.message, view=None,
                                    attachments=[])
                else:
                    await say(interaction, sentence(exc.message))

    async def _table(self, interaction: Interaction, table_id: str | None) -> Session:
        """The table a button names, or (``None``: a command) the one in its channel.

        A button must have been clicked where the table put it (:func:`require_origin`).
        """
        if table_id is None:
            return self.tables.registry.here(interaction.channel_id or 0)
        session = await self.tables.registry.find(table_id)
        require_origin(interaction, session.table)
        return session

    # --- lobby --------------------------------------------------------------------------

    async def lobby(self, interaction: Interaction, table_id: str | None, verb: str, *,
                    target: int | None = None, seat: int | None = None) -> None:
        """A lobby verb (:meth:`lobby_call`), from its button (``table_id``) or its command
        (None: the table here). A button is answered by the lobby message
        the change edits (or the level chooser); a command by the words for what it did.
        """
        typed = table_id is None
        async with self.refusing(interaction, typed=typed):
            session = await self._table(interaction, table_id)
            if verb in THROTTLED and self.seating is not None:
                too_soon = self.seating.refusal(interaction)
                if too_soon is not None:
                    raise TableError(too_soon)
            work = self.lobby_call(interaction, session, verb, target=target, seat=seat)
            if typed:  # a command is answered once done, never deferred: its answer is private
                await say(interaction, sentence(await work))
                return
            held = self.table.answering(session) if self.table is not None \
                else contextlib.nullcontext()
            with held:
                await in_time(interaction, work)
                await self._lobby_answers.get(verb, self._show_table)(interaction, session)

    def lobby_call(self, interaction: Interaction, session: Session, verb: str, *,
                   target: int | None = None, seat: int | None = None) -> Awaitable[str]:
        """The lobby's method that ``verb`` (a lobby button's, :data:`cogs.ids.LOBBY_VERBS`,
        or a command's: ``kick``, ``end``) names, asked by the clicker: what they are told.
        ``target`` and ``seat``: whom a kick is about (a person, or a seat numbered from 1)."""
        lobby, user_id, name = self.tables.lobby, interaction.user.id, display_name(interaction)
        match verb:
            case "join":
                return lobby.join(session, user_id, name)
            case "leave":
                return lobby.leave(session, user_id)
            case "cpu":
                return self._may_add_computer(session, user_id)
            case "start":
                return lobby.start(session, user_id)
            case "cancel":
                return lobby.cancel(session, user_id, name=name)
            case "kick":
                return lobby.kick(session, user_id, target, seat)
            case "end":
                return lobby.end(session, user_id,
                                 moderator=interaction.permissions.manage_messages, name=name)
        raise ValueError(f"no lobby verb {verb!r}")

    async def _may_add_computer(self, session: Session, user_id: int) -> str:
        """``Add computer player``: checked here, the level is chosen next (:meth:`computer`)."""
        self.tables.lobby.check_add_computer(session, user_id)
        return ""

    async def _show_table(self, interaction: Interaction, session: Session) -> None:
        """The clicked table message, showing the change: one call. Acknowledged only (the
        publisher's edit shows it) when already deferred or when that cannot be."""
        if self.table is None or not await self.table.answer(interaction, session):
            await defer(interaction)

    async def _computer_chooser(self, interaction: Interaction, session: Session) -> None:
        content, view = render_computer_chooser(session)
        await interaction.response.send_message(content, view=view, ephemeral=True)

    async def computer(self, interaction: Interaction, table_id: str, level: str) -> None:
        """A level chosen in the chooser: that computer joins, and the chooser stays open."""
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            chosen = ids.COMPUTER_LEVELS.get(level)
            if chosen is None:
                raise TableError(f"there is no computer level {level!r}")
            seat = await self.tables.lobby.add_computer(session, interaction.user.id, chosen)
            content, view = render_computer_chooser(session, f"{seat.label} joined the table.")
            if is_ephemeral(interaction):
                await interaction.response.edit_message(content=content, view=view)
            else:
                await interaction.response.send_message(content, view=view, ephemeral=True)

    # --- the hand menu ------------------------------------------------------------------

    async def show_hand(self, interaction: Interaction, table_id: str | None) -> None:
        """A fresh ephemeral menu for the clicker (``Show my hand``, or ``/hand`` with no
        ``table_id``); to a person whose seat a computer holds, the way back to it instead."""
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            shown = self.tables.hand(session, interaction.user.id)
            if isinstance(shown, LostSeat):
                content, view = render_take_back(shown)
                await interaction.response.send_message(content, view=view or MISSING,
                                                        ephemeral=True)
                return
            with self._answering(session, interaction):
                menu = render_hand(shown, note=self._went_through(session, shown.seat))

                async def send(menu: Menu) -> None:
                    await respond(interaction, menu.content, view=menu.view,
                                  files=menu.files(), ephemeral=True)

                await self.pictures.answer(interaction, session, shown.seat, menu, send)
                self._kept(session, shown, interaction)

    async def take_back(self, interaction: Interaction, table_id: str) -> None:
        """``Take my seat back``: the seat is the clicker's again, and here is their hand."""
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            taken = await self.tables.lobby.take_back(session, interaction.user.id)
            await self._answer_menu(interaction, session, taken.menu,
                                    note=sentence(taken.words[0]))

    async def table_view(self, interaction: Interaction, table_id: str, what: str) -> None:
        """``Details`` or ``Rules`` under the table: answered privately, changing nothing."""
        async with self.refusing(interaction):
            table = await self.tables.registry.stored(table_id)
            require_origin(interaction, table)
            if what == "rules":
                await show_rules(interaction, table.game)
            else:
                await say(interaction, render_details(await self.tables.registry.details(table_id)))

    async def card(self, interaction: Interaction, table_id: str, version: int,
                   card_text: str) -> None:
        await self._menu_click(interaction, table_id, version, CardChoice(card_text))

    async def action(self, interaction: Interaction, table_id: str, version: int,
                     action_text: str) -> None:
        await self._menu_click(interaction, table_id, version, ids.action_text(action_text))

    async def page(self, interaction: Interaction, table_id: str, version: int,
                   page: int) -> None:
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            menu = self.tables.menu(session, interaction.user.id)
            note = None if version == menu.version else "the table moved on; here it is now"
            with self._answering(session, interaction):
                await self._answer_menu(interaction, session, menu, page=page, note=note)

    async def refresh(self, interaction: Interaction, table_id: str, page: int) -> None:
        """A waiting menu's ``Refresh``: the menu as the game is now, on the same page."""
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            menu = self.tables.menu(session, interaction.user.id)
            with self._answering(session, interaction):
                await self._answer_menu(interaction, session, menu, page=page)

    async def _menu_click(self, interaction: Interaction, table_id: str, version: int,
                          choice: Choice) -> None:
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            with self._answering(session, interaction):
                await self._apply_click(interaction, session, version, choice)

    async def _apply_click(self, interaction: Interaction, session: Session, version: int,
                           choice: Choice) -> None:
        """Act on the menu click (or find the card's second step) and answer with the menu.

        The table service waits at most until the interaction must be acknowledged
        (:func:`cogs.clicks.deadline.in_time`); a move whose answer Discord then refused is
        remembered, and the player's next menu says it went through."""
        try:
            reply = await in_time(interaction, self.tables.actions.act(
                session, interaction.user.id, choice, version=version))
        except TableError as refusal:
            if refusal.menu is None:
                raise
            await self._answer_menu(interaction, session, refusal.menu, note=refusal.message)
            return
        note = action_note(reply)
        try:
            await self._answer_menu(interaction, session, reply.menu, focus=reply.focus,
                                    note=note)
        except discord.HTTPException:
            if note is not None:
                self._remember_unanswered(session, reply.menu.seat, note)
            raise

    async def hint(self, interaction: Interaction, table_id: str) -> None:
        """What the hard computer would play now, and why, above the clicker's hand.

        Checked first (hints on, the clicker's turn), then deferred: the search runs in
        the worker pool and may queue behind the computers' own moves.
        """
        async with self.refusing(interaction):
            session = await self._table(interaction, table_id)
            asked = await self.tables.computers.ask_hint(session, interaction.user.id)
            with self._answering(session, interaction):
                await interaction.response.defer()
                step_out(interaction)  # its search holds no place in the lane
                hinted = await self.tables.computers.hint(asked)
                menu = await render_hand(hinted.menu, note=hinted.words[0]).painted(
                    urgent=True)
                require_holder(session, interaction.user.id, hinted.menu.seat)
                if is_ephemeral(interaction):
                    await interaction.edit_original_response(content=menu.content,
                                                             view=menu.view,
                                                             attachments=menu.files())
                    self._kept(session, hinted.menu, interaction)
                else:
                    await interaction.followup.send(menu.content, view=menu.view,
                                                    files=menu.files(), ephemeral=True)

    async def _answer_menu(self, interaction: Interaction, session: Session,
                           shown: MenuSnapshot, *, page: int = 0, focus: Card | None = None,
                           note: str | None = None) -> None:
        menu = render_hand(shown, page=page, focus=focus, note=note)
        if is_ephemeral(interaction):
            async def send(menu: Menu) -> None:
                await edit_menu(interaction, content=menu.content, view=menu.view,
                                attachments=menu.files())
        else:
            deferred = interaction.response.is_done()
            if deferred:  # a followup, not the interaction's original response: not kept
                await send_menu(interaction, menu.content, view=menu.view,
                                files=(await menu.painted(urgent=True)).files())
                return

            async def send(menu: Menu) -> None:
                await send_menu(interaction, menu.content, view=menu.view, files=menu.files())
        await self.pictures.answer(interaction, session, shown.seat, menu, send)
        self._kept(session, shown, interaction, page=page)

    # --- anything else ------------------------------------------------------------------

    async def unknown(self, interaction: Interaction) -> None:
        """A component this bot did not make (forged, or from an older bot)."""
        if not interaction.response.is_done():
            await interaction.response.send_message(sentence(UNKNOWN_TABLE), ephemeral=True)
