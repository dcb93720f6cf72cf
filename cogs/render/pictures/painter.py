"""Drawing pictures off the event loop, in a small pool of worker processes.

Drawing a table and encoding it as PNG takes 5-15 ms of CPU: on the event loop that
is 5-15 ms in which no other table is answered. A thread does not free the loop
enough: Pillow releases the GIL while it encodes, but the layout and the drawing
calls around it are Python, and a drawing thread holding the GIL keeps the loop
waiting up to the interpreter's switch interval at every turn (``python -m
bench.pictures`` measures the loop held per table: on the loop, in threads, in
processes). So a :class:`Painter` sends each scene (plain, picklable data) to its
own worker processes, which draw it with :func:`render_png` (cached by scene there)
and send back the PNG bytes; the bot's own process only builds the scene and keeps
the last pictures it received, so a scene drawn before costs it nothing.
:meth:`Painter.within` lets an answer wait for a picture only up to a deadline: a
late picture is the caller's to send when it is ready, after the text.

Its workers are not the computer players' (:class:`bot.tables.computers.Computers`): a
picture must never queue behind a hard computer's thinking. If a worker dies, the
pool is replaced; if they keep dying, the picture is drawn in a thread. One painter
serves the process (:data:`PAINTER`); tests turn ``processes`` off and wrap
:attr:`Painter.draw` to watch the drawing or make it slow.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.workers import WorkerPool
from cogs.render.pictures import Picture, picture_of
from cogs.render.pictures.draw import render_png
from cogs.render.pictures.scene import Scene

WORKERS = 2
"""Drawings at once: two worker processes."""
KEPT = 256
"""Pictures kept in the bot's own process, by scene (a table's hands come back)."""

log = logging.getLogger(__name__)


class Painter:
    """Draws scenes as pictures in worker processes (or threads), never on the event loop."""

    def __init__(self, *, workers: int = WORKERS, processes: bool = True,
                 draw: Callable[[Scene], bytes] = render_png) -> None:
        self.workers = workers
        self.processes = processes
        self.draw = draw
        self._processes = WorkerPool(workers)
        self._threads: ThreadPoolExecutor | None = None
        self._kept: OrderedDict[tuple[Scene, str], Picture | None] = OrderedDict()

    async def _executor(self) -> Executor:
        """The workers, started off the event loop on first use."""
        if self.processes:
            return await self._processes.get()
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="picture")
        return self._threads

    async def warm(self) -> None:
        """Start the workers now, not with the first picture: their fork server's first start
        imports the rules, seconds on a busy machine that the first table would wait."""
        try:
            await self._executor()
        except Exception:  # the first picture will try again, or draw in a thread
            log.exception("the picture workers could not be started")

    async def picture(self, scene: Scene, filename: str) -> Picture | None:
        """``scene`` drawn off the event loop (None if too large to send)."""
        key = (scene, filename)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        picture = await self._drawn(scene, filename)
        self._kept[key] = picture
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return picture

    async def _drawn(self, scene: Scene, filename: str) -> Picture | None:
        loop = asyncio.get_running_loop()
        pool = None
        try:
            pool = await self._executor()
            return await loop.run_in_executor(pool, picture_of, scene, filename, self.draw)
        except BrokenProcessPool:
            log.warning("a picture worker died; drawing in a thread, the pool started anew")
            if isinstance(pool, ProcessPoolExecutor):
                self._processes.discard(pool)
            return await asyncio.to_thread(picture_of, scene, filename, self.draw)

    def start(self, scene: Scene, filename: str) -> asyncio.Task[Picture | None]:
        """Start drawing ``scene``; the task is the picture."""
        return asyncio.get_running_loop().create_task(self.picture(scene, filename),
                                                      name=f"draw-{filename}")

    async def within(self, scene: Scene, filename: str, seconds: float
                     ) -> tuple[Picture | None, asyncio.Task[Picture | None] | None]:
        """The picture if drawn within ``seconds``; else (None, the drawing still running).

        The drawing is never cancelled: a late picture is still worth sending after the
        text, and it lands in the cache for the next answer.
        """
        task = self.start(scene, filename)
        if seconds > 0:
            await asyncio.wait({task}, timeout=seconds)
        if task.done():
            return task.result(), None
        return None, task

    def close(self) -> None:
        """Stop the workers, dropping drawings not yet started (shutdown; the pool starts
        again if asked, as when the Tables cog is reloaded)."""
        for pool in (self._processes.take(), self._threads):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._threads = None
        self._kept.clear()


PAINTER = Painter()
"""The process's painter."""


__all__ = ["KEPT", "PAINTER", "WORKERS", "Painter"]
