"""The table service: the one object the Discord layer and the process talk to.

:class:`TableService` builds the parts, each in a module of its role, and offers what they do
as its own methods, so no caller reaches through it:

- :mod:`bot.tables.registry`: the open tables by id and by channel, and the limits;
- :mod:`bot.tables.lobby`: opening a table and every seat change people ask for;
- :mod:`bot.tables.actions`: the one action path (every check once, under the lock);
- :mod:`bot.tables.computers`: computers' turns and hints, thought in worker processes;
- :mod:`bot.tables.scheduler`: what the next turn needs (a computer, a turn timer);
- :mod:`bot.tables.changes`: saving every other change, closing tables;
- :mod:`bot.tables.expiry` and :mod:`bot.tables.restart`: tables left alone too long,
  and tables rebuilt from the store.

Reads (a person's menu, their lost seat) are synchronous: every change replaces a table's
game and stored form together, so a read between two awaits sees one version of it.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.models import ComputerLevel, Seat, StoredTable
from bot.settings import Settings
from bot.store.api import StaleTable, Store
from bot.tables.actions import Actions, Choice
from bot.tables.changes import Changes
from bot.tables.checks import require_game, require_seat
from bot.tables.computers import DEFAULT_LEVEL, Computers, ComputerTurns, HintQuestion
from bot.tables.context import Clock, utc_now
from bot.tables.errors import NOT_SEATED, TableError
from bot.tables.expiry import SWEEP_SECONDS, Sweeper
from bot.tables.lobby import VERBS, Lobby, Request
from bot.tables.registry import Registry
from bot.tables.restart import Restart, replayed
from bot.tables.scheduler import Scheduler
from bot.tables.seats import LostSeat, lost_seat
from bot.tables.session import Session, TableListener
from bot.tables.snapshots import MenuSnapshot, Reply, TableSnapshot, menu_of, table_of
from bot.tables.watching import TableSummary, listing, require_watchable


class TableService:
    """Every table of this process: lookups, the lobby, play, and their upkeep."""

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
        self.registry = Registry(store, settings,
                                 replayed=lambda table: replayed(table, settings, self.clock))
        self.actions = Actions(store, settings, clock=self.clock, next_turn=self._next_turn,
                               changed=self._changed, reload=self._reload,
                               closed=self.registry.release)
        self.computers = ComputerTurns(computers or Computers.from_settings(settings),
                                       self.actions)
        self.scheduler = Scheduler(settings, clock=self.clock, computers=self.computers,
                                   listener=lambda: self.listener)
        self.changes = Changes(store, settings, self.registry, clock=self.clock,
                               next_turn=self._next_turn, changed=self._changed,
                               reload=self._reload)
        self.lobby = Lobby(store, settings, self.registry, self.changes, clock=self.clock,
                           seed_source=seeds)
        self.sweeper = Sweeper(store, settings, self.registry, self.changes, clock=self.clock,
                               turns=self.scheduler.schedule)
        self.restart = Restart(store, settings, self.registry, self.changes, self.actions,
                               self.scheduler, clock=self.clock, changed=self._changed)

    # --- the parts' reactions to one another -----------------------------------------

    def _changed(self, session: Session) -> None:
        if self.listener is not None:
            self.listener.table_changed(session)

    def _next_turn(self, session: Session) -> None:
        self.scheduler.schedule(session)  # after every save: the turn under way goes on

    async def _reload(self, session: Session, stale: StaleTable) -> None:
        await self.restart.reload(session, stale)

    # --- finding a table ---------------------------------------------------------------

    def get(self, table_id: str) -> Session:
        return self.registry.get(table_id)

    async def find(self, table_id: str) -> Session:
        return await self.registry.find(table_id)

    async def table_at(self, table_id: str) -> StoredTable:
        """The table ``table_id`` as it stands, open or closed (its game not rebuilt)."""
        return await self.registry.stored(table_id)

    def in_channel(self, channel_id: int) -> Session | None:
        return self.registry.in_channel(channel_id)

    def here(self, channel_id: int) -> Session:
        return self.registry.here(channel_id)

    def sessions(self) -> list[Session]:
        return self.registry.sessions()

    def open_tables(self, *, guild_id: int | None = None, host_id: int | None = None
                    ) -> list[Session]:
        return self.registry.open_tables(guild_id=guild_id, host_id=host_id)

    async def finished_table(self, table_id: str) -> StoredTable:
        return await self.registry.finished_table(table_id)

    async def details(self, table_id: str) -> TableSnapshot:
        """What anyone may see of the game at ``table_id``, open or closed (``Details``);
        TableError when it has not started or is gone. A closed table's is computed once
        (:meth:`bot.tables.registry.Registry.details`)."""
        return await self.registry.details(table_id)

    # --- opening and seats -------------------------------------------------------------

    async def open(self, *, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                   game: str, options: Mapping[str, Any], pictures: bool | None = None,
                   hints: bool = False, timer: str | None = None,
                   seats: Sequence[Seat] | None = None) -> Session:
        return await self.lobby.open(guild_id=guild_id, channel_id=channel_id,
                                     host_id=host_id, host_name=host_name, game=game,
                                     options=options, pictures=pictures, hints=hints,
                                     timer=timer, seats=seats)

    def check_open(self, guild_id: int | None, host_id: int) -> None:
        """TableError (or a shard's refusal) if ``host_id`` may not open a table in that
        server now: every check :meth:`open` makes before it writes, so a caller can
        refuse before it creates anything (a thread)."""
        self.settings.shards.require(guild_id)
        self.registry.check_limits(guild_id, host_id)

    async def rematch(self, finished: StoredTable, user_id: int, name: str) -> Session:
        return await self.lobby.rematch(finished, user_id, name)

    async def open_daily(self, *, guild_id: int | None, channel_id: int, user_id: int,
                         name: str, game: str, in_dm: bool = False) -> Session:
        """Today's deal of ``game`` for ``user_id``, started (:mod:`bot.tables.daily`)."""
        return await self.lobby.open_daily(guild_id=guild_id, channel_id=channel_id,
                                           user_id=user_id, name=name, game=game, in_dm=in_dm)

    async def same_cards(self, finished: StoredTable, user_id: int, name: str) -> Session:
        """A lobby dealing ``finished``'s cards again to its seats
        (:mod:`bot.tables.same_cards`)."""
        return await self.lobby.same_cards(finished, user_id, name)

    async def verb(self, session: Session, verb: str, request: Request) -> str:
        """A lobby verb (a button's or its command's, :data:`bot.tables.lobby.VERBS`) asked
        by ``request``'s person: what they are told; TableError why not."""
        return await VERBS[verb](self.lobby, session, request)

    async def join(self, session: Session, user_id: int, name: str) -> str:
        return await self.lobby.join(session, user_id, name)

    async def leave(self, session: Session, user_id: int) -> str:
        return await self.lobby.leave(session, user_id)

    async def kick(self, session: Session, by_user: int, user_id: int) -> str:
        return await self.lobby.kick(session, by_user, user_id)

    async def start(self, session: Session, user_id: int) -> str:
        return await self.lobby.start(session, user_id)

    async def cancel(self, session: Session, user_id: int, *, name: str) -> str:
        return await self.lobby.cancel(session, user_id, name=name)

    async def end(self, session: Session, user_id: int, *, moderator: bool, name: str) -> str:
        return await self.lobby.end(session, user_id, moderator=moderator, name=name)

    async def add_computer(self, session: Session, user_id: int,
                           level: ComputerLevel = DEFAULT_LEVEL) -> Seat:
        return await self.lobby.add_computer(session, user_id, level)

    async def take_back(self, session: Session, user_id: int) -> Reply:
        return await self.lobby.take_back(session, user_id)

    async def set_message(self, session: Session, message_id: int) -> int | None:
        return await self.changes.set_message(session, message_id)

    async def close_gone(self, session: Session,
                         note: str = "the table's channel or message is gone") -> None:
        await self.changes.close_gone(session, note)

    async def timezone_of(self, guild_id: int | None) -> str:
        return await self.lobby.timezone_of(guild_id)

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

    async def act(self, session: Session, user_id: int, choice: Choice, *,
                  version: int) -> Reply:
        return await self.actions.act(session, user_id, choice, version=version)

    async def ask_hint(self, session: Session, user_id: int) -> HintQuestion:
        return await self.computers.ask_hint(session, user_id)

    async def hint(self, asked: HintQuestion) -> Reply:
        return await self.computers.hint(asked)

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
            self._changed(session)
        return table_of(session)

    def unwatch(self, session: Session, user_id: int) -> None:
        """``user_id`` stops watching (nothing happens if they were not)."""
        if user_id in session.watchers:
            session.watchers.discard(user_id)
            self._changed(session)

    def resume(self, session: Session) -> None:
        """After a restart or a reload of the Discord layer: the turn under way runs again."""
        self.scheduler.resume(session)

    # --- the process --------------------------------------------------------------------

    async def resume_all(self) -> list[Session]:
        return await self.restart.resume_all()

    def start_sweeping(self, every: float = SWEEP_SECONDS) -> None:
        self.sweeper.start(every)

    async def expire_idle(self, moment: dt.datetime | None = None) -> int:
        return await self.sweeper.expire_idle(moment)

    async def prune_closed(self, moment: dt.datetime | None = None) -> int:
        return await self.sweeper.prune_closed(moment)

    def restart_lost_turns(self) -> int:
        return self.sweeper.restart_lost_turns()

    async def shutdown(self) -> None:
        """Cancel every session's tasks and the expiry sweep, and stop the computers'
        workers (the bot is closing or the cog unloading; the workers start again if asked)."""
        self.sweeper.stop()
        for session in self.registry.sessions():
            session.cancel_tasks()
        await self.computers.pool.close()


__all__ = ["TableService"]
