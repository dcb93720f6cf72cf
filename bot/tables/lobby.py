"""What people do to a table besides playing: open it, join, leave, kick, add a computer,
start, cancel or end it, and take a seat back from a computer.

Each is one typed method of :class:`Lobby`, the one way in for a button and its command
alike (the Discord layer maps a button's verb, ``ff:<table>:<verb>``, or a command such
as ``/join`` to the method): checked and made under the table's lock and saved before
the person is answered (:mod:`bot.tables.changes`); the answer is the words the person
is told, a refusal a :class:`~bot.tables.errors.TableError`. ``join`` at a game under
way takes back the seat a computer holds for them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

import games
from bot.clock import Clock
from bot.logs import working_on
from bot.models import DEFAULT_LEVEL, TAKEOVER_LEVEL, FixedDeal, Seat, StoredTable, TableStatus
from bot.settings import Settings
from bot.store.api import ChannelTaken, DailyTaken, Store
from bot.tables.actions import followed
from bot.tables.changes import Changes, copied
from bot.tables.checks import require_lobby, require_open, require_shard
from bot.tables.daily import (
    ALREADY,
    BOARD_HINT,
    daily_deal,
    daily_options,
    daily_table_seats,
    day_of,
)
from bot.tables.errors import TABLE_HERE, TableError
from bot.tables.registry import Registry
from bot.tables.same_cards import (
    ONLY_ITS_PLAYERS,
    deal_of,
    require_new_seat,
    same_seats,
    save_seat,
    saved_for,
    waiting,
)
from bot.tables.seats import give_back, hand_to_computer, held_seat, take_back_refusal
from bot.tables.session import Session
from bot.tables.snapshots import Reply, menu_of
from bot.tables.timers import TableTimer, choice_of, table_timer, with_deadline
from bot.tables.timezones import game_context, usable_zone
from games.core.errors import SetupError
from games.core.game import Options
from games.core.option_words import options_problem, refusal
from games.core.words import plural
from games.levels import Level

TO_THE_HAND = "Show my hand shows your cards"
"""Added to what a person who now plays (a game started, a seat taken back) is told."""
KICKED = "the host removed you from this table, so you cannot join it again"


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


class Lobby:
    """Opening tables, and every seat change people ask for."""

    def __init__(self, store: Store, settings: Settings, registry: Registry, changes: Changes,
                 *, clock: Clock, seed_source: Callable[[], int]) -> None:
        self.store = store
        self.settings = settings
        self.registry = registry
        self.changes = changes
        self.clock = clock  # the clock tables are stamped with and games read (Fizzbin's night)
        self.seed_source = seed_source  # each new game's seed
        self._opening = asyncio.Lock()  # one new table at a time: see open()

    # --- opening ------------------------------------------------------------------------

    async def open(self, *, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                   game: str, options: Mapping[str, Any], pictures: bool | None = None,
                   hints: bool = False, timer: str | None = None,
                   seats: Sequence[Seat] | None = None, fixed: FixedDeal | None = None,
                   daily: str | None = None, in_dm: bool = False) -> Session:
        """A new lobby in ``channel_id`` with the host seated; TableError if one is open.

        ``pictures`` None: as the server's setting (on unless ``/settings`` turned it off).
        ``hints`` is the table option that adds the Hint button (the game is then not rated).
        ``timer`` is one of :data:`bot.tables.timers.CHOICES`; None: the server's ``/settings
        timer``, else the bot's ``TURN_TIMEOUT``. SetupError for a timer the game has not.
        ``seats`` (a rematch's: the host and the computers) replaces the host's seat alone.
        ``fixed``: the table deals these cards instead of fresh ones (Same cards, a daily
        deal); ``daily``: the day whose deal it plays (the store claims the host's try with
        it; TableError if they have one), ``in_dm``: it lives in a direct message.
        Two opens at once (two people pressing Play again) are taken one after the other,
        so the second finds the first's table.
        """
        require_shard(self.settings.shards, guild_id)
        async with self._opening:
            if self.registry.in_channel(channel_id) is not None:
                raise TableError(TABLE_HERE)
            self.registry.check_limits(guild_id, host_id)
            options = validate_options(game, options)
            clock = await self.timer_for(guild_id, game, timer)
            if pictures is None:
                pictures = guild_id is None or await self.store.get_pictures(guild_id)
            stamp = self.clock()
            table = StoredTable(
                id=secrets.token_hex(5), guild_id=guild_id, channel_id=channel_id,
                host_id=host_id, game=game, options=dict(options),
                seats=list(seats or [Seat(user_id=host_id, name=host_name)]),
                pictures=pictures, hints=hints, turn_seconds=clock.seconds,
                tournament=clock.tournament, fixed=fixed, daily=daily, in_dm=in_dm,
                created_at=stamp, updated_at=stamp,
            )
            try:
                await self.store.create_table(table)
            except ChannelTaken:
                # Another process opened one here first: the schema keeps one per channel.
                raise TableError(TABLE_HERE) from None
            except DailyTaken:
                title = games.get(game).title
                raise TableError(ALREADY.format(title=title, board=BOARD_HINT)) from None
            session = Session(table)
            self.registry.register(session)
            working_on(session.id)
            return session

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

    async def same_cards(self, finished: StoredTable, user_id: int, name: str) -> Session:
        """A new lobby dealing ``finished``'s cards again to its seats, hosted by ``user_id``
        (:mod:`bot.tables.same_cards`): the same game, options, seed and deals, the same table
        options, not rated. Only a player of that game may ask; TableError if a table is
        open there."""
        seats = same_seats(finished, user_id, name)
        return await self.open(guild_id=finished.guild_id, channel_id=finished.channel_id,
                               host_id=user_id, host_name=name, game=finished.game,
                               options=finished.options, pictures=finished.pictures,
                               hints=finished.hints, timer=choice_of(finished), seats=seats,
                               fixed=deal_of(finished))

    async def open_daily(self, *, guild_id: int | None, channel_id: int, user_id: int,
                         name: str, game: str, in_dm: bool = False) -> Session:
        """Today's deal of ``game`` for ``user_id`` alone, started at once
        (:mod:`bot.tables.daily`): their try is claimed with the table (TableError if they
        had one), no turn timer, hard computers in the other seats."""
        day = day_of(self.clock())
        session = await self.open(guild_id=guild_id, channel_id=channel_id, host_id=user_id,
                                  host_name=name, game=game, options=daily_options(game),
                                  timer="off", seats=daily_table_seats(game, user_id, name),
                                  fixed=daily_deal(day, game), daily=day, in_dm=in_dm)
        await self.start(session, user_id)
        return session

    async def timer_for(self, guild_id: int | None, game: str, choice: str | None
                        ) -> TableTimer:
        """The timer a new table of ``game`` gets: ``choice``, else the server's, else the
        bot's ``TURN_TIMEOUT``; SetupError for a choice ``game`` cannot have."""
        if choice is None and guild_id is not None:
            choice = await self.store.get_timer(guild_id)
        if choice is None:
            return TableTimer(self.settings.turn_timeout)
        return table_timer(choice, game)

    async def timezone_of(self, guild_id: int | None) -> str:
        """The time zone of ``guild_id``: its own (``/timezone``), else the TIMEZONE setting."""
        if guild_id is None:
            return self.settings.timezone
        stored = await self.store.get_timezone(guild_id)
        return usable_zone(stored, self.settings, f"server {guild_id}")

    # --- the lobby's seats --------------------------------------------------------------

    async def join(self, session: Session, user_id: int, name: str) -> str:
        """``user_id`` takes a seat in the lobby, or (in play) the seat a computer holds for
        them; what they are told."""
        if session.status is TableStatus.PLAYING:
            taken = await self.take_back(session, user_id)
            return f"{taken.words[0]}. {TO_THE_HAND}"
        async with session.lock:
            require_lobby(session)
            cls = games.get(session.table.game)
            if session.seat_of(user_id) is not None:
                raise TableError("you are already seated at this table")
            if user_id in session.table.kicked:
                raise TableError(KICKED)
            table = copied(session.table)
            if table.fixed is not None:
                saved = saved_for(table, user_id)
                if saved is None:
                    raise TableError(ONLY_ITS_PLAYERS)
                give_back(table, saved, user_id)
                await self.changes.save(session, table)
                return "you took your seat for the same cards"
            if len(session.seats) >= cls.max_players:
                raise TableError(f"the table is full ({plural(cls.max_players, 'player')})")
            table.seats.append(Seat(user_id=user_id, name=name))
            await self.changes.save(session, table)
        return "you joined the table"

    def check_add_computer(self, session: Session, user_id: int) -> None:
        """TableError unless ``user_id`` may add a computer player to this lobby now."""
        require_lobby(session)
        require_new_seat(session.table)
        cls = games.get(session.table.game)
        if session.seat_of(user_id) is None and user_id != session.table.host_id:
            raise TableError("only players at this table can add a computer player")
        if len(session.seats) >= cls.max_players:
            raise TableError(f"the table is full ({plural(cls.max_players, 'player')})")

    async def add_computer(self, session: Session, user_id: int,
                           level: Level = DEFAULT_LEVEL) -> Seat:
        """A computer player of ``level`` takes the next seat; the seat."""
        async with session.lock:
            self.check_add_computer(session, user_id)
            seat = Seat(name=self._computer_name(session), level=level)
            table = copied(session.table)
            table.seats.append(seat)
            await self.changes.save(session, table)
            return seat

    async def leave(self, session: Session, user_id: int) -> str:
        """``user_id`` leaves: a lobby seat is freed, a seat in play passes to a computer."""
        async with session.lock:
            require_open(session)
            seat = session.seat_of(user_id)
            if seat is None:
                raise TableError("you are not seated at this table")
            name = session.seats[seat].name
            table = copied(session.table)
            if session.status is TableStatus.LOBBY and table.fixed is not None:
                save_seat(table, seat)
                message = "you left the table; your seat stays saved for you (Join takes it)"
            elif session.status is TableStatus.LOBBY:
                del table.seats[seat]
                message = "you left the table"
            else:
                hand_to_computer(table, seat, "left")
                message = (f"you left the table; a {TAKEOVER_LEVEL} computer player took your "
                           "seat (/join gives it back to you)")
            await self.changes.seat_changed(session, table, f"{name} left the table")
            return message

    async def kick(self, session: Session, by_user: int, user_id: int | None,
                   seat_number: int | None = None) -> str:
        """The host removes a seat: ``user_id``'s, or the one numbered ``seat_number``.

        A person's seat is freed in a lobby and passes to a computer in play; either way
        the kick holds for this table (they may not join it again, nor take the seat
        back). A computer's seat, whoever added it, leaves a lobby; in play it stays.
        """
        async with session.lock:
            require_open(session)
            if by_user != session.table.host_id:
                raise TableError("only the host can do that")
            seat = self._seat_named(session, user_id, seat_number)
            held, person = session.seats[seat], session.seats[seat].user_id
            if person == by_user:
                raise TableError("you cannot kick yourself; use /leave")
            lobby = session.status is TableStatus.LOBBY
            if person is None:
                return await self._remove_computer(session, seat, lobby=lobby)
            table = copied(session.table)
            table.kicked.append(person)
            if lobby and table.fixed is not None:
                save_seat(table, seat)  # the seat is dealt those cards: a computer keeps it
                await self.changes.seat_changed(session, table, f"the host removed {held.name}")
                return f"{held.name} left the table and may not join it again"
            if lobby:
                del table.seats[seat]
                await self.changes.seat_changed(session, table, f"the host removed {held.name}")
                return f"{held.name} left the table and may not join it again"
            hand_to_computer(table, seat, "kicked")
            await self.changes.seat_changed(
                session, table,
                f"the host handed {held.name}'s seat to a {TAKEOVER_LEVEL} computer")
            return f"{held.name}'s seat passed to a {TAKEOVER_LEVEL} computer player"

    @staticmethod
    def _seat_named(session: Session, user_id: int | None, seat_number: int | None) -> int:
        """The seat a kick is about: the person's, else the numbered one; TableError."""
        if user_id is not None:
            seat = session.seat_of(user_id)
            if seat is None:
                raise TableError("that person is not seated at this table")
            return seat
        if seat_number is None:
            raise TableError("name a player, or a seat by its number in the lobby")
        if not 1 <= seat_number <= len(session.seats):
            raise TableError(f"there is no seat {seat_number}; this table has "
                             f"{len(session.seats)}")
        return seat_number - 1

    async def _remove_computer(self, session: Session, seat: int, *, lobby: bool) -> str:
        """A computer's seat leaves the lobby (the host's call, whoever added it)."""
        name = session.seats[seat].label
        if not lobby:
            raise TableError(f"{name} plays that seat to the end of the game; /end ends the "
                             "table")
        table = copied(session.table)
        if table.fixed is not None:
            raise TableError(f"the same cards are dealt to {table.fixed.players} seats; "
                             f"{name} keeps its seat")
        del table.seats[seat]
        await self.changes.save(session, table)
        return f"{name} left the table"

    async def take_back(self, session: Session, user_id: int) -> Reply:
        """``user_id`` takes back the seat a computer holds for them: what the table says,
        and their menu.

        For a person who left or timed out (a kicked one may not: :mod:`bot.tables.seats`).
        Their seat's count of timeouts in a row goes on (only a move of their own clears
        it, so leaving and coming back cannot dodge the takeover), and if it is their
        turn they get a fresh deadline.
        """
        async with session.lock:
            require_open(session)
            if session.status is not TableStatus.PLAYING:
                raise TableError("the game has not started yet")
            if session.seat_of(user_id) is not None:
                raise TableError("you are already seated at this table")
            seat = held_seat(session.table, user_id)
            if seat is None:
                raise TableError("the game has already started, and you held no seat in it")
            why_not = take_back_refusal(session.table, seat)
            if why_not is not None:
                raise TableError(why_not)
            table = copied(session.table)
            name = give_back(table, seat, user_id)
            session.watchers.discard(user_id)  # seated again: their hand menu shows it all
            await self.changes.seat_changed(
                session, table, f"{name} is back and takes their seat from the computer")
            return Reply(menu_of(session, seat), words=(f"you are back in your seat, {name}",))

    # --- starting and ending ------------------------------------------------------------

    async def start(self, session: Session, user_id: int) -> str:
        """The host starts the game: seed, record and first turn; TableError if not now."""
        async with session.lock:
            require_lobby(session)
            if user_id != session.table.host_id:
                raise TableError("only the host can start the game")
            table = copied(session.table)
            cls = games.get(table.game)
            count = len(table.seats)
            if not cls.min_players <= count <= cls.max_players:
                raise TableError(f"{cls.title} needs {cls.min_players} to {cls.max_players} "
                                 f"players; {count} seated")
            fixed = table.fixed
            if fixed is not None and count != fixed.players:
                raise TableError(f"the same cards are dealt to {fixed.players} seats; "
                                 f"{count} seated")
            zone = await self.timezone_of(table.guild_id)
            try:
                game = games.new_game(
                    table.game, count, table.options,
                    seed=self.seed_source() if fixed is None else fixed.seed,
                    dealer=None if fixed is None else fixed.dealer,
                    deals=() if fixed is None else fixed.deals,
                    **game_context(table.game, self.settings, timezone=zone,
                                   clock=self.clock))
            except SetupError as exc:
                raise TableError(exc.message) from None
            table.timezone = zone
            table.status = TableStatus.PLAYING
            table.record = {**followed(None, game), "meta": self._meta(table)}
            table.version += 1
            table = with_deadline(table, game, self.clock(), self.settings.turn_timeout)
            await self.changes.save(session, table, game=game,
                                    note=f"{cls.title} begins with "
                                         f"{plural(len(table.seats), 'player')}")
            for name in waiting(table):
                session.recent.append(f"{name} had not joined: a {TAKEOVER_LEVEL} computer plays "
                                      f"their seat until {name} takes it back (/join)")
        return f"the game has started. {TO_THE_HAND}"

    async def end(self, session: Session, user_id: int, *, moderator: bool, name: str) -> str:
        """The host (or a moderator) ends the table; no result is written."""
        async with session.lock:
            require_open(session)
            if user_id != session.table.host_id and not moderator:
                raise TableError("only the host or someone with Manage Messages can end the table")
            await self.changes.close(session, f"{name} ended the table", closed_by=name)
        return "the table is ended"

    async def cancel(self, session: Session, user_id: int, *, name: str) -> str:
        """The host cancels a lobby."""
        async with session.lock:
            require_lobby(session)
            if user_id != session.table.host_id:
                raise TableError("only the host can cancel the table")
            await self.changes.close(session, f"{name} cancelled the table", closed_by=name)
        return "the table is cancelled"

    # --- helpers ------------------------------------------------------------------------

    def _computer_name(self, session: Session) -> str:
        taken = set(session.names())
        number = 1
        while f"Computer {number}" in taken:
            number += 1
        return f"Computer {number}"

    def _meta(self, table: StoredTable) -> dict[str, Any]:
        return {
            "guild": table.guild_id,
            "channel": table.channel_id,
            "players": [{"name": s.name, "user_id": s.user_id} for s in table.seats],
            "started_at": self.clock().isoformat(),
            "table": table.id,
        }


__all__ = ["KICKED", "TO_THE_HAND", "Lobby", "validate_options"]
