"""Drawing pictures off the event loop, in a small pool of threads.

Drawing a table and encoding it as PNG takes 5-15 ms of CPU: on the event loop that
is 5-15 ms in which no other table is answered. Pillow releases the GIL while it
encodes, pastes and renders glyphs, so a drawing in a thread leaves the loop free
for nearly all of its time. A :class:`Painter` runs :func:`render_png` (cached by
scene, so a scene drawn before costs nothing) in its own threads, and
:meth:`Painter.within` lets an answer wait for a picture only up to a deadline: a
late picture is then the caller's to send when it is ready, after the text.

One painter serves the process (:data:`PAINTER`): two threads, as many as the
machine's cores are likely to give a bot, so drawings never crowd out the loop.
Tests replace :attr:`Painter.draw` to make drawing slow.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from cogs.pictures import Picture, picture_of
from cogs.pictures.draw import render_png
from cogs.pictures.scene import Scene

WORKERS = 2
"""Threads drawing at once."""


class Painter:
    """Draws scenes as pictures in a thread pool, never on the event loop."""

    def __init__(self, *, workers: int = WORKERS,
                 draw: Callable[[Scene], bytes] = render_png) -> None:
        self.workers = workers
        self.draw = draw
        self._pool: ThreadPoolExecutor | None = None

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="picture")
        return self._pool

    async def picture(self, scene: Scene, filename: str) -> Picture | None:
        """``scene`` drawn in a thread (None if too large to send)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), picture_of, scene, filename, self.draw)

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
        """Stop the threads once the drawings queued have finished (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


PAINTER = Painter()
"""The process's painter."""


__all__ = ["PAINTER", "WORKERS", "Painter"]
