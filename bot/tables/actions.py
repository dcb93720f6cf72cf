"""The one action path: a person's click, a computer's move and a timed-out turn alike.

:meth:`Actions.act` is a person's click made into one call: who, at which table, from
which menu version, what (an action, or a card whose action the rules decide). Under
the table's lock it checks, once and in this order, that the game runs, that they sit
there, that their menu is current, that it is their turn, and why the rules would
refuse the action (``Game.why_not``); a refusal is a
:class:`~bot.tables.errors.TableError` carrying their menu as it is now. Nothing is
applied to learn a reason.

Every action then goes through :meth:`Actions.commit`, the one place an action is
written (computers and timers come here too, :mod:`bot.tables.computers`): the rules
core applies it to a copy of the game, the copy's table (version bumped, record holding
the new action) is saved, and only once the store has it do the copies replace the
session's game and table; then the caller replies. A save that fails leaves memory as
it was, so it still agrees with the database and the player's "something went wrong"
is the truth. A finished game writes its result the same way. A save the store refuses
as stale (another process saved a newer move first) reloads the session from the store
and tells the clicker so (:class:`~bot.tables.errors.TableMoved`); it never overwrites
that move.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.models import StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import StaleTable, Store
from bot.tables.checks import require_game, require_seat, require_turn
from bot.tables.computers import TAKEOVER_LEVEL
from bot.tables.context import Clock, utc_now
from bot.tables.errors import MOVED_ELSEWHERE, STALE, NotAllowed, StaleMenu, TableError, TableMoved
from bot.tables.events import TableEvents
from bot.tables.results import finished, record_with_ratings
from bot.tables.seats import hand_to_computer
from bot.tables.session import Session
from bot.tables.snapshots import CardChoice, Choice, Reply, menu_for, menu_of
from bot.tables.timers import MAX_TIMEOUTS, with_deadline
from games.core.actions import Action
from games.core.cards import Card
from games.core.errors import GameError
from games.core.events import Event
from games.core.game import Game
from games.core.words import plural

log = logging.getLogger(__name__)


def describe(events: list[Event], names: list[str]) -> list[str]:
    """The events in words with the players' names."""
    out = []
    for event in events:
        try:
            out.append(event.describe(names))
        except (IndexError, KeyError, ValueError):
            out.append(str(event))
    return out


def resolve(game: Game[Any], seat: int, choice: Choice) -> Action | Card:
    """The action ``choice`` means for ``seat``, or a card whose several actions need a
    second step; :class:`NotAllowed` with the rules' reason when there is none."""
    try:
        if not isinstance(choice, CardChoice):
            return game.parse(choice) if isinstance(choice, str) else choice
        card = game.grammar.deck.parse(choice.text)
    except GameError as exc:
        raise NotAllowed(exc.message) from None
    legal = game.legal_actions(seat)
    options = [a for a in legal if a.card == card]
    if len(options) == 1:
        return options[0]
    if options:
        return card
    sample = next((a for a in legal if a.card is not None), None)
    reason = None if sample is None else game.why_not(seat, Action(sample.verb, card, sample.arg))
    raise NotAllowed(reason or f"you cannot use {game.card_label(card)} now; choose one of the "
                     "other buttons")


def followed(record: dict[str, Any] | None, game: Game[Any]) -> dict[str, Any]:
    """The stored table's record brought up to ``game``, one action on, sharing the game's
    own parts instead of copying them.

    Its ``"actions"`` are the game's :class:`~games.core.actionlog.ActionLog` (two bytes
    an action) and its ``"deals"`` the game's :class:`~games.core.deallog.DealLog` (each
    deal as its JSON text, once per table), not a list of action strings and a copy of
    every deal, built again at every action (eight bytes more an action, and the deals
    twice). Sharing is safe: a game is never changed once it is a table's (the next
    action applies to a clone, which copies only the lists), and nothing changes a
    record. What the store writes is the same (:mod:`bot.store.rows`).
    """
    if record is None:
        record = {**game.record().model_dump(), "meta": {}}
    return {**record, "deals": game.deals_played, "actions": game.history}


def advanced(table: StoredTable, game: Game[Any], seat: int, *,
             person: bool = False) -> StoredTable:
    """A new table after ``seat`` acted in ``game``: version bumped, record brought up to date.

    ``seat`` is the seat the action was for (a person's, a computer's, or a timed-out
    person's played by a computer): its open menus become out of date, and the move is
    counted as the seat's. ``person``: its person made it (the rating rule,
    :mod:`bot.tables.results`), which also keeps the game from expiring
    (:mod:`bot.tables.expiry`).
    """
    version = table.version + 1
    seats = list(table.seats)
    held = seats[seat]
    seats[seat] = held.model_copy(update={"acted_version": version, "moves": held.moves + 1,
                                          "own_moves": held.own_moves + person})
    record = followed(table.record, game)
    stamp = utc_now()
    update: dict[str, Any] = {"version": version, "seats": seats, "record": record,
                              "updated_at": stamp}
    if person:
        update["last_person_at"] = stamp
    return table.model_copy(update=update)


def counted(table: StoredTable, game: Game[Any], seat: int, *, person: bool,
            timed_out: bool) -> tuple[StoredTable, bool]:
    """``table`` with ``seat``'s timeouts in a row counted; whether the seat passed to a
    computer for it.

    A person's own move clears the count; a timed-out turn adds one, except the rest of
    a turn already counted (``overtime``: the computer finishing it). The last of
    :data:`MAX_TIMEOUTS` hands the seat to a computer, unless no other person is seated:
    a table of computers alone would finish the game in seconds, before its person could
    come back, so the last person's turns go on being played one timeout at a time (and
    the game expires if nobody returns, :mod:`bot.tables.expiry`).
    """
    if not (person or timed_out):
        return table.model_copy(update={"overtime": False}), False
    seats = list(table.seats)
    held = seats[seat]
    timeouts = 0 if person else held.timeouts + (0 if table.overtime else 1)
    seats[seat] = held.model_copy(update={"timeouts": timeouts})
    more = timed_out and not game.over and game.to_act == seat
    table = table.model_copy(update={"seats": seats, "overtime": more})
    others = any(other.user_id is not None for i, other in enumerate(seats) if i != seat)
    if timeouts < MAX_TIMEOUTS or not others:
        return table, False
    hand_to_computer(table, seat, "timeouts")
    return table.model_copy(update={"overtime": False}), True


class Actions:
    """Checks and applies actions at started tables, and writes each one (:meth:`commit`)."""

    def __init__(self, store: Store, settings: Settings, *, clock: Clock,
                 events: TableEvents) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock  # turn deadlines are read on it (tests move it)
        self.events = events  # what follows a move: the next turn, the table shown, ...

    # --- a person's action --------------------------------------------------------------

    async def act(self, session: Session, user_id: int, choice: Choice, *,
                  version: int) -> Reply:
        """``user_id``'s ``choice`` from a menu drawn at ``version``: what it did, and their
        menu right after (a card with several actions asks where it goes instead).

        :class:`TableError` (closed, not started, not seated, stale menu, not their turn,
        the rules' reason) when nothing changed; it carries their menu as it is now when
        they sit at a running table.
        """
        async with session.lock:
            game = require_game(session)
            seat = require_seat(session, user_id)
            try:
                return await self._decide(session, game, seat, choice, version)
            except TableError as refusal:
                if session.is_open:
                    refusal.menu = menu_for(session, user_id)
                raise

    async def _decide(self, session: Session, game: Game[Any], seat: int, choice: Choice,
                      version: int) -> Reply:
        """The checks of :meth:`act` after the seat's, then the action (lock held)."""
        if session.menu_is_stale(seat, version):
            raise StaleMenu(STALE)
        require_turn(session, seat)
        step = resolve(game, seat, choice)
        if isinstance(step, Card):
            return Reply(menu_of(session, seat), focus=step)
        reason = game.why_not(seat, step)
        if reason is not None:
            raise NotAllowed(reason)
        words = await self.commit(session, seat, step, person=True)
        return Reply(menu_of(session, seat), words=tuple(words))

    # --- the one path of every action --------------------------------------------------

    async def commit(self, session: Session, seat: int, action: Action | str,
                     note: str | None = None, *, person: bool = False,
                     timed_out: bool = False) -> list[str]:
        """Apply ``seat``'s ``action`` to a copy, save it, then make it the session's; the words.

        The caller holds ``session.lock`` and has checked the action. The rules core
        validates it again as it applies it (``GameError``); the store may fail; either
        way the session's game and table are untouched. A stale copy (the store has a
        newer version) is reloaded and :class:`TableMoved` raised. ``note`` goes before
        the events in the table's recent lines (a timed-out seat played by a computer).
        ``timed_out``: a computer played ``seat``'s person's turn when time was up.
        """
        game = require_game(session).clone()
        events = game.apply(seat, action)
        table, lost = counted(advanced(session.table, game, seat, person=person), game, seat,
                              person=person, timed_out=timed_out)
        table = with_deadline(table, game, self.clock(), self.settings.turn_timeout)
        notes = [note] if note else []
        if lost:
            name = session.seats[seat].name
            notes.append(f"{name} timed out {plural(MAX_TIMEOUTS, 'turn')} in a row: a "
                         f"{TAKEOVER_LEVEL} computer plays the seat until {name} takes it back "
                         "(Show my hand, or /join)")
        try:
            if game.over:
                await self._save_finished(session, game, table)
            else:
                await self.store.append_action(table, game.history[-1])
                session.game, session.table = game, table
        except StaleTable as stale:
            await self.events.reload(session, stale)
            raise TableMoved(MOVED_ELSEWHERE) from None
        return self._applied(session, events, notes)

    def _applied(self, session: Session, events: list[Event], notes: list[str]) -> list[str]:
        """After a committed action: remember its events, schedule the next turn, re-render."""
        words = describe(events, session.names())
        session.recent.extend(notes[:1])
        session.recent.extend(words)
        session.recent.extend(notes[1:])
        if session.status is TableStatus.PLAYING:
            self.events.next_turn(session)
        else:  # the game has just finished: let the table go, its last events included
            self.events.closed(session)
        self.events.changed(session)
        return words

    async def finish(self, session: Session) -> None:
        """The session's game has ended: write its result once and mark the table finished."""
        game = session.game
        assert game is not None and game.over
        table = session.table
        await self._save_finished(session, game,
                                  table.model_copy(update={"version": table.version + 1}))
        self.events.closed(session)

    async def _save_finished(self, session: Session, game: Game[Any], table: StoredTable
                             ) -> None:
        """Write the result, ratings and final table in one transaction, then swap them in
        (the caller then lets the table go).

        :class:`StaleTable` if the store has a newer table, or already has the result
        (another process finished this table first): nothing is written twice.
        """
        final, result = finished(table, game)
        ending = await record_with_ratings(self.store, result, table=final)
        session.game, session.table, session.ending = game, final, ending
        session.cancel_tasks()


__all__ = ["Actions", "advanced", "counted", "describe", "resolve"]
