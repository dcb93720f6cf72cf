"""One SQLite connection on its own thread, with group commit for writes.

:class:`bot.store.sqlite.store.SqliteStore` runs every statement here. The connection lives
on a single worker thread, so a whole unit of work (a write, a read with
several queries) runs there as one plain function, with no hop back to the
event loop between its statements.

Group commit
    With ``synchronous=FULL`` each COMMIT costs an fsync, and the fsync, not
    the SQL, is what limits durable writes per second. So writes queue up
    while one transaction is being committed, and the next transaction takes
    everything queued: N tables' actions cost one BEGIN, N small bodies and
    one fsync. Each write runs inside its own SAVEPOINT, so a write that raises
    (a constraint, bad input) is undone alone and its caller gets its own
    exception while the others commit. If the COMMIT itself fails, every
    caller of that group gets a :class:`GroupCommitError`; none is told its
    write landed unless the COMMIT it was part of returned.

Cancellation
    A caller cancelled while its write is queued or running does not stop it:
    the write commits whole or not at all with its group, never half (the
    caller simply is not told which). Closing waits for every queued write.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

MAX_GROUP = 256
"""The most writes one transaction takes: bounds how long a read can wait behind a group."""


class GroupCommitError(RuntimeError):
    """The transaction holding this write could not be committed; the write did not land."""


@dataclass
class _Pending:
    """A queued write and the future its caller awaits."""

    write: Callable[[sqlite3.Connection], Any]
    future: asyncio.Future[Any]


@dataclass
class _Outcome:
    """What one write of a group gave: a value, or the exception it raised."""

    value: Any = None
    error: BaseException | None = None


class StoreThread:
    """A sqlite3 connection used only from one worker thread; writes are group-committed."""

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        """Wrap ``conn``, which was opened on ``executor``'s only thread; use :meth:`start`."""
        self._executor = executor
        self._conn = conn
        self._queue: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self.groups = 0
        """How many transactions were committed (a benchmark divides writes by it)."""

    @classmethod
    async def start(cls, connect: Callable[[], sqlite3.Connection]) -> StoreThread:
        """Open the connection with ``connect`` on a new worker thread."""
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fivefold-store")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(executor, connect)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, conn)

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(conn)`` on the thread, after whatever is already running there."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, work, self._conn)

    async def write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``write(conn)`` in the next group's transaction; return once that is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.append(_Pending(write, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush(), name="store-group-commit")
        return await future

    async def close(self) -> None:
        """Wait for every queued write, then close the connection and the thread."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)
        try:
            await self.run(lambda conn: conn.close())
        finally:
            self._executor.shutdown(wait=False)

    async def _flush(self) -> None:
        """Commit queued writes group by group until the queue is empty."""
        while self._queue:
            group = self._queue[:MAX_GROUP]
            del self._queue[: len(group)]
            writes = [pending.write for pending in group]
            try:
                outcomes = await self.run(functools.partial(_commit_group, writes=writes))
            except Exception as exc:
                failure = GroupCommitError(f"the write could not be committed: {exc}")
                failure.__cause__ = exc
                outcomes = [_Outcome(error=failure)] * len(group)
            else:
                self.groups += 1
            for pending, outcome in zip(group, outcomes, strict=True):
                _deliver(pending.future, outcome)


def _deliver(future: asyncio.Future[Any], outcome: _Outcome) -> None:
    """Hand a write's outcome to its caller, unless the caller stopped waiting."""
    if future.done():
        return
    if outcome.error is not None:
        future.set_exception(outcome.error)
    else:
        future.set_result(outcome.value)


def _commit_group(conn: sqlite3.Connection, *,
                  writes: list[Callable[[sqlite3.Connection], Any]]) -> list[_Outcome]:
    """Run ``writes`` in one transaction, each in its own savepoint; commit once (one fsync).

    Raises only if the transaction as a whole fails (BEGIN or COMMIT), after
    rolling it back.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        outcomes = [_run_in_savepoint(conn, write) for write in writes]
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _run_in_savepoint(conn: sqlite3.Connection, write: Callable[[sqlite3.Connection], Any]
                      ) -> _Outcome:
    """One write of a group: undone alone (and its exception kept) if it raises."""
    conn.execute("SAVEPOINT one_write")
    try:
        value = write(conn)
    except Exception as exc:
        conn.execute("ROLLBACK TO one_write")
        conn.execute("RELEASE one_write")
        return _Outcome(error=exc)
    conn.execute("RELEASE one_write")
    return _Outcome(value=value)


__all__ = ["MAX_GROUP", "GroupCommitError", "StoreThread"]
