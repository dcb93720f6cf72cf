"""The painter's own queue: pictures someone waits for first, each scene drawn once.

Under load more pictures are asked for than the workers draw. The painter hands its
workers only what they have room for and keeps the rest: a picture asked for with a
deadline (``within``: a click's answer, a table edit) goes ahead of the others while the
deadline lasts, and a scene asked for again while queued or drawn is drawn once. The
painter here draws in one thread with a draw the test holds back (a gate), so the order
of the drawings is the queue's, not the machine's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from cogs.render.pictures import painter as painter_module
from cogs.render.pictures.painter import Painter
from cogs.render.pictures.scene import Scene
from tests.botdriver import until


class HeldDraw:
    """A draw that notes each scene's title and waits for the test's gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.drawn: list[str] = []
        self.started: list[str] = []

    def __call__(self, scene: Scene) -> bytes:
        self.started.append(scene.title)
        assert self.gate.wait(10), "the test never opened the gate"
        self.drawn.append(scene.title)
        return f"png:{scene.title}".encode()


def scene(title: str) -> Scene:
    return Scene(title, "", (), ())


def asked(painter: Painter, title: str) -> bool:
    """Whether a scene of that title is queued or being drawn."""
    return any(shown.title == title for shown, _ in painter._drawings)


@pytest.fixture
def held() -> Iterator[tuple[Painter, HeldDraw]]:
    draw = HeldDraw()
    painter = Painter(workers=1, processes=False, draw=draw)
    yield painter, draw
    draw.gate.set()
    painter.close()


@pytest.fixture
def one_at_a_time(held: tuple[Painter, HeldDraw], monkeypatch: pytest.MonkeyPatch
                  ) -> tuple[Painter, HeldDraw]:
    """The painter handing out one drawing at a time (no spare), so its queue decides all."""
    monkeypatch.setattr(painter_module, "SPARE", 0)
    return held


async def busy_with_first(painter: Painter, draw: HeldDraw) -> asyncio.Task[Any]:
    """A first drawing under way and held back: whatever is asked now is queued."""
    first = asyncio.create_task(painter.picture(scene("first"), "t.png"))
    await until(lambda: draw.started == ["first"], 10, "the first drawing under way")
    return first


async def test_a_picture_waited_for_goes_ahead_of_those_nobody_waits_for(
        one_at_a_time: tuple[Painter, HeldDraw]) -> None:
    painter, draw = one_at_a_time
    first = await busy_with_first(painter, draw)
    later = [asyncio.create_task(painter.picture(scene(f"later {n}"), "t.png"))
             for n in range(3)]
    await asyncio.sleep(0)  # they are asked for (queued: the worker is busy)
    answer = asyncio.create_task(painter.within(scene("an answer"), "h.png", 10))
    await until(lambda: asked(painter, "an answer"), 10, "the answer asked")

    draw.gate.set()
    picture, late = await asyncio.wait_for(answer, 10)
    assert picture is not None and picture.png == b"png:an answer" and late is None
    await asyncio.wait_for(asyncio.gather(first, *later), 10)
    assert draw.drawn == ["first", "an answer", "later 0", "later 1", "later 2"]


async def test_past_its_deadline_a_picture_takes_its_turn_with_the_others(
        one_at_a_time: tuple[Painter, HeldDraw]) -> None:
    painter, draw = one_at_a_time
    first = await busy_with_first(painter, draw)
    picture, late = await painter.within(scene("missed"), "h.png", 0.01)
    assert picture is None and late is not None  # its answer went without it
    other = asyncio.create_task(painter.picture(scene("other"), "t.png"))
    await asyncio.sleep(0)
    answer = asyncio.create_task(painter.within(scene("an answer"), "h.png", 10))
    await until(lambda: asked(painter, "an answer"), 10, "the answer asked")

    draw.gate.set()
    await asyncio.wait_for(asyncio.gather(first, other, answer), 10)
    missed = await asyncio.wait_for(late, 10)  # never cancelled: it follows the text
    assert missed is not None and missed.png == b"png:missed"
    assert draw.drawn == ["first", "an answer", "missed", "other"]


async def test_a_scene_asked_for_again_while_it_is_drawn_is_drawn_once(
        held: tuple[Painter, HeldDraw]) -> None:
    painter, draw = held
    asked = [asyncio.create_task(painter.picture(scene("hand"), "h.png")) for _ in range(3)]
    await until(lambda: draw.started == ["hand"], 10, "the drawing under way")
    waited = asyncio.create_task(painter.within(scene("hand"), "h.png", 10))
    asked[0].cancel()  # one who asked stops waiting: the others still get it
    await asyncio.sleep(0)

    draw.gate.set()
    pictures = await asyncio.wait_for(asyncio.gather(*asked[1:]), 10)
    picture, late = await asyncio.wait_for(waited, 10)
    assert late is None and all(p is picture for p in pictures) and picture is not None
    assert await painter.picture(scene("hand"), "h.png") is picture  # kept
    assert draw.drawn == ["hand"]
    assert asked[0].cancelled()


async def test_a_failed_drawing_is_said_to_everyone_who_asked_and_the_next_goes_on(
        one_at_a_time: tuple[Painter, HeldDraw]) -> None:
    painter, draw = one_at_a_time

    def failing(shown: Scene) -> bytes:
        if shown.title == "broken":
            raise ValueError("no such card")
        return draw(shown)

    painter.draw = failing
    broken = [asyncio.create_task(painter.picture(scene("broken"), "t.png"))
              for _ in range(2)]
    after = asyncio.create_task(painter.picture(scene("after"), "t.png"))
    draw.gate.set()
    for task in broken:
        with pytest.raises(ValueError, match="no such card"):
            await asyncio.wait_for(task, 10)
    assert (await asyncio.wait_for(after, 10)) is not None
    assert draw.drawn == ["after"]


async def test_under_a_stream_of_urgent_pictures_the_others_still_take_turns(
        one_at_a_time: tuple[Painter, HeldDraw]) -> None:
    painter, draw = one_at_a_time
    first = await busy_with_first(painter, draw)
    table = asyncio.create_task(painter.picture(scene("a table"), "t.png"))
    await asyncio.sleep(0)
    answers = [asyncio.create_task(painter.picture(scene(f"answer {n}"), "h.png", urgent=True))
               for n in range(2 * painter_module.EVERY_LATER)]
    await until(lambda: asked(painter, f"answer {2 * painter_module.EVERY_LATER - 1}"), 10,
                "every answer asked")

    draw.gate.set()
    await asyncio.wait_for(asyncio.gather(first, table, *answers), 10)
    assert draw.drawn.index("a table") < painter_module.EVERY_LATER  # not last of all
    assert draw.drawn[1] == "answer 0"  # the urgent first otherwise


async def test_closing_the_painter_leaves_nobody_waiting_and_keeps_nothing_from_before(
        one_at_a_time: tuple[Painter, HeldDraw]) -> None:
    painter, draw = one_at_a_time
    before = asyncio.create_task(painter.picture(scene("before"), "t.png"))
    queued = [asyncio.create_task(painter.picture(scene(f"queued {n}"), "t.png"))
              for n in range(3)]
    await asyncio.sleep(0)  # all asked: "before" handed out, its drawing not yet begun
    painter.close()  # as when the cog is unloaded
    draw.gate.set()
    # Nobody is left waiting, and nobody's task is cancelled: no picture, the text alone.
    results = await asyncio.wait_for(asyncio.gather(before, *queued), 10)
    assert results[1:] == [None, None, None]

    again = await asyncio.wait_for(painter.picture(scene("before"), "t.png"), 10)
    assert again is not None and draw.drawn.count("before") == 2  # not kept from before
