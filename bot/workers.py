"""Worker processes that never outlive the bot, and that the event loop talks to itself:
the computers' and the pictures' pools.

Both pools (:class:`bot.tables.computers.Computers`, :class:`cogs.render.pictures.painter.
Painter`) start their workers from a fork server (:func:`pool_context`): a clean process with
the rules preloaded, never a fork of the bot, which runs threads. A worker's parent is
then the fork server, not the bot, and a worker waiting for its next task holds its end of
its sockets and the fork server's "alive" pipe: when the bot is killed (SIGKILL, out of
memory) a worker in the middle of a task would go on, and the fork server would wait for
ever, orphans holding 40-70 MB each.

:func:`start_worker`, every worker's start, watches the bot itself: multiprocessing gives
each child a sentinel of the process that asked for it (the end of a pipe only the bot
holds open), and a daemon thread waits on it and ends the worker the moment it is closed.
Once the workers are gone the fork server sees the last holder of its alive pipe go and
exits too, as does multiprocessing's resource tracker. An orderly shutdown is unchanged:
the pools stop their workers themselves, while the bot is still alive.

:class:`Workers` is the pool. Calls go to the workers over one socket that every idle worker
reads from (one at a time, under a lock: whichever is free takes the next call, so a long
call holds up no other); each worker sends its answers back on a socket of its own. The
event loop writes and reads those sockets itself, with no thread of the bot's in between:
``concurrent.futures.ProcessPoolExecutor``, which the pools used before, hands every call
and answer through two threads of its own (a feeder and a manager, each taking the GIL
from the loop) and spent two (a computer's question) to five (a picture) times the bot's
CPU on each call (``python -m bench.workers``). A worker that dies breaks the pool, as it
did the executor's: every call not answered fails with
:class:`~concurrent.futures.process.BrokenProcessPool`, and the callers start a new pool and
ask again. Closing a pool cancels the calls not yet sent and
lets those sent be answered, as the executor's shutdown did; a call that raises, even
``SystemExit``, fails alone and the worker goes on.

Starting a worker blocks its starter until the fork server has forked it, and the fork
server's first fork waits for it to import the rules (seconds on a busy machine). On the
event loop that would hold every table, and the first hand picture's click would answer
late. :class:`WorkerPool` starts its workers in a thread instead, all at once on first use;
the callers wait for it without holding the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import importlib
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import threading
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Lock
from typing import Any, TypeVar

T = TypeVar("T")
Context = ForkServerContext | SpawnContext

log = logging.getLogger(__name__)

PRELOAD = ["bot.thinking"]
"""Modules the fork server imports once, so a new worker starts with the rules loaded: the
computers' side of a worker (the rules and the computer players), nothing of the table
service or of discord.py. A pool whose workers need more names it (``preload`` of
:class:`WorkerPool`): each of its workers imports that before it takes a call."""
ORPHANED = 3
"""A worker's exit status when it ended because the bot was gone."""
SPARE = 1
"""Calls sent to the workers beyond one each, so that none waits for the event loop between
two calls; the others wait in the bot, where a caller who gives up takes its call back."""
GRACE = 5.0
"""Seconds a closed pool's worker may take to finish the call under way and exit before it
is terminated."""

_HEADER = struct.Struct("!i")
"""A frame's length, as :class:`multiprocessing.connection.Connection` writes and reads it."""
_NUMBER = struct.Struct("!Q")
"""A call's number, at the head of the call's frame and of its answer's."""
_READY = 0
"""The number of a worker's first answer: that it has started."""
_LARGEST = 0x7FFFFFFF
"""The largest frame a call may be: its length is a signed 32-bit number."""
_PROTOCOL = pickle.HIGHEST_PROTOCOL


class NotSent(BrokenProcessPool):
    """The pool broke before the call was sent to any worker: asking a new pool costs the
    call nothing it had spent."""


class RemoteTraceback(Exception):
    """Where in the worker an error was raised: the ``__cause__`` of the error raised here."""

    def __str__(self) -> str:
        return str(self.args[0])


def pool_context() -> Context:
    """Fork server where there is one: workers start from a clean process with the rules
    preloaded, never forked from a process that runs threads (the SQLite store's, the
    event loop's); spawn elsewhere."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    forkserver = multiprocessing.get_context("forkserver")
    forkserver.set_forkserver_preload(PRELOAD)
    return forkserver


def start_worker() -> None:
    """A worker's start: Ctrl-C is the bot's to handle (it shuts the pool down in order),
    and the worker ends as soon as the bot is gone."""
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


def _serve(calls: socket.socket, turn: Lock, answers: socket.socket,
           preload: tuple[str, ...] = ()) -> None:
    """A worker: import its pool's ``preload``, then take the next call when free and answer
    it, until the pool is closed."""
    start_worker()
    for module in preload:
        importlib.import_module(module)
    inbox, outbox = Connection(calls.detach()), Connection(answers.detach())
    try:
        outbox.send_bytes(_NUMBER.pack(_READY) + pickle.dumps((True, None), _PROTOCOL))
    except OSError:
        return  # the pool was closed while this worker started
    while True:
        try:
            with turn:  # one worker reads a whole frame at a time
                frame = inbox.recv_bytes()
        except (EOFError, OSError):
            return  # the pool was closed (or the bot is gone)
        try:
            outbox.send_bytes(frame[:_NUMBER.size] + _answer(frame[_NUMBER.size:]))
        except OSError:
            return  # nobody is listening any more


def _answer(call: bytes) -> bytes:
    """The pickled answer to a pickled call: (True, its value) or (False, (the error, the
    worker's traceback))."""
    try:
        fn, args = pickle.loads(call)
        answer: tuple[bool, Any] = (True, fn(*args))
    except BaseException as exc:  # the call's to answer for, never the worker's end
        error = exc if isinstance(exc, Exception) else RuntimeError(
            f"a worker's call raised {exc!r}")
        answer = (False, (error, "".join(traceback.format_exception(exc))))
    try:
        return pickle.dumps(answer, _PROTOCOL)
    except Exception as exc:  # an answer or an error that cannot be pickled
        failed = RuntimeError(f"a worker's answer could not be sent back: {exc!r}")
        return pickle.dumps((False, (failed, "".join(traceback.format_exception(exc)))),
                            _PROTOCOL)


class _Frames(asyncio.Protocol):
    """The bot's end of a socket to the workers: the frames it reads, to ``received``; its
    end, to ``ended``."""

    def __init__(self, received: Callable[[memoryview], None], ended: Callable[[], None]
                 ) -> None:
        self._received = received
        self._ended = ended
        self._buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start = 0
        with memoryview(buffer) as frames:  # read in place, not copied (a picture: 40 KB)
            while len(buffer) - start >= _HEADER.size:
                (size,) = _HEADER.unpack_from(buffer, start)
                head = _HEADER.size
                if size == -1:  # 2 GiB or more: the length follows in 8 bytes
                    if len(buffer) - start < head + _NUMBER.size:
                        break
                    (size,) = _NUMBER.unpack_from(buffer, start + head)
                    head += _NUMBER.size
                end = start + head + size
                if len(buffer) < end:
                    break  # the rest is on its way
                with frames[start + head:end] as frame:
                    self._received(frame)
                start = end
        del buffer[:start]

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended()


class Workers:
    """Worker processes that answer calls (:meth:`call`), talked to by the event loop
    itself; start them with :meth:`start`. See the module's docstring."""

    def __init__(self, count: int, context: Context | None = None,
                 preload: Sequence[str] = ()) -> None:
        self.count = count
        self.preload = tuple(preload)
        """Modules each worker imports before it is ready (beyond the fork server's)."""
        self.loop = asyncio.get_running_loop()
        """The event loop the pool belongs to (its sockets are that loop's)."""
        self._context = context or pool_context()
        self._numbers = itertools.count(_READY + 1)
        self._calls: dict[int, asyncio.Future[Any]] = {}  # every call not yet answered
        self._waiting: deque[tuple[int, bytes]] = deque()  # calls not yet sent
        self._sent: set[int] = set()  # calls sent and not yet answered
        self._processes: list[BaseProcess] = []
        self._sockets: list[socket.socket] = []  # the bot's ends not yet the loop's
        self._turn: Lock | None = None  # kept: a worker still starting opens it by name
        self._spawned: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._reaped: concurrent.futures.Future[None] | None = None
        self._outbox: asyncio.Transport | None = None
        self._inboxes: list[asyncio.Transport] = []
        self._ended = 0  # inboxes whose worker has gone
        self._ready: list[asyncio.Future[None]] = []
        self._broken: str | None = None
        self._closed = False

    @classmethod
    async def start(cls, count: int, context: Context | None = None,
                    preload: Sequence[str] = ()) -> Workers:
        """``count`` workers, started off the event loop (each importing ``preload``);
        returns once each has started. Cancelled meanwhile, it lets the processes under way
        start, then ends them."""
        pool = cls(count, context, preload)
        try:
            await pool._start()
        except BaseException:
            pool.shutdown(terminate=True)
            raise
        return pool

    async def _start(self) -> None:
        ours, theirs = socket.socketpair()
        answers = [socket.socketpair() for _ in range(self.count)]
        self._sockets = [ours, *(mine for mine, _ in answers)]
        self._turn = self._context.Lock()
        threading.Thread(target=self._spawn, args=(theirs, [w for _, w in answers]),
                         name="workers-start", daemon=True).start()
        # Shielded: the fork server is reading the workers' sockets; a cancelled start
        # leaves the thread to finish, and the reaper waits for it.
        await asyncio.shield(asyncio.wrap_future(self._spawned))
        if self._closed:
            raise BrokenProcessPool(self._broken or "the worker processes were closed")
        self._outbox, _ = await self.loop.create_unix_connection(
            lambda: _Frames(self._unexpected, self._calls_lost), sock=ours)
        self._sockets.remove(ours)
        for mine, _ in answers:
            ready: asyncio.Future[None] = self.loop.create_future()
            self._ready.append(ready)
            transport, _ = await self.loop.create_unix_connection(
                functools.partial(self._inbox, ready), sock=mine)
            self._sockets.remove(mine)
            self._inboxes.append(transport)
        await asyncio.gather(*self._ready)

    def _inbox(self, ready: asyncio.Future[None]) -> _Frames:
        """The bot's end of a worker's answers; ``ready`` is set by its first."""
        return _Frames(lambda frame: self._answered(frame, ready), self._lost)

    def _spawn(self, calls: socket.socket, answers: list[socket.socket]) -> None:
        """Start the processes (in a thread: the fork server forks each), then close the
        workers' ends of the sockets, which are theirs now."""
        error: BaseException | None = None
        try:
            for n, mine in enumerate(answers):
                if self._closed:
                    break  # closed while starting: no more
                process = self._context.Process(
                    target=_serve, args=(calls, self._turn, mine, self.preload),
                    name=f"worker-{n + 1}", daemon=True)
                process.start()
                self._processes.append(process)
        except BaseException as exc:
            error = exc
        finally:
            calls.close()
            for mine in answers:
                mine.close()
        if error is None:
            self._spawned.set_result(None)
        else:
            self._spawned.set_exception(error)

    @property
    def broken(self) -> bool:
        """Whether a worker died: every call fails, and the pool is to be replaced."""
        return self._broken is not None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker: its value, or the error it raised (its ``__cause__``
        the worker's traceback). ``fn`` and ``args`` are pickled (``fn`` by name).

        BrokenProcessPool if a worker died before the answer came (:class:`NotSent` if
        before the call was sent to the workers); CancelledError if the
        pool was closed before the call was sent. A caller cancelled before its call was
        sent takes it back.
        """
        if self._broken is not None:
            raise BrokenProcessPool(self._broken)
        if self._closed:
            raise RuntimeError("the worker processes are closed")
        number = next(self._numbers)
        frame = _NUMBER.pack(number) + pickle.dumps((fn, args), _PROTOCOL)
        if len(frame) > _LARGEST:
            raise ValueError(f"a call of {len(frame):,} bytes is too large to send")
        answer: asyncio.Future[T] = self.loop.create_future()
        self._calls[number] = answer
        self._waiting.append((number, frame))
        self._send()
        try:
            return await answer
        finally:
            if self._calls.get(number) is answer:
                del self._calls[number]  # given up: not sent, or its answer is dropped

    def _send(self) -> None:
        """Send the workers the calls they have room for, in the order asked."""
        outbox = self._outbox
        while self._waiting and len(self._sent) < self.count + SPARE and outbox is not None:
            number, frame = self._waiting.popleft()
            if number not in self._calls:
                continue  # its caller gave up before it was sent
            outbox.write(_HEADER.pack(len(frame)) + frame)
            self._sent.add(number)

    def _answered(self, frame: memoryview, ready: asyncio.Future[None]) -> None:
        """A worker's answer (or its word that it has started)."""
        (number,) = _NUMBER.unpack_from(frame)
        if number == _READY:
            if not ready.done():
                ready.set_result(None)
            return
        self._sent.discard(number)
        answer = self._calls.pop(number, None)
        try:
            if answer is not None and not answer.done():
                ok, value = pickle.loads(frame[_NUMBER.size:])
                if ok:
                    answer.set_result(value)
                else:
                    error, where = value
                    error.__cause__ = RemoteTraceback(where)
                    answer.set_exception(error)
        except Exception as exc:  # an answer that cannot be unpickled here
            if answer is not None and not answer.done():
                answer.set_exception(exc)
        finally:
            self._send()

    def _unexpected(self, frame: memoryview) -> None:
        """Workers never write on the calls' socket."""
        self._break("a worker wrote where only the bot writes")

    def _calls_lost(self) -> None:
        """The calls' socket ended: closed by the pool, else broken."""
        if not self._closed:
            self._break("the socket of the calls to the workers ended")

    def _lost(self) -> None:
        """A socket to the workers ended: a worker died, unless the pool is being closed;
        once every worker of a closed pool has gone, the calls left have no answer coming."""
        if not self._closed:
            self._break("a worker process ended unexpectedly")
            return
        self._ended += 1
        if self._ended >= len(self._inboxes):
            self._cancel(list(self._calls.values()))
            self._calls.clear()
            self._sent.clear()

    def _break(self, why: str) -> None:
        """A worker died: fail every call not answered, and end the other workers."""
        if self._broken is not None or self._closed:
            return
        self._broken = why
        unsent = {number for number, _ in self._waiting}
        for number, answer in self._calls.items():
            if not answer.done():
                answer.set_exception((NotSent if number in unsent else BrokenProcessPool)(why))
        for ready in self._ready:
            if not ready.done():
                ready.set_exception(BrokenProcessPool(why))
        for ready in self._ready:
            ready.exception()  # read here: start() may have stopped waiting
        self.shutdown(terminate=True)

    def shutdown(self, *, terminate: bool = False) -> None:
        """Stop, and reap the workers in a thread of its own (:meth:`close` waits for it).

        The calls not yet sent are cancelled. The calls sent are answered as they would
        have been, each worker ending once it has nothing more to do (terminated if it
        takes more than :data:`GRACE` seconds); with ``terminate`` (a broken pool) they
        are cancelled too and the workers ended at once.
        """
        if self._closed:
            return
        self._closed = True
        waiting = [self._calls.pop(number) for number, _ in self._waiting
                   if number in self._calls]
        self._waiting.clear()
        if terminate or not self._inboxes:
            waiting += self._calls.values()
            self._calls.clear()
            self._sent.clear()
        for raw in self._sockets:
            raw.close()
        self._sockets.clear()
        with contextlib.suppress(RuntimeError):  # a pool left by an event loop now closed
            closing = (self._outbox, *self._inboxes) if terminate else (self._outbox,)
            for transport in closing:
                if transport is not None:
                    transport.close()  # the calls' socket: each worker reads its end
            self._cancel(waiting)
        if terminate:
            for process in list(self._processes):
                if process.pid is not None:
                    process.terminate()
        reaped: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._reaped = reaped
        threading.Thread(target=self._reap, args=(reaped,), name="workers-reaper",
                         daemon=True).start()

    @staticmethod
    def _cancel(calls: list[asyncio.Future[Any]]) -> None:
        with contextlib.suppress(RuntimeError):  # their event loop has closed
            for answer in calls:
                answer.cancel()

    async def close(self) -> None:
        """:meth:`shutdown`, then wait (off the event loop) until the workers have ended."""
        self.shutdown()
        assert self._reaped is not None
        await asyncio.wrap_future(self._reaped)

    def _reap(self, reaped: concurrent.futures.Future[None]) -> None:
        """Wait for each worker to end: :data:`GRACE` seconds to finish, then terminated.
        The one reaper of the pool: a process is joined by one thread only."""
        try:
            concurrent.futures.wait([self._spawned])  # every process that will start has
            for process in list(self._processes):
                if process.pid is None:
                    continue
                process.join(GRACE)
                if process.exitcode is None:
                    log.warning("a worker process (pid %s) did not end; terminating it",
                                process.pid)
                    process.terminate()
                    process.join(GRACE)
                if process.exitcode is None:
                    process.kill()
                    process.join()
        finally:
            reaped.set_result(None)


class WorkerPool:
    """A pool of worker processes that end with the bot, started on first use off the event
    loop, and replaced when broken (a worker killed, out of memory)."""

    def __init__(self, workers: int, preload: Sequence[str] = ()) -> None:
        self.workers = workers
        self.preload = tuple(preload)
        """Modules each worker imports as it starts: what its calls need beyond the fork
        server's :data:`PRELOAD` (the pictures' drawing, for the painter)."""
        self._pool: Workers | None = None
        self._starting: asyncio.Future[Workers] | None = None

    async def get(self) -> Workers:
        """The pool, its workers started; the first callers wait while they start."""
        pool = self._pool
        if pool is not None and (pool.broken or pool.loop is not asyncio.get_running_loop()):
            self.discard(pool)  # broken, or left by an event loop that has ended
        if self._pool is not None:
            return self._pool
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        return await asyncio.shield(self._starting)  # a caller given up stops no start

    async def _start(self) -> Workers:
        try:
            pool = await Workers.start(self.workers, preload=self.preload)
        finally:
            if self._starting is asyncio.current_task():
                self._starting = None
        self._pool = pool
        return pool

    def discard(self, pool: Workers) -> None:
        """Drop a broken ``pool`` (once, however many of its calls noticed): the next
        :meth:`get` starts a new one."""
        if self._pool is pool:
            self._pool = None
        pool.shutdown(terminate=True)

    def take(self) -> Workers | None:
        """The running pool, no longer this one's (to shut down); None if none runs. A pool
        still starting is cancelled: it ends its workers once they have started."""
        if self._starting is not None:
            self._starting.cancel()
            self._starting = None
        pool, self._pool = self._pool, None
        return pool


__all__ = ["GRACE", "ORPHANED", "PRELOAD", "SPARE", "NotSent", "RemoteTraceback", "WorkerPool",
           "Workers", "pool_context", "start_worker"]
