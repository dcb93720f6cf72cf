"""Playing a started table: one path for every action, by people, computers and timers.

Every action goes through :meth:`Turns._commit` under the session's lock (a
person's click through :meth:`Turns.act`): the rules core validates and
applies it to a copy of the game, the copy's table (version bumped, record
holding the new action) is saved, and only once the store has it do the copies
replace the session's game and table; then the caller replies. A save that
fails leaves memory as it was, so it still agrees with the database and the
player's "something went wrong" is the truth. A finished game writes its
result the same way. A save the store refuses as stale (another process saved
a newer move first) reloads the session from the store and tells the clicker
so (:class:`~bot.tables.errors.TableMoved`); it never overwrites that move. Computer
seats and turn timers are tasks of the session that come back through the same
path.

A computer thinks outside the lock: it takes its seat's perspective under the
lock, thinks in a worker process (:class:`bot.tables.computers.Computers`) while its
pause runs, then applies its choice under the lock only if the table has not
moved on meanwhile. Other tables, and people clicking at this one, never wait
for its search.

A person's turn at a timed table (:mod:`bot.tables.timers`) gets its deadline in the save
that gives them the turn; a task of the session watches the bot's clock (injected,
so tests move it) and reminds them at half time, then has a computer play the turn
(:meth:`Turns._timer`). The seat's count of timeouts in a row is kept on the seat,
and the third passes the seat to a computer in that same save.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.models import ComputerLevel, GameResult, ResultPlayer, StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import StaleTable, Store
from bot.tables.computers import HINT_LEVEL, TAKEOVER_LEVEL, Computers, Question, move_rng
from bot.tables.context import Clock, utc_now
from bot.tables.errors import MOVED_ELSEWHERE, StaleMenu, TableClosed, TableError, TableMoved
from bot.tables.results import record_with_ratings
from bot.tables.seats import hand_to_computer
from bot.tables.session import Session
from bot.tables.timers import (
    MAX_TIMEOUTS,
    TOURNAMENT_SECONDS,
    TableTimer,
    deadline_after,
    duration_words,
    half_time,
    timer_of,
)
from games.core.actions import Action
from games.core.events import Event
from games.core.game import Game
from games.players import Decision, perspective

log = logging.getLogger(__name__)


class TableListener(Protocol):
    """The Discord layer's side: told when a table's public message should change."""

    def table_changed(self, session: Session) -> None:
        """Re-render the table (must not block; coalescing is the listener's job)."""

    def turn_reminder(self, session: Session, user_id: int) -> None:
        """Remind ``user_id`` (alone) that half their time is gone (must not block)."""


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def describe(events: list[Event], names: list[str]) -> list[str]:
    """The events in words with the players' names."""
    out = []
    for event in events:
        try:
            out.append(event.describe(names))
        except (IndexError, KeyError, ValueError):
            out.append(str(event))
    return out


def advanced(table: StoredTable, game: Game[Any], seat: int, *,
             person: bool = False) -> StoredTable:
    """A new table after ``seat`` acted in ``game``: version bumped, record brought up to date.

    ``seat`` is the seat the action was for (a person's, a computer's, or a timed-out
    person's played by a computer): its open menus become out of date. ``person``: a
    person made the move, which keeps the game from expiring (:mod:`bot.tables.expiry`).
    """
    version = table.version + 1
    seats = list(table.seats)
    seats[seat] = seats[seat].model_copy(update={"acted_version": version})
    record = {**game.record().model_dump(), "meta": (table.record or {}).get("meta", {})}
    stamp = now()
    update: dict[str, Any] = {"version": version, "seats": seats, "record": record,
                              "updated_at": stamp}
    if person:
        update["last_person_at"] = stamp
    return table.model_copy(update=update)


def finished(table: StoredTable, game: Game[Any]) -> tuple[StoredTable, GameResult]:
    """The finished table and its result (sharing one record, stamped with its end)."""
    assert game.outcome is not None
    stamp = now()
    record = dict(table.record or game.record().model_dump())
    record["meta"] = {**record.get("meta", {}), "ended_at": stamp.isoformat()}
    final = table.model_copy(update={"status": TableStatus.FINISHED, "updated_at": stamp,
                                     "record": record})
    players = [
        ResultPlayer(seat=i, user_id=seat.user_id, name=seat.name, score=game.scores[i],
                     place=game.outcome.places[i], winner=i in game.winners)
        for i, seat in enumerate(table.seats)
    ]
    result = GameResult(table_id=table.id, guild_id=table.guild_id, game=table.game,
                        finished_at=stamp, players=players, record=record,
                        rated=not table.hints)
    return final, result


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


def timeout_note(session: Session, seat: int, level: ComputerLevel, decision: Decision) -> str:
    """The table's line for a turn played because its time was up."""
    name = session.seats[seat].name
    if level == "random":  # the tournament rule
        what = "a random card from their hand" if decision.action.card is not None \
            else "a random choice"
        return (f"{name}'s {duration_words(TOURNAMENT_SECONDS)} ran out: {what} was played for "
                "them (tournament rule)")
    return f"{name} took too long; a {level} computer played for them"


class Turns:
    """Applies actions to started tables and runs their computer seats and turn timers."""

    def __init__(self, store: Store, settings: Settings,
                 listener: Callable[[], TableListener | None], *,
                 computers: Computers | None = None, clock: Clock | None = None,
                 reload: Callable[[Session, StaleTable], Awaitable[None]] | None = None,
                 on_closed: Callable[[Session], None] | None = None) -> None:
        self.store = store
        # Told of each table whose game has just finished (the session manager lets it go).
        self._on_closed = on_closed
        self.settings = settings
        self._listener = listener
        self.computers = computers or Computers.from_settings(settings)
        # Takes a session back to what the store has after a stale save (the manager's).
        self._reload = reload
        # The clock turn deadlines are read on (the session manager's: tests move it).
        self.clock: Clock = clock or utc_now

    def changed(self, session: Session) -> None:
        listener = self._listener()
        if listener is not None:
            listener.table_changed(session)

    # --- a person's action --------------------------------------------------------------

    async def act(self, session: Session, user_id: int, action: Action, *,
                  version: int) -> list[str]:
        """Apply ``user_id``'s ``action`` from a menu drawn at ``version``; the events in words.

        Raises :class:`TableError` (not seated, stale menu, not your turn, table closed)
        or the rules core's ``GameError``; either way nothing changed.
        """
        async with session.lock:
            game = self.require_game(session)
            seat = session.seat_of(user_id)
            if seat is None:
                raise TableError("you are not seated at this table")
            if session.menu_is_stale(seat, version):
                raise StaleMenu("that menu was out of date; here is your hand as it is now")
            if game.to_act != seat:
                raise TableError(self.not_your_turn(session))
            return await self._commit(session, seat, action, person=True)

    def require_game(self, session: Session) -> Game[Any]:
        """The running game, or the reason there is none."""
        if session.table.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
            raise TableClosed("this game is over" if session.table.status is TableStatus.FINISHED
                              else "this table was closed")
        if session.game is None:
            raise TableError("the game has not started yet")
        return session.game

    def not_your_turn(self, session: Session) -> str:
        seat = session.to_act()
        if seat is None:
            return "it is not your turn"
        return f"it is not your turn: waiting for {session.seats[seat].name}"

    # --- the one path of every action --------------------------------------------------

    async def _commit(self, session: Session, seat: int, action: Action | str,
                      note: str | None = None, *, person: bool = False,
                      timed_out: bool = False) -> list[str]:
        """Apply ``seat``'s ``action`` to a copy, save it, then make it the session's; the words.

        The caller holds ``session.lock``. Raises the rules core's ``GameError``
        (illegal action) or the store's error (the save failed); either way the
        session's game and table are untouched. A stale copy (the store has a
        newer version) is reloaded and :class:`TableMoved` raised. ``note`` goes
        before the events in the table's recent lines (a timed-out seat played
        by a computer).
        ``timed_out``: a computer played ``seat``'s person's turn when time was up.
        """
        game = self.require_game(session).clone()
        events = game.apply(seat, action)
        table, lost = counted(advanced(session.table, game, seat, person=person), game, seat,
                              person=person, timed_out=timed_out)
        table = self.with_deadline(table, game)
        notes = [note] if note else []
        if lost:
            name = session.seats[seat].name
            notes.append(f"{name} timed out {MAX_TIMEOUTS} turns in a row: a {TAKEOVER_LEVEL} "
                         f"computer plays the seat until {name} takes it back (Show my hand, "
                         "or /join)")
        try:
            if game.over:
                await self._save_finished(session, game, table)
            else:
                await self.store.append_action(table, game.history[-1])
                session.game, session.table = game, table
        except StaleTable as stale:
            if self._reload is None:
                raise
            await self._reload(session, stale)
            raise TableMoved(MOVED_ELSEWHERE) from None
        return self._applied(session, events, notes)

    def _applied(self, session: Session, events: list[Event], notes: list[str]) -> list[str]:
        """After a committed action: remember its events, schedule the next turn, re-render."""
        words = describe(events, session.names())
        session.recent.extend(notes[:1])
        session.recent.extend(words)
        session.recent.extend(notes[1:])
        if session.status is TableStatus.PLAYING:
            self.schedule(session)
        self.changed(session)
        return words

    async def finish(self, session: Session) -> None:
        """The session's game has ended: write its result once and mark the table finished."""
        game = session.game
        assert game is not None and game.over
        table = session.table
        await self._save_finished(session, game,
                                  table.model_copy(update={"version": table.version + 1}))

    async def _save_finished(self, session: Session, game: Game[Any], table: StoredTable
                             ) -> None:
        """Write the result, ratings and final table in one transaction, then swap them in.

        :class:`StaleTable` if the store has a newer table, or already has the result
        (another process finished this table first): nothing is written twice.
        """
        final, result = finished(table, game)
        ending = await record_with_ratings(self.store, result, table=final)
        session.game, session.table, session.ending = game, final, ending
        session.cancel_tasks()
        if self._on_closed is not None:
            self._on_closed(session)

    # --- computer seats and turn timers -------------------------------------------------

    def timer(self, table: StoredTable) -> TableTimer:
        """The turn timer of ``table``."""
        return timer_of(table, self.settings.turn_timeout)

    def with_deadline(self, table: StoredTable, game: Game[Any], *,
                      before: StoredTable | None = None) -> StoredTable:
        """``table`` (about to be saved with ``game``) with the deadline of the turn to come.

        A person's turn at a timed table ends at now plus the timer; a seat in overtime
        (timed out with more to do) at once; anyone else's turn is not timed. With
        ``before`` (the same turn, only a seat changed hands), a deadline the person to
        act already had is kept.
        """
        seat = None if game.over else game.to_act
        deadline: dt.datetime | None = None
        if seat is not None and not table.seats[seat].is_computer:
            kept = before is not None and before.deadline is not None \
                and before.seats[seat].user_id == table.seats[seat].user_id
            if kept:
                assert before is not None
                deadline = before.deadline
            elif table.overtime:
                deadline = self.clock()
            else:
                deadline = deadline_after(self.clock(), self.timer(table))
        return table.model_copy(update={"deadline": deadline})

    def schedule(self, session: Session) -> None:
        """Start whatever the next turn needs: a computer's move or a person's timer."""
        if session.turn_task is not None and session.turn_task is not asyncio.current_task():
            session.turn_task.cancel()
        session.turn_task = None
        seat = session.to_act()
        if seat is None:
            return
        version = session.version
        if session.seats[seat].is_computer:
            session.turn_task = session.spawn(
                self._computer_turn(session, seat, version, self.settings.computer_delay),
                name=f"computer-{seat}")
            return
        timer = self.timer(session.table)
        deadline = session.table.deadline
        if deadline is None and timer.on:  # a table saved before it had deadlines
            deadline = deadline_after(self.clock(), timer)
        if deadline is not None:
            session.turn_task = session.spawn(
                self._timer(session, seat, version, deadline, timer), name=f"timer-{seat}")

    async def _timer(self, session: Session, seat: int, version: int, deadline: dt.datetime,
                     timer: TableTimer) -> None:
        """Watch the clock for ``seat``'s turn at ``version``: remind at half time, then play.

        The clock is read at least every ``TIMER_CHECK_SECONDS`` rather than slept on
        once, so a clock that jumps (a test's, or the machine's) is noticed within that
        time; a deadline already past when the task starts (a restart) fires at once.
        The tournament rule's 10 seconds get no reminder: the turn's ping is one.
        """
        reminded = timer.tournament
        half = half_time(deadline, timer)
        while (moment := self.clock()) < deadline:
            if not reminded and moment >= half:
                reminded = True
                self._remind(session, seat, version)
                continue
            target = deadline if reminded else half
            await asyncio.sleep(min((target - moment).total_seconds(),
                                    self.settings.timer_check_seconds))
        level: ComputerLevel = "random" if timer.tournament else TAKEOVER_LEVEL
        await self._computer_turn(session, seat, version, 0, timed_out=True, level=level)

    def _remind(self, session: Session, seat: int, version: int) -> None:
        """Tell the listener to remind ``seat``'s person, if it is still their turn."""
        user_id = session.seats[seat].user_id
        listener = self._listener()
        if listener is not None and user_id is not None and session.version == version \
                and session.to_act() == seat:
            listener.turn_reminder(session, user_id)

    async def _computer_turn(self, session: Session, seat: int, version: int, delay: float,
                             *, timed_out: bool = False,
                             level: ComputerLevel | None = None) -> None:
        """A computer's move for ``seat`` at ``version``, after ``delay`` seconds.

        A computer seat starts thinking at once and waits only what is left of its
        pause: never instant, never longer than the pause plus the search. A timed-out
        person's turn (``timed_out``, played at ``level``) is thought about only once
        their time is up.
        """
        loop = asyncio.get_running_loop()
        try:
            started = loop.time()
            level = level or session.seats[seat].computer_level
            question = await self._question(session, seat, level, version=version)
            if question is None:
                return
            decision = await self.computers.decide(question)
            await asyncio.sleep(max(0.0, delay - (loop.time() - started)))
            async with session.lock:
                if session.version != version or session.to_act() != seat:
                    return  # the table moved on while it thought: the answer is moot
                game = session.game
                assert game is not None
                note = timeout_note(session, seat, level, decision) if timed_out else None
                await self._commit(session, seat, decision.action, note, timed_out=timed_out)
        except asyncio.CancelledError:
            raise
        except TableMoved:
            log.info("table %s moved on elsewhere; its computer turn was dropped", session.id)
        except Exception:
            log.exception("computer turn failed at table %s", session.id)

    async def _question(self, session: Session, seat: int, level: ComputerLevel, *,
                        version: int | None = None) -> Question | None:
        """What ``seat`` is asked, taken under the lock; None if the turn is no longer
        ``seat``'s at ``version`` (when given)."""
        async with session.lock:
            if version is not None and session.version != version:
                return None
            if session.to_act() != seat:
                return None
            game = session.game
            assert game is not None
            done = len((session.table.record or {}).get("actions", []))
            return Question(level, perspective(game, seat), move_rng(game.seed, done, level, seat))

    # --- hints --------------------------------------------------------------------------

    async def hint_question(self, session: Session, user_id: int) -> Question:
        """What the hard computer is asked for ``user_id``'s hint; TableError why not.

        Only at a table with hints on, and only for the person whose turn it is. The
        generator is the one a hard computer in that seat would use, so the hint is
        what it would play there.
        """
        game = self.require_game(session)
        if not session.table.hints:
            raise TableError("this table has no hints (/play with hints:true opens one "
                             "that has)")
        seat = session.seat_of(user_id)
        if seat is None:
            raise TableError("you are not seated at this table")
        if game.to_act != seat:
            waiting = session.to_act()
            raise TableError("a hint is only for the player whose turn it is" + (
                f"; waiting for {session.seats[waiting].name}" if waiting is not None else ""))
        question = await self._question(session, seat, HINT_LEVEL)
        if question is None:
            raise TableError(self.not_your_turn(session))
        return question

    async def think(self, question: Question) -> Decision:
        """The answer to ``question``, from the worker pool."""
        return await self.computers.decide(question)

    async def close(self) -> None:
        """Stop the computers' worker processes (the bot is closing)."""
        await self.computers.close()

    def resume(self, session: Session) -> None:
        """After a restart or a seat change: schedule the turn under way."""
        if session.table.status is TableStatus.PLAYING:
            self.schedule(session)


__all__ = ["TableListener", "Turns", "advanced", "describe", "finished"]
