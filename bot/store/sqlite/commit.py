"""Group commit on one aiosqlite connection: writes queued together share one transaction.

:class:`bot.store.sqlite.store.SqliteStore` runs every write here. With
``synchronous=FULL`` each COMMIT costs an fsync, and the fsync, not the SQL, is
what limits durable writes per second. So writes queue up while a transaction
is being committed, and the next transaction takes everything queued: N tables'
actions cost one ``BEGIN IMMEDIATE`` ... ``COMMIT`` and one fsync.

Few round trips
    aiosqlite runs each call on its connection's thread and hands the answer back
    to the event loop: one round trip per call. Writes of one kind (a
    :class:`Batched` write: every action appended) queued side by side run as one
    ``executemany`` per statement for the whole run, so a group of 32 actions is
    four round trips (BEGIN, two statements, COMMIT), not one hundred and thirty.
    They take no savepoint: one around a whole run would make SQLite keep every page
    the run changes in its statement journal, which spills to disk past 64 KiB.

Failing alone
    Every other write runs inside its own savepoint, so a write that raises (a
    constraint, bad input, a stale copy) is undone alone and its caller gets its own
    exception while the others commit. A batched run whose statements do not all
    change one row per write (a stale copy among them), or that raises, cannot be
    undone alone: the group's transaction is rolled back (nothing of it was
    committed) and the group runs again at once, every write in its own savepoint,
    so the failing one fails alone there. If the COMMIT itself fails, every caller
    of that group gets a :class:`GroupCommitError`; none is told its write landed
    unless the COMMIT it was part of returned.

Cancellation
    A caller cancelled while its write is queued or running does not stop it: the
    write commits whole or not at all with its group, never half (the caller simply
    is not told which). Closing waits for every queued write.

The store's reads take the same lock as a group's transaction, so a read never
runs inside a group and never sees half of one.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast

import aiosqlite

T = TypeVar("T")

Write = Callable[[aiosqlite.Connection], Awaitable[T]]
"""A write: statements awaited on the connection, inside the transaction of its group."""

MAX_GROUP = 256
"""The most writes one transaction takes: bounds how long a read can wait behind a group."""


class GroupCommitError(RuntimeError):
    """The transaction holding this write could not be committed; the write did not land."""


class _Replay(Exception):
    """A batched run did not apply as a whole: run the group again, one write at a time."""


class Batched:
    """A write whose statements can run for many writes of its kind at once.

    ``STATEMENTS`` are run in order, each with ``executemany`` over the ``params`` of
    every write of the run (``params[i]`` for statement ``i``); each must change
    exactly one row per write. Called alone (``await write(db)``) it runs its
    statements once and raises the precise error when they do not apply.
    """

    STATEMENTS: ClassVar[tuple[str, ...]] = ()
    params: tuple[Sequence[Any], ...]

    async def __call__(self, db: aiosqlite.Connection) -> None:
        raise NotImplementedError


@dataclass
class _Pending:
    """A queued write and the future its caller awaits."""

    write: Write[Any]
    future: asyncio.Future[Any]


@dataclass
class _Settled:
    """What one write of a group gave: a value, or the exception it raised."""

    value: Any = None
    error: BaseException | None = None


class GroupCommit:
    """The writes of one connection, committed group by group; ``lock`` is held by each
    group's transaction (and by the store's reads)."""

    def __init__(self, db: aiosqlite.Connection, lock: asyncio.Lock) -> None:
        self._db = db
        self._lock = lock
        self._queue: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self.groups = 0
        """How many transactions were committed (``bench.store`` divides writes by it)."""

    async def write(self, write: Write[T]) -> T:
        """Run ``write`` in the next group's transaction; return once that is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.append(_Pending(write, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush(), name="store-group-commit")
        return await future

    async def drain(self) -> None:
        """Wait until every queued write is committed (or failed)."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        """Commit queued writes group by group until the queue is empty."""
        while self._queue:
            group = self._queue[:MAX_GROUP]
            del self._queue[: len(group)]
            try:
                async with self._lock:
                    outcomes = await self._commit([pending.write for pending in group])
            except Exception as exc:
                failure = GroupCommitError(f"the write could not be committed: {exc}")
                failure.__cause__ = exc
                outcomes = [_Settled(error=failure)] * len(group)
            else:
                self.groups += 1
            for pending, outcome in zip(group, outcomes, strict=True):
                _deliver(pending.future, outcome)

    async def _commit(self, writes: list[Write[Any]]) -> list[_Settled]:
        """Run ``writes`` in one transaction and commit once (one fsync): batched runs
        together if they all apply, else the whole group again, one write at a time.

        Raises only if the transaction as a whole fails (BEGIN or COMMIT), after
        rolling it back.
        """
        try:
            return await self._transaction(writes, together=True)
        except _Replay:
            return await self._transaction(writes, together=False)

    async def _transaction(self, writes: list[Write[Any]], *, together: bool
                           ) -> list[_Settled]:
        db = self._db
        await db.execute("BEGIN IMMEDIATE")
        try:
            outcomes: list[_Settled] = []
            for kind, run in itertools.groupby(writes, key=_kind if together else _none):
                writes_of_run = list(run)
                if kind is None:
                    outcomes.extend([await self._alone(write) for write in writes_of_run])
                else:
                    batched = [cast(Batched, write) for write in writes_of_run]
                    outcomes.extend(await self._together(kind, batched))
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
        return outcomes

    async def _alone(self, write: Write[Any]) -> _Settled:
        """One write of a group: undone alone (and its exception kept) if it raises."""
        db = self._db
        await db.execute("SAVEPOINT one_write")
        try:
            value = await write(db)
        except Exception as exc:
            await db.execute("ROLLBACK TO one_write")
            await db.execute("RELEASE one_write")
            return _Settled(error=exc)
        await db.execute("RELEASE one_write")
        return _Settled(value=value)

    async def _together(self, statements: tuple[str, ...], run: list[Batched]
                        ) -> list[_Settled]:
        """A run of writes of one :class:`Batched` kind: each statement once for all of
        them; :class:`_Replay` unless every one changes one row per write."""
        for index, statement in enumerate(statements):
            rows = [write.params[index] for write in run]
            try:
                changed = (await self._db.executemany(statement, rows)).rowcount
            except Exception as exc:
                raise _Replay from exc
            if changed != len(run):
                raise _Replay
        return [_Settled() for _ in run]


def _kind(write: Write[Any]) -> tuple[str, ...] | None:
    """The statements a write shares with others of its kind, or None for a write alone."""
    return write.STATEMENTS if isinstance(write, Batched) else None


def _none(write: Write[Any]) -> None:
    """Every write alone (a group run again after a batched run failed)."""
    return None


def _deliver(future: asyncio.Future[Any], outcome: _Settled) -> None:
    """Hand a write's outcome to its caller, unless the caller stopped waiting."""
    if future.done():
        return
    if outcome.error is not None:
        future.set_exception(outcome.error)
    else:
        future.set_result(outcome.value)


__all__ = ["MAX_GROUP", "Batched", "GroupCommit", "GroupCommitError", "Write"]
