"""Drawing a :class:`~cogs.render.pictures.scene.Scene` as a PNG, cached by scene.

The layout is one column a phone shows whole: the title and the facts, then each row
of cards under its label (wrapping), each card with who played it beneath, then one
line per player. A scene drawn before is never drawn again.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from cogs.render.pictures.faces import (
    CARD_H,
    CARD_W,
    GOLD,
    back_image,
    card_image,
    font,
    text_length,
)
from cogs.render.pictures.scene import TURN_MARK, Row, Scene
from cogs.ui import unescaped

WIDTH = 720
MARGIN = 16
GAP = 8
PER_LINE = (WIDTH - 2 * MARGIN + GAP) // (CARD_W + GAP)
FELT = (24, 92, 60)
TEXT = (245, 245, 235)
SOFT = (190, 215, 195)
TITLE_SIZE = 22
LABEL_SIZE = 16
CAPTION_SIZE = 13
PLAYER_SIZE = 16
CAPTION_H = 18
MAX_BYTES = 8 * 1024 * 1024
"""Discord's smallest attachment limit; a picture over it is not sent."""


@dataclass(frozen=True, slots=True)
class Block:
    """A row placed on the picture: where it starts and how many cards a line."""

    row: Row
    x: int
    y: int
    per_line: int


def _captioned(row: Row) -> bool:
    return any(slot.caption for slot in row.slots)


def _block_size(row: Row) -> tuple[int, int, int]:
    """(width, height, cards per line) of ``row`` drawn as one block."""
    per_line = max(1, min(len(row.slots), PER_LINE))
    lines = max(1, -(-len(row.slots) // per_line))
    label_w = min(WIDTH - 2 * MARGIN, int(text_length(_label(row), LABEL_SIZE)) + GAP)
    width = max(per_line * (CARD_W + GAP) - GAP, label_w)
    line_h = CARD_H + (CAPTION_H if _captioned(row) else 0) + GAP
    return width, LABEL_SIZE + 6 + lines * line_h, per_line


def _label(row: Row) -> str:
    return row.label + (f" (+{row.more} more)" if row.more else "")


def layout(scene: Scene) -> tuple[list[Block], int]:
    """Rows flow left to right and wrap, so that short ones share a line; the end's y."""
    top = MARGIN + TITLE_SIZE + 6 + (LABEL_SIZE + 6 if scene.facts else 0)
    x, y, line_h = MARGIN, top, 0
    blocks = []
    for row in scene.rows:
        width, height, per_line = _block_size(row)
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, y, line_h = MARGIN, y + line_h, 0
        blocks.append(Block(row, x, y, per_line))
        x += width + 2 * GAP
        line_h = max(line_h, height)
    return blocks, y + line_h


def _fit(text: str, size: int, width: float) -> str:
    """``text`` as typed (names are escaped for messages, :func:`cogs.ui.safe_name`), cut
    with an ellipsis to ``width`` pixels."""
    text = unescaped(text)
    if text_length(text, size) <= width:
        return text
    while text and text_length(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _right_edge(scene: Scene, blocks: list[Block]) -> int:
    """Where the content ends on the right: a small scene makes a small picture."""
    right = MARGIN + int(text_length(scene.title, TITLE_SIZE))
    if scene.facts:
        right = max(right, MARGIN + int(text_length(scene.facts, LABEL_SIZE)))
    for line in scene.players:
        right = max(right, MARGIN + 16 + int(text_length(line, PLAYER_SIZE)))
    for block in blocks:
        width, _, _ = _block_size(block.row)
        right = max(right, block.x + width)
    return min(WIDTH, right + MARGIN)


def _draw_block(image: Image.Image, draw: ImageDraw.ImageDraw, block: Block) -> None:
    row = block.row
    draw.text((block.x, block.y), _fit(_label(row), LABEL_SIZE, WIDTH - MARGIN - block.x),
              font=font(LABEL_SIZE), fill=SOFT)
    top = block.y + LABEL_SIZE + 6
    line_h = CARD_H + (CAPTION_H if _captioned(row) else 0) + GAP
    for i, slot in enumerate(row.slots):
        x = block.x + (i % block.per_line) * (CARD_W + GAP)
        y = top + (i // block.per_line) * line_h
        card = card_image(slot.face) if slot.face is not None else back_image(slot.count)
        image.alpha_composite(card, (x, y))
        if slot.caption:
            draw.text((x + CARD_W / 2, y + CARD_H + 2),
                      _fit(slot.caption, CAPTION_SIZE, CARD_W + GAP - 2),
                      font=font(CAPTION_SIZE), fill=TEXT, anchor="ma")


@functools.lru_cache(maxsize=512)
def render_png(scene: Scene) -> bytes:
    """``scene`` as PNG bytes (the same bytes for the same scene, every time)."""
    blocks, bottom = layout(scene)
    height = bottom + len(scene.players) * (PLAYER_SIZE + 6) + MARGIN
    image = Image.new("RGBA", (WIDTH, height), (*FELT, 255))
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), _fit(scene.title, TITLE_SIZE, WIDTH - 2 * MARGIN),
              font=font(TITLE_SIZE), fill=TEXT)
    if scene.facts:
        draw.text((MARGIN, MARGIN + TITLE_SIZE + 6),
                  _fit(scene.facts, LABEL_SIZE, WIDTH - 2 * MARGIN),
                  font=font(LABEL_SIZE), fill=SOFT)
    for block in blocks:
        _draw_block(image, draw, block)
    top = bottom
    for line in scene.players:
        turn = line.startswith(TURN_MARK)
        text = line.removeprefix(TURN_MARK)
        if turn:
            draw.polygon([(MARGIN, top + 2), (MARGIN, top + PLAYER_SIZE - 2),
                          (MARGIN + 10, top + PLAYER_SIZE / 2)], fill=GOLD)
        draw.text((MARGIN + 16, top), _fit(text, PLAYER_SIZE, WIDTH - 2 * MARGIN - 16),
                  font=font(PLAYER_SIZE), fill=GOLD if turn else TEXT)
        top += PLAYER_SIZE + 6
    image = image.crop((0, 0, _right_edge(scene, blocks), height))
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", compress_level=1)
    return out.getvalue()


__all__ = ["MAX_BYTES", "WIDTH", "layout", "render_png"]
