"""A finished game's result, written with each rated person's rating before and after.

:func:`finished` makes the result and the final table of a game that has just ended;
:func:`record_with_ratings` writes them (the action path, :mod:`bot.tables.actions`, calls
it with the last action).

The result message (``cogs/upkeep/ending.py``) shows "rating 1012 → 1040" for every
person. The :class:`~bot.store.api.Store` protocol stays as it is: the ratings
are read with ``store.stats`` just before and just after ``record_result``, so
every store implementation (SQLite, PostgreSQL) gives them for free. A person
whose rating did not move (a game with hints, a single person among computers,
a result written already) is "not rated" for this game.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from bot.models import GameResult, ResultPlayer, StoredTable, TableStatus
from bot.store.api import StaleTable, Store
from bot.tables.context import utc_now
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
    """What the end of a game tells its players beyond the table: the rating changes."""

    rated: bool  # False for a game played with hints
    changes: tuple[RatingChange, ...] = ()
    known: bool = True  # False: the store could not be read around the result

    def change_of(self, user_id: int) -> RatingChange | None:
        return next((c for c in self.changes if c.user_id == user_id), None)


def finished(table: StoredTable, game: Game[Any]) -> tuple[StoredTable, GameResult]:
    """The finished table and its result (sharing one record, stamped with its end)."""
    assert game.outcome is not None
    stamp = utc_now()
    record = dict(table.record or game.record().model_dump())
    record["actions"] = list(record.get("actions", ()))  # the result's own, as JSON has it
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
    if not result.rated:
        return Ending(rated=False)
    after = await _ratings(store, result, people) if before is not None else None
    if before is None or after is None:
        return Ending(rated=True, known=False)
    return Ending(rated=True, changes=tuple(
        RatingChange(person, before[person], after[person]) for person in people))


__all__ = ["Ending", "RatingChange", "finished", "record_with_ratings"]
