"""A finished game's result, written with each rated person's rating before and after.

:func:`finished` makes the result and the final table of a game that has just ended;
:func:`record_with_ratings` writes them (the action path, :mod:`bot.tables.actions`, calls
it with the last action).

**Who is rated.** A person is rated only for a game in which they made at least half
of their seat's decisions themselves (:func:`parts`): the moves a computer made for
them, after ``/leave``, a kick, a timeout or a takeover, count against it, whoever
holds the seat at the end. So taking a seat back two moves before the end gains
nothing from the computer's play, and leaving late does not dodge a loss. Those who
played enough are rated among themselves, as ever only when there are two of them or
more; the others' seats count as computers' (not in their ``/stats`` either), and the
result message says why each person who is not rated is not.

The result message (``cogs/upkeep/ending.py``) shows "rating 1012 → 1040" for every
person. The :class:`~bot.store.api.Store` protocol stays as it is: the ratings
are read with ``store.stats`` just before and just after ``record_result``, so
every store implementation (SQLite, PostgreSQL) gives them for free. A person
whose rating did not move (a game with hints, a single person among computers,
a result written already) is "not rated" for this game.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.models import TAKEN_OVER, GameResult, ResultPlayer, StoredTable, TableStatus
from bot.store.api import StaleTable, Store
from games.core.deallog import deals_json
from games.core.game import Game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RatingChange:
    """One person's displayed rating of the game, before and after it (None: unrated)."""

    user_id: int
    before: float | None
    after: float | None

    @property
    def moved(self) -> bool:
        return self.after is not None and self.before != self.after


@dataclass(frozen=True)
class Ending:
    """What the end of a game tells its players beyond the table: the rating changes,
    whose each seat's result is, and why a person is not rated."""

    rated: bool  # False for a game played with hints
    changes: tuple[RatingChange, ...] = ()
    known: bool = True  # False: the store could not be read around the result
    people: tuple[int | None, ...] = ()  # by seat: the person whose result it is, if any
    why_not: Mapping[int, str] = field(default_factory=dict)  # person -> why not rated
    by_proxy: bool = False  # someone is not rated: a computer made most of their moves

    def change_of(self, user_id: int) -> RatingChange | None:
        return next((c for c in self.changes if c.user_id == user_id), None)

    def person_at(self, seat: int) -> int | None:
        return self.people[seat] if seat < len(self.people) else None


@dataclass(frozen=True)
class Part:
    """A seat's person in a finished game, and how much of the seat's game they played."""

    person: int | None  # who holds it at the end, or whom a computer holds it for
    own: int  # decisions the person made
    moves: int  # decisions made at the seat, by the person or a computer

    @property
    def counts(self) -> bool:
        """Whether the result is the person's: they made at least half the decisions."""
        return self.person is not None and 2 * self.own >= self.moves


def parts(table: StoredTable) -> list[Part]:
    """Each seat's :class:`Part`, by seat."""
    return [Part(seat.user_id if seat.user_id is not None else seat.replaced_user_id,
                 seat.own_moves, seat.moves) for seat in table.seats]


def why_not_rated(table: StoredTable) -> dict[int, str]:
    """Why each person of ``table``'s finished game who is not rated is not (a game with
    hints aside, which rates nobody)."""
    shares = parts(table)
    why = {part.person: f"a computer made {part.moves - part.own} of your {part.moves} moves"
           for part in shares if part.person is not None and not part.counts}
    counted = {part.person for part in shares if part.counts and part.person is not None}
    if len(counted) == 1:
        [alone] = counted
        why[alone] = ("nobody else here played at least half of their own moves" if why
                      else "no other person played")
    return why


def finished(table: StoredTable, game: Game[Any], *, now: dt.datetime
             ) -> tuple[StoredTable, GameResult]:
    """The finished table and its result (sharing one record, stamped with its end: ``now``,
    read on the action path's clock).

    Each seat's result is its person's if they made at least half of its decisions
    (:class:`Part`), else a computer's.
    """
    assert game.outcome is not None
    record = dict(table.record or game.record().model_dump())
    record["actions"] = list(record.get("actions", ()))  # the result's own, as JSON has it
    record["deals"] = deals_json(record.get("deals"))
    record["meta"] = {**record.get("meta", {}), "ended_at": now.isoformat()}
    final = table.model_copy(update={"status": TableStatus.FINISHED, "updated_at": now,
                                     "record": record})
    players = [
        ResultPlayer(seat=i, user_id=part.person if part.counts else None,
                     name=seat.name.removesuffix(TAKEN_OVER) if part.counts else seat.name,
                     score=game.scores[i], place=game.outcome.places[i],
                     winner=i in game.winners)
        for i, (seat, part) in enumerate(zip(table.seats, parts(table), strict=True))
    ]
    result = GameResult(table_id=table.id, guild_id=table.guild_id, game=table.game,
                        finished_at=now, players=players, record=record,
                        rated=table.rated, daily=table.daily)
    return final, result


async def _ratings(store: Store, result: GameResult, people: list[int]
                   ) -> dict[int, float | None] | None:
    """Each person's current rating of ``result.game`` in its server (None if unrated);
    None if the store could not say (logged: the game's end must not fail for it)."""
    try:
        stats = await asyncio.gather(*(store.stats(result.guild_id, p) for p in people))
    except Exception:
        log.exception("table %s: could not read the players' ratings", result.table_id)
        return None
    return {person: next((s.rating for s in rows if s.game == result.game), None)
            for person, rows in zip(people, stats, strict=True)}


async def record_with_ratings(store: Store, result: GameResult, *,
                              table: StoredTable | None = None) -> Ending:
    """``store.record_result(result, table=table)``, and every person's rating around it.

    The result is written exactly as ``record_result`` writes it (one transaction);
    the readings before and after are outside it, so a game of the same person
    finishing at another table at that very moment would show in the difference.
    :class:`StaleTable` when the store already had the result (another process
    finished this table first): nothing was written.
    """
    people = list(dict.fromkeys(p.user_id for p in result.players if p.user_id is not None))
    before = await _ratings(store, result, people) if result.rated else None
    if not await store.record_result(result, table=table):
        raise StaleTable(result.table_id, 0 if table is None else table.version, None)
    shares = parts(table) if table is not None else []
    seats = tuple(part.person for part in shares)
    if not result.rated:
        return Ending(rated=False, people=seats)
    why_not = why_not_rated(table) if table is not None else {}
    proxy = any(part.person is not None and not part.counts for part in shares)
    after = await _ratings(store, result, people) if before is not None else None
    if before is None or after is None:
        return Ending(rated=True, known=False, people=seats, why_not=why_not, by_proxy=proxy)
    return Ending(rated=True, people=seats, why_not=why_not, by_proxy=proxy, changes=tuple(
        RatingChange(person, before[person], after[person]) for person in people))


__all__ = ["Ending", "Part", "RatingChange", "finished", "parts", "record_with_ratings",
           "why_not_rated"]
