"""What a click does: the one place where refusals become ephemeral answers.

Every handler validates who clicked, asks the session manager to act (which
holds the session's lock, applies, saves) and answers exactly once. A
``TableError`` or the rules core's ``GameError`` is caught here, in
:meth:`Clicks.refusing`, and answered with its message: on a hand menu by
updating that menu (so its token renews), elsewhere by an ephemeral message.
Work that may wait (an action, a lobby change) runs through
:func:`cogs.clicks.deadline.in_time`, which defers the interaction if the work is still
running near Discord's deadline; the answer then edits the deferred menu.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord.utils import MISSING

from bot.tables.errors import TableError
from bot.tables.session import Session
from bot.tables.sessions import SessionManager
from cogs import ids
from cogs.clicks.deadline import defer, edit_menu, in_time, send_menu
from cogs.commands.rules import show_rules
from cogs.render.hand import Menu, render_hand
from cogs.render.lobby import render_computer_chooser
from cogs.render.seat import render_take_back
from cogs.render.table import render_details
from cogs.ui import APOLOGY, answered_on_failure, is_ephemeral, say
from cogs.upkeep.hand_pictures import HandPictures
from cogs.upkeep.live_menus import LiveMenus
from games.core.actions import Action
from games.core.cards import Card
from games.core.errors import GameError
from games.players import Decision

Interaction = discord.Interaction[Any]
UNKNOWN = "that button is not from a table I know"
UNANSWERED_KEPT = 1000
"""Moves whose answer Discord refused, remembered until their player next opens a hand."""



def display_name(interaction: Interaction) -> str:
    user = interaction.user
    return (getattr(user, "display_name", None) or user.name)[:64]


def hint_text(session: Session, decision: Decision) -> str:
    """A hint in words: the move as its button says it, and the computer's reason."""
    assert session.game is not None
    label = session.game.action_label(decision.action, session.names())
    return f"Hint: {label} ({decision.reason})."


def sentence(text: str) -> str:
    """A refusal's reason as a sentence: "not your turn" -> "Not your turn."."""
    return text[:1].upper() + text[1:] + "."


class Clicks:
    """The handlers behind every button of the lobby, table and hand menus."""

    def __init__(self, sessions: SessionManager, live: LiveMenus | None = None) -> None:
        self.pictures = HandPictures()  # hand pictures: in time, or after the text
        self.sessions = sessions
        # The menus that follow the game (cogs.live_menus); every menu answer is kept there.
        self.live = live
        # (table, seat) -> what was played, for moves Discord showed as failed.
        self._unanswered: dict[tuple[str, int], str] = {}

    def _answering(self, session: Session, interaction: Interaction
                   ) -> contextlib.AbstractContextManager[None]:
        """Hold the clicker's kept menu while this click is answered (no edit races it)."""
        if self.live is None:
            return contextlib.nullcontext()
        return self.live.answering(session, interaction.user.id)

    def _kept(self, session: Session, seat: int, interaction: Interaction, *,
              page: int = 0) -> None:
        """The clicker's menu was just answered: it is the one that follows the game now."""
        if self.live is not None:
            self.live.keep(session, seat, interaction, page=page)

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
    async def refusing(self, interaction: Interaction) -> AsyncIterator[None]:
        """Answer a refusal ephemerally with its reason; nothing has changed."""
        async with answered_on_failure(interaction, "a click",
                                       apology=f"{APOLOGY} Try Show my hand again."):
            try:
                yield
            except (TableError, GameError) as exc:
                if is_ephemeral(interaction):
                    await edit_menu(interaction, content=exc.message, view=None,
                                    attachments=[])
                else:
                    await say(interaction, sentence(exc.message))

    # --- lobby --------------------------------------------------------------------------

    async def lobby(self, interaction: Interaction, table_id: str, verb: str) -> None:
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            user, name = interaction.user.id, display_name(interaction)
            if verb == "join":
                await in_time(interaction, self.sessions.join(session, user, name))
            elif verb == "leave":
                await in_time(interaction, self.sessions.leave(session, user))
            elif verb == "cpu":
                self.sessions.check_add_computer(session, user)
                content, view = render_computer_chooser(session)
                await interaction.response.send_message(content, view=view, ephemeral=True)
                return
            elif verb == "start":
                await in_time(interaction, self.sessions.start(session, user))
            elif verb == "cancel":
                await in_time(interaction, self.sessions.cancel(session, user, name=name))
            await defer(interaction)

    async def computer(self, interaction: Interaction, table_id: str, level: str) -> None:
        """A level chosen in the chooser: that computer joins, and the chooser stays open."""
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            chosen = ids.COMPUTER_LEVELS.get(level)
            if chosen is None:
                raise TableError(f"there is no computer level {level!r}")
            seat = await self.sessions.add_computer(session, interaction.user.id, chosen)
            content, view = render_computer_chooser(session, f"{seat.label} joined the table.")
            if is_ephemeral(interaction):
                await interaction.response.edit_message(content=content, view=view)
            else:
                await interaction.response.send_message(content, view=view, ephemeral=True)

    # --- the hand menu ------------------------------------------------------------------

    def seated(self, session: Session, interaction: Interaction) -> int:
        """The clicker's seat at a running game, or the reason they have none."""
        self.sessions.turns.require_game(session)
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("you are not seated at this table; the table message shows "
                             "everything public")
        return seat

    async def show_hand(self, interaction: Interaction, session: Session) -> None:
        """A fresh ephemeral menu for the clicker (``Show my hand`` and ``/hand``); to a
        person whose seat a computer holds, the way back to it instead."""
        async with self.refusing(interaction):
            self.sessions.turns.require_game(session)
            lost = None if session.seat_of(interaction.user.id) is not None \
                else self.sessions.lost_seat(session, interaction.user.id)
            if lost is not None:
                content, view = render_take_back(session, *lost)
                await interaction.response.send_message(content, view=view or MISSING,
                                                        ephemeral=True)
                return
            seat = self.seated(session, interaction)
            with self._answering(session, interaction):
                menu = render_hand(session, seat, note=self._went_through(session, seat))

                async def send(menu: Menu) -> None:
                    await interaction.response.send_message(menu.content, view=menu.view,
                                                            files=menu.files(), ephemeral=True)

                await self.pictures.answer(interaction, session, seat, menu, send)
                self._kept(session, seat, interaction)

    async def take_back(self, interaction: Interaction, table_id: str) -> None:
        """``Take my seat back``: the seat is the clicker's again, and here is their hand."""
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            text = await self.sessions.take_back(session, interaction.user.id)
            seat = self.seated(session, interaction)
            await self._answer_menu(interaction, session, seat, note=sentence(text))

    async def hand_button(self, interaction: Interaction, table_id: str) -> None:
        async with self.refusing(interaction):
            await self.show_hand(interaction, await self.sessions.find(table_id))

    async def table_view(self, interaction: Interaction, table_id: str, what: str) -> None:
        """``Details`` or ``Rules`` under the table: answered privately, changing nothing."""
        async with self.refusing(interaction):
            session = await self.sessions.viewable(table_id)
            if what == "rules":
                await show_rules(interaction, session.table.game)
            elif session.game is None:
                raise TableError("the game has not started yet")
            else:
                await say(interaction, render_details(session))

    async def card(self, interaction: Interaction, table_id: str, version: int,
                   card_text: str) -> None:
        await self._menu_click(interaction, table_id, version, card=card_text)

    async def action(self, interaction: Interaction, table_id: str, version: int,
                     action_text: str) -> None:
        await self._menu_click(interaction, table_id, version, action=action_text)

    async def page(self, interaction: Interaction, table_id: str, version: int,
                   page: int) -> None:
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            seat = self.seated(session, interaction)
            note = None if version == session.version else "the table moved on; here it is now"
            with self._answering(session, interaction):
                await self._answer_menu(interaction, session, seat, page=page, note=note)

    async def refresh(self, interaction: Interaction, table_id: str, page: int) -> None:
        """A waiting menu's ``Refresh``: the menu as the game is now, on the same page."""
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            seat = self.seated(session, interaction)
            with self._answering(session, interaction):
                await self._answer_menu(interaction, session, seat, page=page)

    async def _menu_click(self, interaction: Interaction, table_id: str, version: int, *,
                          card: str | None = None, action: str | None = None) -> None:
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            seat = self.seated(session, interaction)
            with self._answering(session, interaction):
                await self._apply_click(interaction, session, seat, version, card=card,
                                        action=action)

    async def _apply_click(self, interaction: Interaction, session: Session, seat: int,
                           version: int, *, card: str | None, action: str | None) -> None:
        """Apply the menu click (or find the card's second step) and answer with the menu.

        The action waits at most until the interaction must be acknowledged
        (:func:`cogs.clicks.deadline.in_time`); a move whose answer Discord then refused is
        remembered, and the player's next menu says it went through."""
        note: str | None = None
        focus: Card | None = None
        acted = False
        try:
            if session.menu_is_stale(seat, version):
                raise TableError("that menu was out of date; here is your hand as it is now")
            step = self._resolve(session, seat, card, action)
            if isinstance(step, Card):
                focus = step
            else:
                words = await in_time(interaction, self.sessions.turns.act(
                    session, interaction.user.id, step, version=version))
                note = "; ".join(words[:3]) or "done"
                acted = True
        except (TableError, GameError) as exc:
            note = exc.message
            if session.game is None or not session.is_open:
                raise
        try:
            await self._answer_menu(interaction, session, seat, focus=focus, note=note)
        except discord.HTTPException:
            if acted and note is not None:
                self._remember_unanswered(session, seat, note)
            raise

    def _resolve(self, session: Session, seat: int, card: str | None,
                 action: str | None) -> Action | Card:
        """The action a click means, or a card whose several actions need a second step."""
        game = session.game
        assert game is not None
        if game.to_act != seat:
            raise TableError(self.sessions.turns.not_your_turn(session))
        if action is not None:
            return game.parse(ids.action_text(action))
        assert card is not None
        chosen = game.grammar.deck.parse(card)
        legal = game.legal_actions(seat)
        options = [a for a in legal if a.card == chosen]
        if len(options) == 1:
            return options[0]
        if options:
            return chosen
        samples = [a for a in legal if a.card is not None]
        if samples:
            # The rules core says why this card cannot go (apply refuses, changing nothing).
            game.apply(seat, Action(samples[0].verb, chosen, samples[0].arg))
        raise TableError(f"you cannot use {chosen.text} now; choose one of the other buttons")

    async def hint(self, interaction: Interaction, table_id: str) -> None:
        """What the hard computer would play now, and why, above the clicker's hand.

        Checked first (hints on, the clicker's turn), then deferred: the search runs in
        the worker pool and may queue behind the computers' own moves.
        """
        async with self.refusing(interaction):
            session = await self.sessions.find(table_id)
            seat = self.seated(session, interaction)
            question = await self.sessions.turns.hint_question(session, interaction.user.id)
            version = session.version
            with self._answering(session, interaction):
                await interaction.response.defer()
                decision = await self.sessions.turns.think(question)
                note = "the table moved on while I thought; ask again" \
                    if session.version != version else hint_text(session, decision)
                menu = await render_hand(session, seat, note=note).painted()
                if is_ephemeral(interaction):
                    await interaction.edit_original_response(content=menu.content,
                                                             view=menu.view,
                                                             attachments=menu.files())
                    self._kept(session, seat, interaction)
                else:
                    await interaction.followup.send(menu.content, view=menu.view,
                                                    files=menu.files(), ephemeral=True)

    async def _answer_menu(self, interaction: Interaction, session: Session, seat: int, *,
                           page: int = 0, focus: Card | None = None,
                           note: str | None = None) -> None:
        menu = render_hand(session, seat, page=page, focus=focus, note=note)
        if is_ephemeral(interaction):
            async def send(menu: Menu) -> None:
                await edit_menu(interaction, content=menu.content, view=menu.view,
                                attachments=menu.files())
        else:
            deferred = interaction.response.is_done()
            if deferred:  # a followup, not the interaction's original response: not kept
                await send_menu(interaction, menu.content, view=menu.view,
                                files=(await menu.painted()).files())
                return

            async def send(menu: Menu) -> None:
                await send_menu(interaction, menu.content, view=menu.view, files=menu.files())
        await self.pictures.answer(interaction, session, seat, menu, send)
        self._kept(session, seat, interaction, page=page)

    # --- anything else ------------------------------------------------------------------

    async def unknown(self, interaction: Interaction) -> None:
        """A component this bot did not make (forged, or from an older bot)."""
        if not interaction.response.is_done():
            await interaction.response.send_message(UNKNOWN[:1].upper() + UNKNOWN[1:] + ".",
                                                    ephemeral=True)
