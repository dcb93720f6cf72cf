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

Under load more is asked than the workers draw, so the painter keeps its own queue and
hands the workers only as many drawings as they have hands (and one to spare). A picture
someone waits for goes ahead of the others (a menu that follows the game, a table posted
anew at start-up): one asked ``urgent`` (a command's answer, a hint), and one asked with
a deadline (:meth:`Painter.within`: a click's answer, a table edit) for as long as that
deadline lasts; past it, it takes its turn with the others. One drawing in
:data:`EVERY_LATER` goes to the others all the same, so none waits for ever. A scene asked
for again while it is queued or drawn is drawn once, for everyone who asked.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.workers import WorkerPool, Workers
from cogs.render.pictures import Picture, picture_of
from cogs.render.pictures.draw import render_png
from cogs.render.pictures.scene import Scene

WORKERS = 2
"""Drawings at once: two worker processes."""
KEPT = 256
"""Pictures kept in the bot's own process, by scene (a table's hands come back)."""
SPARE = 1
"""Drawings handed to the workers beyond one each, so none waits for the loop between two."""
EVERY_LATER = 4
"""One drawing in this many goes to the oldest of those nobody waits for with a deadline,
if any: under a stream of urgent ones the others are slower, never stopped."""

log = logging.getLogger(__name__)

PictureKey = tuple[Scene, str]


@dataclass(eq=False)
class _Drawing:
    """A scene to draw, queued or being drawn, and the picture everyone who asked awaits."""

    key: PictureKey
    picture: asyncio.Future[Picture | None]
    urgent: bool  # someone waits for it (asked urgent, or within a deadline still running)
    started: bool = False
    waiting: int = 0  # the deadlines (Painter.within) still running for it


class Painter:
    """Draws scenes as pictures in worker processes (or threads), never on the event loop."""

    def __init__(self, *, workers: int = WORKERS, processes: bool = True,
                 draw: Callable[[Scene], bytes] = render_png) -> None:
        self.workers = workers
        self.processes = processes
        self.draw = draw
        self._processes = WorkerPool(workers)
        self._threads: ThreadPoolExecutor | None = None
        self._kept: OrderedDict[PictureKey, Picture | None] = OrderedDict()
        self._drawings: dict[PictureKey, _Drawing] = {}  # queued or being drawn
        # Drawings to make, in the order asked; one may stand in both (skipped once started).
        self._urgent: deque[_Drawing] = deque()
        self._later: deque[_Drawing] = deque()
        self._busy = 0  # drawings handed to the workers
        self._handed = 0  # drawings handed out in all (every EVERY_LATER-th: a later one)
        self._tasks: set[asyncio.Task[None]] = set()
        self._generation = 0  # close() starts a new one: older drawings count no more

    async def _executor(self) -> Workers | ThreadPoolExecutor:
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

    async def picture(self, scene: Scene, filename: str, *, urgent: bool = False
                      ) -> Picture | None:
        """``scene`` drawn off the event loop (None if too large to send, or if the painter
        was closed first); ``urgent`` (someone waits for it): ahead of the drawings that
        are not (see the module docstring). A drawing that failed raises here, for
        everyone who asked, and is logged once."""
        key = (scene, filename)
        drawing = self._ask(key, urgent=urgent)
        if drawing is None:
            return self._kept[key]
        return await _awaited(drawing)

    async def within(self, scene: Scene, filename: str, seconds: float
                     ) -> tuple[Picture | None, asyncio.Task[Picture | None] | None]:
        """The picture if drawn within ``seconds``; else (None, the drawing still running).

        Urgent while the ``seconds`` last; then, unless another deadline for the same
        scene still runs, it takes its turn with the drawings nobody waits for. The drawing
        is never cancelled: a late picture is still worth sending after the text, and it
        lands in the cache for the next answer.
        """
        key = (scene, filename)
        drawing = self._ask(key, urgent=seconds > 0)
        if drawing is None:
            return self._kept[key], None
        task = asyncio.get_running_loop().create_task(_awaited(drawing),
                                                      name=f"picture-{filename}")
        task.add_done_callback(_retrieved)  # a caller may drop a late one: it was logged
        if seconds > 0:
            drawing.waiting += 1
            try:
                await asyncio.wait({task}, timeout=seconds)
            finally:
                drawing.waiting -= 1
                if drawing.waiting == 0 and drawing.urgent and not drawing.started:
                    drawing.urgent = False
                    self._later.append(drawing)
        if task.done():
            return task.result(), None
        return None, task

    def _ask(self, key: PictureKey, *, urgent: bool) -> _Drawing | None:
        """The drawing of ``key``, queued if it is neither drawn nor asked for yet; None
        when its picture is kept."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return None
        drawing = self._drawings.get(key)
        if drawing is None:
            drawing = _Drawing(key, asyncio.get_running_loop().create_future(), urgent)
            self._drawings[key] = drawing
            (self._urgent if urgent else self._later).append(drawing)
            self._hand_out()
        elif urgent and not drawing.urgent and not drawing.started:
            drawing.urgent = True
            self._urgent.append(drawing)
        return drawing

    def _next(self) -> _Drawing | None:
        """The next drawing to make: the urgent first, but one in :data:`EVERY_LATER` the
        oldest of the others; each queue in the order asked."""
        queues = (self._later, self._urgent) if (self._handed + 1) % EVERY_LATER == 0 \
            else (self._urgent, self._later)
        for queue in queues:
            while queue:
                drawing = queue.popleft()
                if not drawing.started and (drawing.urgent or queue is self._later):
                    self._handed += 1
                    return drawing
        return None

    def _hand_out(self) -> None:
        """Give the workers what they have room for."""
        while self._busy < self.workers + SPARE:
            drawing = self._next()
            if drawing is None:
                return
            drawing.started = True
            self._busy += 1
            task = asyncio.get_running_loop().create_task(
                self._draw(drawing, self._generation), name=f"draw-{drawing.key[1]}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _draw(self, drawing: _Drawing, generation: int) -> None:
        """Draw for everyone who asked, keep it, and hand out the next.

        ``generation``: the painter's when it was handed out; one from before
        :meth:`close` counts against nothing after it.
        """
        key, picture = drawing.key, None
        try:
            picture = await self._drawn(*key)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                drawing.picture.cancel()  # the loop is going: so is everyone who asked
                raise
            if not drawing.picture.done():  # the pool was shut down under it (close())
                drawing.picture.set_result(None)  # no picture: the text goes alone
            return
        except Exception as exc:
            log.exception("a picture (%s) could not be drawn", key[1])
            if not drawing.picture.done():
                drawing.picture.set_exception(exc)
                drawing.picture.exception()  # logged: never "unretrieved" when none awaits
            return
        finally:
            if generation == self._generation:
                self._busy -= 1
                if self._drawings.get(key) is drawing:
                    del self._drawings[key]
                task = asyncio.current_task()
                if task is None or not task.cancelling():
                    self._hand_out()
        if generation == self._generation:
            self._kept[key] = picture
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        if not drawing.picture.done():
            drawing.picture.set_result(picture)

    async def _drawn(self, scene: Scene, filename: str) -> Picture | None:
        loop = asyncio.get_running_loop()
        pool = None
        try:
            pool = await self._executor()
            if isinstance(pool, Workers):
                return await pool.call(picture_of, scene, filename, self.draw)
            return await loop.run_in_executor(pool, picture_of, scene, filename, self.draw)
        except BrokenProcessPool:
            log.warning("a picture worker died; drawing in a thread, the pool started anew")
            if isinstance(pool, Workers):
                self._processes.discard(pool)
            return await asyncio.to_thread(picture_of, scene, filename, self.draw)

    def close(self) -> None:
        """Stop the workers, dropping drawings not yet started (shutdown; the pool starts
        again if asked, as when the TableCommands cog is reloaded)."""
        workers = self._processes.take()
        if workers is not None:
            workers.shutdown()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        self._threads = None
        self._kept.clear()
        for drawing in self._drawings.values():
            if not drawing.started and not drawing.picture.done():
                drawing.picture.set_result(None)  # never to be drawn: the text goes alone
        self._drawings.clear()
        self._urgent.clear()
        self._later.clear()
        self._busy = 0
        self._generation += 1


def _retrieved(task: asyncio.Task[Picture | None]) -> None:
    """Mark a failed drawing's error as seen (:meth:`Painter._draw` logged it)."""
    if not task.cancelled():
        task.exception()


async def _awaited(drawing: _Drawing) -> Picture | None:
    """The drawing's picture, shielded: one who stops waiting leaves it to the others (and
    to the cache)."""
    return await asyncio.shield(drawing.picture)


PAINTER = Painter()
"""The process's painter."""


__all__ = ["EVERY_LATER", "KEPT", "PAINTER", "SPARE", "WORKERS", "Painter"]
