"""Playing a started table: one path for every action, by people, computers and timers.

Every action goes through :meth:`Turns.act` under the session's lock: the rules
core validates and applies it, the version is bumped, the table (with the
record holding the new action) is saved, and only then does the caller reply.
A finished game writes its result. Computer seats and turn timers are tasks of
the session that come back through the same path.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot.computer import choose_action, move_rng
from bot.errors import StaleMenu, TableClosed, TableError
from bot.models import GameResult, ResultPlayer, TableStatus
from bot.session import Session
from bot.settings import Settings
from bot.store_api import Store
from games.core.actions import Action
from games.core.events import Event
from games.core.game import Game

log = logging.getLogger(__name__)


class TableListener(Protocol):
    """The Discord layer's side: told when a table's public message should change."""

    def table_changed(self, session: Session) -> None:
        """Re-render the table (must not block; coalescing is the listener's job)."""


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


class Turns:
    """Applies actions to started tables and runs their computer seats and turn timers."""

    def __init__(self, store: Store, settings: Settings,
                 listener: Callable[[], TableListener | None]) -> None:
        self.store = store
        self.settings = settings
        self._listener = listener

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
            events = game.apply(seat, action)
            return await self._applied(session, seat, events)

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

    # --- after every action -------------------------------------------------------------

    async def _applied(self, session: Session, seat: int, events: list[Event],
                       note: str | None = None) -> list[str]:
        """Bump the version, remember the events, save (and finish) the table, schedule next.

        ``seat`` is the seat the action was for (a person's, a computer's, or a timed-out
        person's played by a computer): its open menus become out of date.
        """
        game = session.game
        assert game is not None
        words = describe(events, session.names())
        if note:
            session.recent.append(note)
        session.recent.extend(words)
        table = session.table
        table.version += 1
        table.seats[seat].acted_version = table.version
        table.record = {**game.record(), "meta": (table.record or {}).get("meta", {})}
        table.updated_at = now()
        if game.over:
            await self.finish(session)
        else:
            await self.store.save_table(table)
            self.schedule(session)
        self.changed(session)
        return words

    async def finish(self, session: Session) -> None:
        """The game ended: write its result once, mark the table finished, save it."""
        game = session.game
        assert game is not None and game.outcome is not None
        table = session.table
        table.status = TableStatus.FINISHED
        table.updated_at = now()
        record = dict(table.record or game.record())
        record["meta"] = {**record.get("meta", {}), "ended_at": table.updated_at.isoformat()}
        table.record = record
        players = [
            ResultPlayer(seat=i, user_id=seat.user_id, name=seat.name, score=game.scores[i],
                         place=game.outcome.places[i], winner=i in game.winners)
            for i, seat in enumerate(table.seats)
        ]
        result = GameResult(table_id=table.id, guild_id=table.guild_id, game=table.game,
                            finished_at=table.updated_at, players=players,
                            record=record)
        # One transaction: the final action, the result and the ratings land together.
        await self.store.record_result(result, table=table)
        session.cancel_tasks()

    # --- computer seats and turn timers -------------------------------------------------

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
        elif self.settings.turn_timeout > 0:
            session.turn_task = session.spawn(
                self._computer_turn(session, seat, version, self.settings.turn_timeout,
                                    timed_out=True),
                name=f"timer-{seat}")

    async def _computer_turn(self, session: Session, seat: int, version: int, delay: float,
                             *, timed_out: bool = False) -> None:
        await asyncio.sleep(delay)
        try:
            async with session.lock:
                if session.version != version or session.to_act() != seat:
                    return
                game = session.game
                assert game is not None
                done = len((session.table.record or {}).get("actions", []))
                action = choose_action(game, seat, move_rng(game.seed, done))
                note = None
                if timed_out:
                    name = session.seats[seat].name
                    note = f"{name} took too long; a computer played for them"
                events = game.apply(seat, action)
                await self._applied(session, seat, events, note)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer turn failed at table %s", session.id)

    def resume(self, session: Session) -> None:
        """After a restart or a seat change: schedule the turn under way."""
        if session.table.status is TableStatus.PLAYING:
            self.schedule(session)


__all__ = ["TableListener", "Turns", "describe"]
