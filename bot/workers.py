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
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
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


__all__ = ["ORPHANED", "PRELOAD", "pool_context", "start_worker"]
