"""Worker processes that never outlive the bot: the computers' and the pictures' pools.

Both pools (:class:`bot.tables.computers.Computers`, :class:`cogs.render.pictures.painter.
Painter`) start their workers from a fork server (:func:`pool_context`): a clean process with
the rules preloaded, never a fork of the bot, which runs threads. A worker's parent is
then the fork server, not the bot, and a worker waiting for its next task holds both
ends of its task queue and the fork server's "alive" pipe: when the bot is killed
(SIGKILL, out of memory) nothing it holds tells them, and the workers and the fork
server would wait for ever, orphans holding 40-70 MB each.

:func:`start_worker`, every worker's initializer, watches the bot itself: multiprocessing
gives each child a sentinel of the process that asked for it (the end of a pipe only the
bot holds open), and a daemon thread waits on it and ends the worker the moment it is
closed. Once the workers are gone the fork server sees the last holder of its alive pipe
go and exits too, as does multiprocessing's resource tracker. An orderly shutdown is
unchanged: the pools stop their workers themselves, while the bot is still alive.

Starting a worker blocks its starter until the fork server has forked it, and the fork
server's first fork waits for it to import the rules (seconds on a busy machine). On the
event loop that would hold every table, and the first hand picture's click would answer
late. :class:`WorkerPool` starts its workers in a thread instead, all at once on first use;
the callers wait for it without holding the loop.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

PRELOAD = ["bot.tables.computers"]
"""Modules the fork server imports once, so a new worker starts with the rules loaded."""
ORPHANED = 3
"""A worker's exit status when it ended because the bot was gone."""


def pool_context() -> BaseContext:
    """Fork server where there is one: workers start from a clean process with the rules
    preloaded, never forked from a process that runs threads (the SQLite store's, the
    event loop's); spawn elsewhere."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    forkserver = multiprocessing.get_context("forkserver")
    forkserver.set_forkserver_preload(PRELOAD)
    return forkserver


def start_worker() -> None:
    """A worker's initializer: Ctrl-C is the bot's to handle (it shuts the pool down in
    order), and the worker ends as soon as the bot is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="exit-with-the-bot",
                         daemon=True).start()


def _exit_with(parent: BaseProcess) -> None:
    """Wait for ``parent`` (the bot) to end, then end this worker at once, mid-task or not:
    its answer would have nobody to go to."""
    parent.join()
    os._exit(ORPHANED)


def _ready() -> None:
    """A worker's first task: nothing but having started."""


def _start_all(pool: ProcessPoolExecutor, workers: int) -> None:
    """Start ``workers`` processes of ``pool`` now (blocking): as many tasks at once as it has
    workers make it start them all."""
    wait([pool.submit(_ready) for _ in range(workers)])


class WorkerPool:
    """A pool of worker processes that end with the bot, started on first use off the event
    loop, and replaced when broken (a worker killed, out of memory)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future[ProcessPoolExecutor] | None = None

    async def get(self) -> ProcessPoolExecutor:
        """The pool, its workers started; the first callers wait while they start."""
        if self._pool is not None:
            return self._pool
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        return await asyncio.shield(self._starting)  # a caller given up stops no start

    async def _start(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(self.workers, mp_context=pool_context(),
                                   initializer=start_worker)
        try:
            await asyncio.to_thread(_start_all, pool, self.workers)
        finally:
            self._starting = None
        self._pool = pool
        return pool

    def discard(self, pool: ProcessPoolExecutor) -> None:
        """Drop a broken ``pool`` (once, however many of its tasks noticed): the next
        :meth:`get` starts a new one."""
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def take(self) -> ProcessPoolExecutor | None:
        """The running pool, no longer this one's (to shut down); None if none runs."""
        pool, self._pool = self._pool, None
        return pool


__all__ = ["ORPHANED", "PRELOAD", "WorkerPool", "pool_context", "start_worker"]
