"""The table service: the one object the Discord layer and the process talk to.

:class:`TableService` builds the parts, each in a module of its role, and hands them out
as typed attributes; a caller uses the part's own method (``tables.lobby.join(...)``,
``tables.registry.find(...)``), and the service keeps only what composes parts:

- ``registry`` (:mod:`bot.tables.registry`): the open tables by id and by channel, a
  closed table from the store, and the limits;
- ``lobby`` (:mod:`bot.tables.lobby`): opening a table (a rematch, Same cards, the daily
  deal) and every seat change people ask for, one typed method each;
- ``actions`` (:mod:`bot.tables.actions`): the one action path (every check once, under
  the lock): :meth:`~bot.tables.actions.Actions.act` is a person's click;
- ``computers`` (:mod:`bot.tables.computers`): computers' turns and hints, thought in
  worker processes (``ask_hint``, ``hint``; ``computers.pool`` the workers);
- ``scheduler`` (:mod:`bot.tables.scheduler`): what the next turn needs;
- ``sweeper`` (:mod:`bot.tables.expiry`) and ``restart`` (:mod:`bot.tables.restart`):
  tables left alone too long, and tables rebuilt from the store;
- ``events`` (:class:`bot.tables.events.TableEvents`): what follows a change, the one
  object the parts tell (the next turn, the table shown, a stale copy reloaded, a
  finished table let go).

The service's public surface for the Discord layer (``cogs``) is these modules of
``bot.tables``: :mod:`~bot.tables.service`, :mod:`~bot.tables.lobby`,
:mod:`~bot.tables.registry`, :mod:`~bot.tables.session` (``Session``, ``TableListener``,
a finished game's ``Ending``), :mod:`~bot.tables.snapshots` (what a menu or table is drawn
from, a click's ``Choice`` and ``Reply``), :mod:`~bot.tables.errors`,
:mod:`~bot.tables.seats` (``LostSeat``, ``require_holder``),
:mod:`~bot.tables.watching`, :mod:`~bot.tables.ledger`, :mod:`~bot.tables.daily`,
:mod:`~bot.tables.seasons`, :mod:`~bot.tables.timers` (the timer choices and their
words) and :mod:`~bot.tables.timezones` (time zones). The rest is internal: the parts'
insides (:mod:`~bot.tables.actions`, :mod:`~bot.tables.changes`,
:mod:`~bot.tables.checks`, :mod:`~bot.tables.computers`, :mod:`~bot.tables.events`,
:mod:`~bot.tables.expiry`, :mod:`~bot.tables.restart`, :mod:`~bot.tables.results`,
:mod:`~bot.tables.same_cards`, :mod:`~bot.tables.scheduler`); a caller reaches what they
do through the service's attributes, never by importing them.

Reads (a person's menu, their lost seat) are synchronous: every change replaces a table's
game and stored form together, so a read between two awaits sees one version of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.clock import Clock, utc_now
from bot.settings import Settings
from bot.store.api import StaleTable, Store
from bot.tables.actions import Actions
from bot.tables.changes import Changes
from bot.tables.checks import require_game, require_seat, require_shard
from bot.tables.computers import Computers, ComputerTurns
from bot.tables.errors import NOT_SEATED, TableError
from bot.tables.events import TableEvents
from bot.tables.expiry import Sweeper
from bot.tables.lobby import Lobby
from bot.tables.registry import Registry
from bot.tables.restart import Restart, replayed
from bot.tables.scheduler import Scheduler
from bot.tables.seats import LostSeat, lost_seat
from bot.tables.session import Session, TableListener
from bot.tables.snapshots import MenuSnapshot, TableSnapshot, menu_of, table_of
from bot.tables.watching import TableSummary, listing, require_watchable


class TableService:
    """Every table of this process: its parts (see the module), and what composes them."""

    def __init__(self, store: Store, settings: Settings, *,
                 seed_source: Callable[[], int] | None = None,
                 clock: Clock | None = None, computers: Computers | None = None) -> None:
        self.store = store
        self.settings = settings
        # The clock games and turn timers read (Fizzbin's day and night); tests fix it.
        self.clock: Clock = clock or utc_now
        # Each new game's seed; tests give a fixed one to make games reproducible.
        seeds = seed_source or (lambda: random.SystemRandom().randrange(2**63))
        self.listener: TableListener | None = None  # the Discord layer, once its cog loads
        self.events: TableEvents = _Events(self)
        self.registry = Registry(store, settings,
                                 replayed=lambda table: replayed(table, settings, self.clock))
        self.actions = Actions(store, settings, clock=self.clock, events=self.events)
        self.computers = ComputerTurns(computers or Computers.from_settings(settings),
                                       self.actions)
        self.scheduler = Scheduler(settings, clock=self.clock, computers=self.computers,
                                   listener=lambda: self.listener)
        self._changes = Changes(store, settings, self.registry, clock=self.clock,
                                events=self.events)
        self.lobby = Lobby(store, settings, self.registry, self._changes, clock=self.clock,
                           seed_source=seeds)
        self.sweeper = Sweeper(store, settings, self.registry, self._changes, clock=self.clock,
                               turns=self.scheduler.schedule)
        self.restart = Restart(store, settings, self.registry, self._changes, self.actions,
                               self.scheduler, clock=self.clock, events=self.events)

    # --- a table's place on Discord -----------------------------------------------------

    def check_open(self, guild_id: int | None, host_id: int) -> None:
        """TableError (or a shard's refusal) if ``host_id`` may not open a table in that
        server now: every check :meth:`bot.tables.lobby.Lobby.open` makes before it
        writes, so a caller can refuse before it creates anything (a thread)."""
        require_shard(self.settings.shards, guild_id)
        self.registry.check_limits(guild_id, host_id)

    async def set_message(self, session: Session, message_id: int) -> int | None:
        """The table's message is now ``message_id``: the one it replaces, to take down
        (:meth:`bot.tables.changes.Changes.set_message`)."""
        return await self._changes.set_message(session, message_id)

    async def close_gone(self, session: Session,
                         note: str = "the table's channel or message is gone") -> None:
        """The table's channel, thread or server is gone: it closes, unrated."""
        await self._changes.close_gone(session, note)

    # --- play ---------------------------------------------------------------------------

    def hand(self, session: Session, user_id: int) -> MenuSnapshot | LostSeat:
        """``user_id``'s menu at a started game, or (their seat held by a computer) why and
        whether they may take it back; TableError otherwise."""
        require_game(session)
        if session.seat_of(user_id) is None:
            lost = lost_seat(session.table, user_id)
            if lost is None:
                raise TableError(NOT_SEATED)
            return lost
        return self.menu(session, user_id)

    def menu(self, session: Session, user_id: int) -> MenuSnapshot:
        """``user_id``'s menu at a started game as it is now; TableError why there is none."""
        require_game(session)
        return menu_of(session, require_seat(session, user_id))

    # --- beyond one table: the server's tables, watching ----------------------------------

    def listing(self, guild_id: int) -> list[TableSummary]:
        """The server's open public tables, newest first (``/tables``)."""
        return listing(self.registry.open_tables(guild_id=guild_id))

    def watch(self, session: Session, user_id: int) -> TableSnapshot:
        """``user_id`` watches the game (again, after a restart): what they see now;
        TableError why they may not. The table is told when one more watches."""
        require_watchable(session, user_id)
        if user_id not in session.watchers:
            session.watchers.add(user_id)
            self.events.changed(session)
        return table_of(session)

    def unwatch(self, session: Session, user_id: int) -> None:
        """``user_id`` stops watching (nothing happens if they were not)."""
        if user_id in session.watchers:
            session.watchers.discard(user_id)
            self.events.changed(session)

    def resume(self, session: Session) -> None:
        """After a restart or a reload of the Discord layer: the turn under way runs again."""
        self.scheduler.resume(session)

    # --- the process --------------------------------------------------------------------

    async def shutdown(self) -> None:
        """Cancel every session's tasks and the expiry sweep, and stop the computers'
        workers (the bot is closing or the cog unloading; the workers start again if asked)."""
        self.sweeper.stop()
        for session in self.registry.sessions():
            session.cancel_tasks()
        await self.computers.pool.close()


class _Events:
    """What follows a change at a table (:class:`~bot.tables.events.TableEvents`), as the
    service's parts answer it."""

    def __init__(self, service: TableService) -> None:
        self._service = service

    def changed(self, session: Session) -> None:
        listener = self._service.listener
        if listener is not None:
            listener.table_changed(session)

    def next_turn(self, session: Session) -> None:
        self._service.scheduler.schedule(session)  # after every save: the turn goes on

    async def reload(self, session: Session, stale: StaleTable) -> None:
        await self._service.restart.reload(session, stale)

    def closed(self, session: Session) -> None:
        self._service.registry.release(session)


__all__ = ["TableService"]
