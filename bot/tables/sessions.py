"""The session manager: one table per channel or thread, from lobby to the final score.

Lobby changes (join, leave, computer seats, start, cancel) and seat changes in
play (leave, kick, end) happen here under the session's lock and are saved
before the caller replies; actions in play go through :class:`bot.tables.turns.Turns`.
Every change is made to a copy of the table, saved, and only then swapped in
(:meth:`SessionManager._save`): a failed save leaves the session as the
database has it. Each save is the next version; a store that holds a newer
one (another process moved first) refuses it (:class:`~bot.store.api.StaleTable`),
and the session is reloaded from the store (:meth:`SessionManager.reload`)
rather than overwriting that newer move.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

import games
from bot.logs import about_table, working_on
from bot.models import ComputerLevel, Seat, StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import ChannelTaken, StaleTable, Store
from bot.tables.computers import DEFAULT_LEVEL, TAKEOVER_LEVEL
from bot.tables.context import Clock, game_context, loads, utc_now
from bot.tables.errors import MOVED_ELSEWHERE, NoSuchTable, TableClosed, TableError, TableMoved
from bot.tables.expiry import expiry_reason
from bot.tables.seats import LOSS_WORDS, give_back, hand_to_computer, held_seat, take_back_refusal
from bot.tables.session import Session
from bot.tables.timers import TableTimer, choice_of, table_timer
from bot.tables.turns import TableListener, Turns, describe, now
from games.core.errors import SetupError
from games.core.game import Game, Options
from games.core.option_words import options_problem, refusal
from games.core.records import Record
from games.core.replay import load, split_action

log = logging.getLogger(__name__)
SWEEP_SECONDS = 60.0
"""How often open tables are checked for expiry."""

KEEP_CLOSED = 500
"""How many closed tables stay in memory to answer their old buttons with a reason."""

PRUNED = "this game is over, or that button is not from a table I know"
"""The answer to a button whose table the database no longer has (pruned, or never ours)."""

UNRESUMABLE_NOTE = "this table could not be resumed after a restart, so it was closed"


def refuse_unresumable(table: StoredTable) -> None:
    """:class:`TableClosed` for a table closed because a restart could not rebuild it."""
    if table.unresumable is not None:
        raise TableClosed(f"{UNRESUMABLE_NOTE} (its record is kept; the bot's log names "
                          f"table {table.id})")


def _copy(table: StoredTable) -> StoredTable:
    """A copy of ``table`` to change (seats and record included) without touching it."""
    return table.model_copy(deep=True)


def validate_options(game: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """``raw`` checked against ``game``'s options model (player count aside); SetupError."""
    cls = games.get(game)
    unknown = sorted(set(raw) - set(cls.options_model.model_fields))
    if unknown:
        known = ", ".join(cls.options_model.model_fields) or "none"
        raise SetupError(f"{cls.title} has no option {', '.join(unknown)} (its options: {known})")
    try:
        options: Options = cls.options_model.model_validate(dict(raw))
    except ValidationError as exc:
        problem = options_problem(cls.options_model, exc)
        raise SetupError(refusal(cls.title, problem)) from None
    return dict(raw) | {k: v for k, v in options.model_dump(mode="json").items() if k in raw}


class SessionManager:
    """Every open table of this bot, by table id and by channel."""

    def __init__(self, store: Store, settings: Settings, *,
                 seed_source: Callable[[], int] | None = None,
                 clock: Clock | None = None) -> None:
        self.store = store
        self.settings = settings
        # Each new game's seed; tests give a fixed one to make games reproducible.
        self.seed_source = seed_source or (lambda: random.SystemRandom().randrange(2**63))
        # The clock games read (Fizzbin's day and night); tests give a fixed one.
        self.clock: Clock = clock or utc_now
        self.listener: TableListener | None = None
        self.turns = Turns(store, settings, lambda: self.listener, clock=lambda: self.clock(),
                           reload=self.reload, on_closed=self._release)
        self._by_id: dict[str, Session] = {}
        self._by_channel: dict[int, Session] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._opening = asyncio.Lock()  # one new table at a time: see open()

    # --- lookup -------------------------------------------------------------------------

    def get(self, table_id: str) -> Session:
        """The table ``table_id``; :class:`NoSuchTable` if this bot does not know it."""
        session = self._by_id.get(table_id)
        if session is None:
            raise NoSuchTable("that button is not from a table I know")
        return session

    async def find(self, table_id: str) -> Session:
        """Like :meth:`get`, but a table closed before a restart still says why it is closed.

        The rest of the caller's task is about this table: its log lines name it.
        """
        working_on(table_id)
        session = self._by_id.get(table_id)
        if session is not None:
            refuse_unresumable(session.table)
            return session
        stored = await self.store.get_table(table_id)
        if stored is not None:
            refuse_unresumable(stored)
            if stored.status in (TableStatus.LOBBY, TableStatus.PLAYING):
                self.settings.shards.require(stored.guild_id)
        if stored is not None and stored.status is TableStatus.FINISHED:
            raise TableClosed("this game is over")
        if stored is not None and stored.status is TableStatus.CANCELLED:
            raise TableClosed("this table was closed")
        session = self._by_id.get(table_id)  # opened while the store answered, if at all
        if session is None:
            # Tables pruned after TABLE_RETENTION_DAYS leave nothing behind but results.
            raise NoSuchTable(PRUNED)
        return session

    async def viewable(self, table_id: str) -> Session:
        """The table ``table_id`` to look at (``Details``, ``Rules``), open or closed.

        An open table is the one in memory. A finished or cancelled one is not kept
        there (:meth:`_release`): it is read from the store and its game replayed from
        the record, so its ``Details`` still shows the final position and the log.
        A table the database dropped (``TABLE_RETENTION_DAYS``) answers as :meth:`find`.
        """
        working_on(table_id)
        session = self._by_id.get(table_id)
        if session is not None:
            return session
        stored = await self.store.get_table(table_id)
        if stored is None or stored.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
            return await self.find(table_id)
        refuse_unresumable(stored)
        return self._replayed(stored)

    def in_channel(self, channel_id: int) -> Session | None:
        """The open table of this channel or thread, if any."""
        session = self._by_channel.get(channel_id)
        if session is None or not session.is_open:
            return None
        working_on(session.id)  # the caller's next lines are about this table
        return session

    def sessions(self) -> list[Session]:
        return list(self._by_id.values())

    def _register(self, session: Session) -> None:
        self._by_id[session.id] = session
        self._by_channel[session.channel_id] = session
        closed = [s for s in self._by_id.values() if not s.is_open]
        if len(closed) > KEEP_CLOSED:
            closed.sort(key=lambda s: s.table.updated_at)
            for old in closed[: len(closed) - KEEP_CLOSED]:
                del self._by_id[old.id]

    def _release(self, session: Session) -> None:
        """Let a table the store has as finished or cancelled go from memory.

        Its old buttons are answered from the store (:meth:`find`, :meth:`viewable`,
        :meth:`finished_table`): a finished table keeps nothing in memory, however long
        its game was. Whoever still holds the session (the publisher posting its end,
        a click under way) keeps it until done.
        """
        self._forget(session)
        if self._by_id.get(session.id) is session:
            del self._by_id[session.id]

    def _forget(self, session: Session) -> None:
        """Free the channel; the closed table stays known a while so its buttons say so."""
        if self._by_channel.get(session.channel_id) is session:
            del self._by_channel[session.channel_id]

    # --- the lobby ----------------------------------------------------------------------

    async def open(self, *, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                   game: str, options: Mapping[str, Any], pictures: bool | None = None,
                   hints: bool = False, timer: str | None = None,
                   seats: Sequence[Seat] | None = None) -> Session:
        """A new lobby in ``channel_id`` with the host seated; TableError if one is open.

        ``pictures`` None: as the server's setting (on unless ``/settings`` turned it off).
        ``hints`` is the table option that adds the Hint button (the game is then not rated).
        ``timer`` is one of :data:`bot.tables.timers.CHOICES`; None: the server's ``/settings
        timer``, else the bot's ``TURN_TIMEOUT``. SetupError for a timer the game has not.
        ``seats`` (a rematch's: the host and the computers) replaces the host's seat alone.
        Two opens at once (two people pressing Play again) are taken one after the other,
        so the second finds the first's table.
        """
        self.settings.shards.require(guild_id)
        async with self._opening:
            if self.in_channel(channel_id) is not None:
                raise TableError("there is already a table here")
            self._check_limits(guild_id, host_id)
            options = validate_options(game, options)
            clock = await self.timer_for(guild_id, game, timer)
            if pictures is None:
                pictures = guild_id is None or await self.store.get_pictures(guild_id)
            stamp = now()
            table = StoredTable(
                id=secrets.token_hex(5), guild_id=guild_id, channel_id=channel_id,
                host_id=host_id, game=game, options=dict(options),
                seats=list(seats or [Seat(user_id=host_id, name=host_name)]),
                pictures=pictures, hints=hints, turn_seconds=clock.seconds,
                tournament=clock.tournament, created_at=stamp, updated_at=stamp,
            )
            try:
                await self.store.create_table(table)
            except ChannelTaken:
                # Another process opened one here first: the schema keeps one per channel.
                raise TableError("there is already a table here") from None
            session = Session(table)
            self._register(session)
            working_on(session.id)
            return session

    async def finished_table(self, table_id: str) -> StoredTable:
        """The finished table ``table_id``, from memory or (after a restart) the store.

        :class:`NoSuchTable` for an id this bot never made, :class:`TableError` for a
        table that did not finish with a result (still playing, or ended early).
        """
        session = self._by_id.get(table_id)
        table = session.table if session is not None else await self.store.get_table(table_id)
        if table is None:
            raise NoSuchTable("that button is not from a table I know")
        if table.status is not TableStatus.FINISHED or table.record is None:
            raise TableError("that game did not finish with a result, so there is nothing to "
                             "play again or to download")
        return table

    async def rematch(self, finished: StoredTable, user_id: int, name: str) -> Session:
        """A new lobby for ``finished``'s game in its channel, hosted by ``user_id``.

        The same game, options and table options; the computers keep their seats and
        levels, ``user_id`` takes their own, and the other people confirm by joining.
        Only a player of that game may ask; TableError if a table is open there.
        """
        played = {s.user_id for s in finished.seats} | {
            s.replaced_user_id for s in finished.seats if s.replaced_because != "kicked"}
        if user_id not in played:  # a kicked person was handed out on purpose
            raise TableError("only the players of that game can ask for a rematch; /play "
                             "opens a new table")
        seats = []
        for seat in finished.seats:
            if user_id in (seat.user_id, seat.replaced_user_id):
                seats.append(Seat(user_id=user_id, name=name))
            elif seat.is_computer and seat.replaced_user_id is None:
                seats.append(Seat(name=seat.name, level=seat.level))
        # The table options are named one by one: a new one must be added here too, so
        # that a rematch keeps it.
        return await self.open(guild_id=finished.guild_id, channel_id=finished.channel_id,
                               host_id=user_id, host_name=name, game=finished.game,
                               options=finished.options, pictures=finished.pictures,
                               hints=finished.hints, timer=choice_of(finished), seats=seats)

    async def timer_for(self, guild_id: int | None, game: str, choice: str | None
                        ) -> TableTimer:
        """The timer a new table of ``game`` gets: ``choice``, else the server's, else the
        bot's ``TURN_TIMEOUT``; SetupError for a choice ``game`` cannot have."""
        if choice is None and guild_id is not None:
            choice = await self.store.get_timer(guild_id)
        if choice is None:
            return TableTimer(self.settings.turn_timeout)
        return table_timer(choice, game)

    def _check_limits(self, guild_id: int | None, host_id: int) -> None:
        """TableError when the host, or the server, already has as many tables as allowed."""
        hosted = len(self.open_tables(host_id=host_id))
        if hosted >= self.settings.max_tables_per_host:
            raise TableError(f"you already host {hosted} open tables, the most one person may; "
                             "finish or /end one first")
        if guild_id is not None:
            here = len(self.open_tables(guild_id=guild_id))
            if here >= self.settings.max_tables_per_server:
                raise TableError(f"this server already has {here} open tables, the most it may "
                                 "have at once; try again when one has finished")

    async def set_message(self, session: Session, message_id: int) -> None:
        """Remember the public lobby/table message of ``session``.

        Unlike other changes, the id is known in memory while it is being saved:
        the message already exists on Discord whatever the database says, and
        whoever renders the table meanwhile should edit that message, not post
        another. A save that fails puts the old id back, so memory and database
        still agree.
        """
        async with session.lock:
            old = session.table.message_id
            session.table.message_id = message_id
            try:
                await self._save(session, session.table.model_copy(), notify=False)
            except BaseException:
                session.table.message_id = old
                raise

    async def join(self, session: Session, user_id: int, name: str) -> None:
        async with session.lock:
            self._require_lobby(session)
            cls = games.get(session.table.game)
            if session.seat_of(user_id) is not None:
                raise TableError("you are already seated at this table")
            if len(session.seats) >= cls.max_players:
                raise TableError(f"the table is full ({cls.max_players} players)")
            table = _copy(session.table)
            table.seats.append(Seat(user_id=user_id, name=name))
            await self._save(session, table)

    def check_add_computer(self, session: Session, user_id: int) -> None:
        """TableError unless ``user_id`` may add a computer player to this lobby now."""
        self._require_lobby(session)
        cls = games.get(session.table.game)
        if session.seat_of(user_id) is None and user_id != session.table.host_id:
            raise TableError("only players at this table can add a computer player")
        if len(session.seats) >= cls.max_players:
            raise TableError(f"the table is full ({cls.max_players} players)")

    async def add_computer(self, session: Session, user_id: int,
                           level: ComputerLevel = DEFAULT_LEVEL) -> Seat:
        """A computer player of ``level`` takes the next seat; the seat."""
        async with session.lock:
            self.check_add_computer(session, user_id)
            seat = Seat(name=self._computer_name(session), level=level)
            table = _copy(session.table)
            table.seats.append(seat)
            await self._save(session, table)
            return seat

    async def leave(self, session: Session, user_id: int) -> str:
        """``user_id`` leaves: a lobby seat is freed, a seat in play passes to a computer."""
        async with session.lock:
            self._require_open(session)
            seat = session.seat_of(user_id)
            if seat is None:
                raise TableError("you are not seated at this table")
            name = session.seats[seat].name
            table = _copy(session.table)
            if session.status is TableStatus.LOBBY:
                del table.seats[seat]
                message = "you left the table"
            else:
                hand_to_computer(table, seat, "left")
                message = (f"you left the table; a {TAKEOVER_LEVEL} computer player took your "
                           "seat (/join gives it back to you)")
            await self._after_seat_change(session, table, f"{name} left the table")
            return message

    async def kick(self, session: Session, by_user: int, user_id: int) -> str:
        """The host hands ``user_id``'s seat to a computer player (frees it in a lobby)."""
        async with session.lock:
            self._require_open(session)
            if by_user != session.table.host_id:
                raise TableError("only the host can do that")
            seat = session.seat_of(user_id)
            if seat is None:
                raise TableError("that person is not seated at this table")
            if user_id == by_user:
                raise TableError("you cannot kick yourself; use /leave")
            name = session.seats[seat].name
            table = _copy(session.table)
            if session.status is TableStatus.LOBBY:
                del table.seats[seat]
            else:
                hand_to_computer(table, seat, "kicked")
            await self._after_seat_change(
                session, table, f"the host handed {name}'s seat to a {TAKEOVER_LEVEL} computer")
            return f"{name}'s seat passed to a {TAKEOVER_LEVEL} computer player"

    async def take_back(self, session: Session, user_id: int) -> str:
        """``user_id`` takes back the seat a computer holds for them; what the table says.

        For a person who left or timed out (a kicked one may not: :mod:`bot.tables.seats`).
        Their count of timeouts starts again from nothing, and if it is their turn
        they get a fresh deadline.
        """
        async with session.lock:
            self._require_open(session)
            if session.status is not TableStatus.PLAYING:
                raise TableError("the game has not started yet")
            if session.seat_of(user_id) is not None:
                raise TableError("you are already seated at this table")
            seat = held_seat(session.table, user_id)
            if seat is None:
                raise TableError("the game has already started, and you held no seat in it")
            refusal = take_back_refusal(session.table, seat)
            if refusal is not None:
                raise TableError(refusal)
            table = _copy(session.table)
            name = give_back(table, seat, user_id)
            await self._after_seat_change(
                session, table, f"{name} is back and takes their seat from the computer")
            return f"you are back in your seat, {name}"

    def lost_seat(self, session: Session, user_id: int) -> tuple[str, str | None] | None:
        """Why a computer holds the seat ``user_id`` had in this game, and why they may not
        take it back (None: they may); None if no computer holds a seat of theirs."""
        seat = held_seat(session.table, user_id)
        if seat is None or session.status is not TableStatus.PLAYING:
            return None
        because = session.seats[seat].replaced_because or "left"  # seats lost before reasons
        return LOSS_WORDS[because], take_back_refusal(session.table, seat)

    async def start(self, session: Session, user_id: int) -> None:
        """The host starts the game: seed, record and first turn; TableError if not now."""
        async with session.lock:
            self._require_lobby(session)
            if user_id != session.table.host_id:
                raise TableError("only the host can start the game")
            table = _copy(session.table)
            cls = games.get(table.game)
            count = len(table.seats)
            if not cls.min_players <= count <= cls.max_players:
                raise TableError(f"{cls.title} needs {cls.min_players} to {cls.max_players} "
                                 f"players; {count} seated")
            seed = self.seed_source()
            zone = await self.timezone_of(table.guild_id)
            try:
                game = games.new_game(table.game, count, table.options, seed=seed,
                                      **game_context(table.game, self.settings, timezone=zone,
                                                     clock=self.clock))
            except SetupError as exc:
                raise TableError(exc.message) from None
            table.timezone = zone
            table.status = TableStatus.PLAYING
            table.record = {**game.record().model_dump(), "meta": self._meta(table)}
            table.version += 1
            table = self.turns.with_deadline(table, game)
            await self._save(session, table, game=game,
                             note=f"{cls.title} begins with {len(table.seats)} players")
            self.turns.schedule(session)

    async def end(self, session: Session, user_id: int, *, moderator: bool, name: str) -> None:
        """The host (or a moderator) ends the table; no result is written."""
        async with session.lock:
            self._require_open(session)
            if user_id != session.table.host_id and not moderator:
                raise TableError("only the host or someone with Manage Messages can end the table")
            await self._close(session, f"{name} ended the table", closed_by=name)

    async def cancel(self, session: Session, user_id: int, *, name: str) -> None:
        """The host cancels a lobby."""
        async with session.lock:
            self._require_lobby(session)
            if user_id != session.table.host_id:
                raise TableError("only the host can cancel the table")
            await self._close(session, f"{name} cancelled the table", closed_by=name)

    async def close_gone(self, session: Session,
                         note: str = "the table's channel or message is gone") -> None:
        """The table's place is gone (channel, thread or server): close it as cancelled.

        Unrated, its record kept; a closed table is never resumed.
        """
        with about_table(session.id):
            async with session.lock:
                if session.is_open:
                    log.info("table %s closed: %s", session.id, note)
                    await self._close(session, note)

    def start_sweeping(self, every: float = SWEEP_SECONDS) -> None:
        """Look for expired tables every ``every`` seconds until :meth:`shutdown`."""
        async def sweep() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.expire_idle()
                    await self.prune_closed()
                except Exception:
                    log.exception("looking for expired tables failed; trying again later")

        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(sweep(), name="expiry")

    async def expire_idle(self, moment: dt.datetime | None = None) -> int:
        """Close every open table left alone too long (``moment``: now); how many."""
        moment = moment or self.clock()
        closed = 0
        for session in self.open_tables():
            reason = expiry_reason(session.table, moment, self.settings)
            if reason is None:
                continue
            with about_table(session.id):
                async with session.lock:
                    if session.is_open and expiry_reason(session.table, moment,
                                                         self.settings) is not None:
                        log.info("table %s expired: %s", session.id, reason)
                        await self._close(session, reason)
                        closed += 1
        return closed

    async def prune_closed(self, moment: dt.datetime | None = None) -> int:
        """Drop the tables closed more than ``TABLE_RETENTION_DAYS`` before ``moment`` (now)
        from the database and from memory; how many the database dropped.

        Their old buttons then say the game is over (:meth:`find`); results stay.
        """
        moment = moment or self.clock()
        before = moment - dt.timedelta(days=self.settings.table_retention_days)
        pruned = await self.store.prune_tables(before)
        for session in [s for s in self._by_id.values()
                        if not s.is_open and s.table.updated_at < before]:
            del self._by_id[session.id]
        if pruned:
            log.info("pruned %d finished or cancelled tables last changed before %s",
                     pruned, before.isoformat(timespec="seconds"))
        return pruned

    def open_tables(self, *, guild_id: int | None = None, host_id: int | None = None
                    ) -> list[Session]:
        """The open tables (lobbies and games), of one server or one host if given."""
        return [s for s in self._by_id.values() if s.is_open
                and (guild_id is None or s.table.guild_id == guild_id)
                and (host_id is None or s.table.host_id == host_id)]

    # --- the server's clock -------------------------------------------------------------

    async def timezone_of(self, guild_id: int | None) -> str:
        """The time zone of ``guild_id``: its own (``/timezone``), else the TIMEZONE setting."""
        if guild_id is None:
            return self.settings.timezone
        stored = await self.store.get_timezone(guild_id)
        return self._usable_zone(stored, f"server {guild_id}")

    def _usable_zone(self, zone: str | None, whose: str) -> str:
        """``zone`` if zoneinfo loads it here, else (with a warning) the TIMEZONE setting."""
        if zone is None:
            return self.settings.timezone
        if not loads(zone):
            log.warning("%s has the unknown time zone %r; using %s", whose, zone,
                        self.settings.timezone)
            return self.settings.timezone
        return zone

    # --- helpers ------------------------------------------------------------------------

    def _require_open(self, session: Session) -> None:
        if not session.is_open:
            raise TableClosed("this table is closed")

    def _require_lobby(self, session: Session) -> None:
        self._require_open(session)
        if session.status is not TableStatus.LOBBY:
            raise TableError("the game has already started")

    def _computer_name(self, session: Session) -> str:
        taken = set(session.names())
        number = 1
        while f"Computer {number}" in taken:
            number += 1
        return f"Computer {number}"

    async def _after_seat_change(self, session: Session, table: StoredTable, note: str) -> None:
        """Save ``table`` (``session``'s with a seat changed): a new host, or closed if empty."""
        humans = [seat.user_id for seat in table.seats if seat.user_id is not None]
        if not humans:
            await self._close(session, note + "; nobody is left", table=table)
            return
        if table.host_id not in humans:
            table.host_id = humans[0]
        playing = session.status is TableStatus.PLAYING
        if playing:
            table.version += 1
            assert session.game is not None
            table = self.turns.with_deadline(table, session.game, before=session.table)
        await self._save(session, table, note=note if playing else None)
        if playing:
            self.turns.schedule(session)

    async def _close(self, session: Session, note: str, *, table: StoredTable | None = None,
                     closed_by: str | None = None) -> None:
        """Save the table (``table`` if given, else the session's) cancelled, then let it go."""
        table = _copy(session.table if table is None else table)
        table.status = TableStatus.CANCELLED
        table.version += 1
        await self._save(session, table, note=note, notify=False)
        if closed_by is not None:
            session.closed_by = closed_by
        session.cancel_tasks()
        self._release(session)
        self.turns.changed(session)

    async def _save(self, session: Session, table: StoredTable, *, game: Game[Any] | None = None,
                    note: str | None = None, notify: bool = True) -> None:
        """Save ``table`` (a changed copy of the session's), then make it the session's.

        Nothing of ``session`` changes before the store has the table, so a save
        that raises leaves it as the database has it. ``game`` (a game just
        started) and ``note`` (a line for the table's recent events) are taken
        in with it. The table is saved as the session's next version; if the
        store has a newer one, the session is reloaded and :class:`TableMoved`
        raised (nothing of this change was applied).
        """
        table.updated_at = now()
        table.version = session.table.version + 1
        try:
            await self.store.save_head(table)
        except StaleTable as exc:
            await self.reload(session, exc)
            raise TableMoved(MOVED_ELSEWHERE) from None
        session.table = table
        if game is not None:
            session.game = game
        if note is not None:
            session.recent.append(note)
        if notify:
            self.turns.changed(session)

    def _meta(self, table: StoredTable) -> dict[str, Any]:
        return {
            "guild": table.guild_id,
            "channel": table.channel_id,
            "players": [{"name": s.name, "user_id": s.user_id} for s in table.seats],
            "started_at": now().isoformat(),
            "table": table.id,
        }

    # --- a stale copy -------------------------------------------------------------------

    async def reload(self, session: Session, stale: StaleTable) -> None:
        """``session`` as the store has it, after a save found a newer version there.

        The caller holds the session's lock. The table is rebuilt from its stored record
        (as after a restart), its turn scheduled again and its message re-rendered; a
        table the store has closed (or lost) is let go.
        """
        log.warning("%s; reloading table %s from the store", stale, session.id)
        stored = await self.store.get_table(session.id)
        if stored is None:
            stored = session.table.model_copy(update={"status": TableStatus.CANCELLED})
        fresh = self._rebuild(stored)
        session.table, session.game = fresh.table, fresh.game
        session.recent.clear()
        session.recent.extend(fresh.recent)
        if session.is_open:
            self.turns.resume(session)
        else:
            session.cancel_tasks()
            self._release(session)  # its buttons are answered from the store
        self.turns.changed(session)

    # --- after a restart ----------------------------------------------------------------

    async def resume_all(self) -> list[Session]:
        """Rebuild every open table of this process's shards from the store by replaying
        its record.

        Tables of servers on other shards are another process's (:mod:`bot.shards`):
        left untouched, neither resumed nor expired, whatever their state.
        A table that expired while the bot was away (:mod:`bot.tables.expiry`) is closed instead.
        One table that cannot be rebuilt, whatever the exception, never stops the others:
        it is logged with its id and closed as unresumable (see :meth:`_resume`).
        """
        resumed = []
        moment = self.clock()
        shards = self.settings.shards
        for table in await self.store.open_tables():
            if not shards.owns(table.guild_id):
                continue
            with about_table(table.id):
                session = await self._resume(table, moment)
            if session is not None:
                resumed.append(session)
        return resumed

    async def _resume(self, table: StoredTable, moment: dt.datetime) -> Session | None:
        """``table`` back in play, or None if it expired, ended just before a crash, or is
        broken."""
        try:
            reason = expiry_reason(table, moment, self.settings)
            if reason is not None:
                session = Session(table)
                self._register(session)
                await self._close(session, reason)
                return None
            session = self._rebuild(table)
            self._register(session)
            if session.game is not None and session.game.over:
                await self.turns.finish(session)  # it ended just before a crash
                self._forget(session)
                return None
            return session
        except Exception as exc:  # any bug in any game's replay: this table alone pays
            log.exception("table %s cannot be resumed; closing it", table.id)
            await self._close_unresumable(table, exc)
            return None

    async def _close_unresumable(self, table: StoredTable, exc: Exception) -> None:
        """Mark ``table`` unresumable and close it; its record stays in the store."""
        session = Session(table.model_copy(deep=True))
        session.table.unresumable = f"{type(exc).__name__}: {exc}"[:300]
        self._register(session)
        try:
            await self._close(session, UNRESUMABLE_NOTE)
        except Exception:  # the store failing too: still marked in memory, buttons say so
            log.exception("table %s could not be marked unresumable in the store", table.id)
            session.table.status = TableStatus.CANCELLED
            self._forget(session)

    def _rebuild(self, table: StoredTable) -> Session:
        """A stored table back in memory: a game in play is rebuilt by replaying its record.

        The record holds the deals played so far and the seed; the rules core draws
        from the seed for given deals too, so the deals still to come are the ones
        the uninterrupted game would have had.
        """
        if table.status is not TableStatus.PLAYING:
            return Session(table)
        if table.record is None:
            raise ValueError("a table in play without a record")
        return self._replayed(table)

    def _replayed(self, table: StoredTable) -> Session:
        """``table`` as a session whose game (if it has a record) is its record replayed,
        with the log lines the replay gave."""
        session = Session(table)
        if table.record is None:
            return session
        record = Record.from_data(table.record)
        zone = self._usable_zone(table.timezone, f"table {table.id}")
        game: Game[Any] = load(record, **game_context(record.game, self.settings, timezone=zone,
                                                      clock=self.clock))
        names = [seat.name for seat in table.seats]
        for line in record.actions:
            player, text = split_action(line, game.players)
            session.recent.extend(describe(game.apply(player, text), names))
        session.game = game
        return session

    async def shutdown(self) -> None:
        """Cancel every session's tasks and the expiry sweep, and stop the computers'
        workers (the bot is closing or the cog unloading; the workers start again if asked)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for session in self._by_id.values():
            session.cancel_tasks()
        await self.turns.close()
