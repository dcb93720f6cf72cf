"""The worker processes the event loop talks to itself (:mod:`bot.workers`).

Real worker processes from the fork server. The functions they run are module-level (a
worker unpickles them by name) and signal through files, so a test waits on what a worker
did, never on a guessed delay.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.workers import SPARE, NotSent, RemoteTraceback, WorkerPool, Workers, _Frames
from tests.botdriver import until

GATE_LIMIT = 15.0
"""Seconds a gated call waits at most: a broken pool fails the test instead of hanging it."""


# --- what the workers run -------------------------------------------------------------


def pid() -> int:
    return os.getpid()


def square(n: int) -> int:
    return n * n


def refuse(why: str) -> int:
    raise ValueError(why)


def unsendable() -> object:
    return lambda: None  # a lambda cannot be pickled


def gated(started: Path, gate: Path) -> int:
    """Leave this worker's pid in ``started``, then wait for ``gate`` (bounded)."""
    draft = started.with_name(started.name + ".draft")
    draft.write_text(str(os.getpid()))
    os.replace(draft, started)
    limit = time.monotonic() + GATE_LIMIT
    while not gate.exists() and time.monotonic() < limit:
        time.sleep(0.005)
    return os.getpid()


def mark(marker: Path) -> None:
    marker.touch()


# --- helpers --------------------------------------------------------------------------


@asynccontextmanager
async def workers(count: int, gate: Path | None = None) -> AsyncIterator[Workers]:
    """``count`` started workers, closed after the block (``gate`` opened first, so the
    close never waits on a call held there)."""
    pool = await Workers.start(count)
    try:
        yield pool
    finally:
        if gate is not None:
            gate.touch()
        await pool.close()


async def held(pool: Workers, tmp_path: Path, name: str) -> tuple[asyncio.Task[int], int]:
    """A call that holds one worker until ``tmp_path/gate`` exists; (its task, the pid of
    the worker holding it), once it is held."""
    started = tmp_path / f"{name}.pid"
    task = asyncio.create_task(pool.call(gated, started, tmp_path / "gate"))
    await until(started.exists, 20, f"the worker to take {name}")
    return task, int(started.read_text())


def alive(process: int) -> bool:
    try:
        os.kill(process, 0)
    except ProcessLookupError:
        return False
    return True


# --- tests ----------------------------------------------------------------------------


async def test_calls_are_answered_in_worker_processes_not_in_the_bot() -> None:
    async with workers(2) as pool:
        pids = await asyncio.gather(*(pool.call(pid) for _ in range(8)))
        assert os.getpid() not in pids
        assert await asyncio.gather(*(pool.call(square, n) for n in range(20))) == \
            [n * n for n in range(20)]


def test_frames_are_read_whole_however_the_socket_cuts_them() -> None:
    frames = [b"", b"a", bytes(range(256)) * 300, b"long header", b"last"]
    stream = b"".join(len(f).to_bytes(4, "big") + f for f in frames)
    # A frame of 2 GiB or more has the length -1, then its length in 8 bytes.
    long = b"\xff\xff\xff\xff" + len(b"long header").to_bytes(8, "big")
    stream = stream.replace(len(b"long header").to_bytes(4, "big") + b"long header",
                            long + b"long header")
    for cut in (1, 3, 4096, len(stream)):  # a byte at a time, odd pieces, all at once
        received: list[bytes] = []
        reader = _Frames(lambda frame, into=received: into.append(bytes(frame)), lambda: None)
        for start in range(0, len(stream), cut):
            reader.data_received(stream[start:start + cut])
        assert received == frames, cut


async def test_big_answers_come_back_whole() -> None:
    async with workers(2) as pool:
        sizes = [1, 70_000, 300_000, 5]
        answers = await asyncio.gather(*(pool.call(bytes, n) for n in sizes))
        assert [len(a) for a in answers] == sizes


async def test_the_calls_run_no_thread_in_the_bot() -> None:
    async with workers(2) as pool:
        before = set(threading.enumerate())
        await asyncio.gather(*(pool.call(square, n) for n in range(50)))
        assert set(threading.enumerate()) == before


async def test_an_error_in_a_worker_is_raised_here_with_where_it_was_raised() -> None:
    async with workers(1) as pool:
        with pytest.raises(ValueError, match="no such card") as raised:
            await pool.call(refuse, "no such card")
        assert isinstance(raised.value.__cause__, RemoteTraceback)
        assert "in refuse" in str(raised.value.__cause__)
        assert await pool.call(square, 3) == 9  # the pool goes on


async def test_an_answer_that_cannot_be_sent_back_is_an_error_and_the_pool_goes_on() -> None:
    async with workers(1) as pool:
        with pytest.raises(RuntimeError, match="could not be sent back"):
            await pool.call(unsendable)
        assert await pool.call(square, 4) == 16
        assert not pool.broken


async def test_a_long_call_holds_up_no_other(tmp_path: Path) -> None:
    # Whichever worker is free takes the next call: with one worker held, every other
    # call is answered by the other, however many were sent ahead.
    gate = tmp_path / "gate"
    async with workers(2, gate) as pool:
        long, holder = await held(pool, tmp_path, "long")
        quick = await asyncio.gather(*(pool.call(pid) for _ in range(3 * (2 + SPARE))))
        assert holder not in quick and not long.done()
        gate.touch()
        assert await long == holder


async def test_a_killed_worker_fails_the_calls_not_answered_and_a_new_pool_answers(
        tmp_path: Path) -> None:
    pools = WorkerPool(1)
    pool = await pools.get()
    try:
        first, holder = await held(pool, tmp_path, "first")
        queued = [asyncio.create_task(pool.call(square, n)) for n in range(SPARE + 2)]
        await asyncio.sleep(0)  # each is asked: SPARE of them sent, two left in the bot
        os.kill(holder, signal.SIGKILL)
        for call in (first, *queued):
            with pytest.raises(BrokenProcessPool):
                await call
        # Those never sent say so: asking a new pool costs them no attempt.
        assert [isinstance(call.exception(), NotSent) for call in (first, *queued)] == \
            [False] * (SPARE + 1) + [True] * 2
        assert pool.broken
        with pytest.raises(BrokenProcessPool):
            await pool.call(square, 2)
        replaced = await pools.get()
        assert replaced is not pool
        assert await replaced.call(square, 5) == 25
    finally:
        taken = pools.take()
        if taken is not None:
            await taken.close()


async def test_closing_cancels_the_calls_not_sent_and_lets_those_sent_be_answered(
        tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    pool = await Workers.start(2)
    first, holder = await held(pool, tmp_path, "first")
    other = await pool.call(pid)
    queued = [asyncio.create_task(pool.call(square, n)) for n in range(5)]
    await asyncio.sleep(0)  # each is asked: two are sent (room for three in all), three wait
    pool.shutdown()
    for call in queued[2:]:
        with pytest.raises(asyncio.CancelledError):
            await call
    assert await asyncio.gather(*queued[:2]) == [0, 1]
    gate.touch()
    assert await first == holder  # the call under way is answered, as the executor's was
    await pool.close()
    assert not alive(holder) and not alive(other)
    # Each worker ended by itself, and was reaped once (two reapers misread exit codes).
    assert [p.exitcode for p in pool._processes] == [0, 0]
    with pytest.raises(RuntimeError, match="closed"):
        await pool.call(square, 2)


async def test_each_worker_is_reaped_once_and_ends_by_itself() -> None:
    # One reaper a pool: two threads joining one worker misread its exit (255 for 0).
    pools = await asyncio.gather(*(Workers.start(2) for _ in range(4)))
    await asyncio.gather(*(pool.call(square, 1) for pool in pools))
    await asyncio.gather(*(pool.close() for pool in pools))
    assert [p.exitcode for pool in pools for p in pool._processes] == [0] * 8


async def test_a_start_cancelled_while_the_workers_start_leaves_the_fork_server_working(
        ) -> None:
    for _ in range(3):
        starting = asyncio.create_task(Workers.start(2))
        await asyncio.sleep(0)  # under way: the fork server is reading the sockets
        starting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await starting
    async with workers(2) as pool:
        assert await pool.call(square, 7) == 49


async def test_closing_a_pool_while_it_starts_ends_it() -> None:
    pools = WorkerPool(1)
    asking = asyncio.create_task(pools.get())
    await asyncio.sleep(0)
    assert pools.take() is None
    with pytest.raises(asyncio.CancelledError):
        await asking
    pool = await pools.get()  # a new one, on first use
    try:
        assert await pool.call(square, 8) == 64
    finally:
        await pool.close()


async def test_a_call_that_raises_system_exit_fails_alone_and_the_worker_goes_on() -> None:
    async with workers(1) as pool:
        before = await pool.call(pid)
        with pytest.raises(RuntimeError, match="SystemExit"):
            await pool.call(sys.exit, 3)
        assert await pool.call(pid) == before and not pool.broken


async def test_a_caller_who_gives_up_before_the_call_is_sent_takes_it_back(
        tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    given_up = tmp_path / "given-up"
    async with workers(1, gate) as pool:
        first, _ = await held(pool, tmp_path, "first")
        sent = [asyncio.create_task(pool.call(square, n)) for n in range(SPARE)]
        waiting = asyncio.create_task(pool.call(mark, given_up))
        await asyncio.sleep(0)  # asked, and left in the bot: the workers have no room
        waiting.cancel()
        gate.touch()
        await first
        assert await asyncio.gather(*sent) == [n * n for n in range(SPARE)]
        await pool.call(square, 1)  # one worker answers in order: the mark would be done
        assert not given_up.exists()


def test_a_pool_left_by_an_ended_event_loop_is_replaced() -> None:
    pools = WorkerPool(1)

    async def answer() -> tuple[Workers, int]:
        pool = await pools.get()
        return pool, await pool.call(square, 6)

    first, six = asyncio.run(answer())
    second, again = asyncio.run(answer())
    try:
        assert (six, again) == (36, 36)
        assert second is not first
    finally:
        asyncio.run(second.close())
