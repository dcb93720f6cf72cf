"""Drawing a :class:`~cogs.render.pictures.scene.Scene` as a PNG, cached by scene.

The layout is one column a phone shows whole, at most :data:`WIDTH` wide with text a
phone reads: the title and the facts, then each row of cards under its label, each card
with who played it beneath, then one line per player. Text wraps between words, so
nothing is cut (a caption under a card is the one thing shortened to fit). A scene
drawn before is never drawn again.
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
from cogs.render.text import unescaped

WIDTH = 480
"""At most this wide: Discord shows a picture about 360-400 px wide on a phone, so the
body text below (22 px) reads there at about Discord's own 16 px, and captions at 18."""
MARGIN = 16
GAP = 8
PER_LINE = (WIDTH - 2 * MARGIN + GAP) // (CARD_W + GAP)
FELT = (24, 92, 60)
TEXT = (245, 245, 235)
SOFT = (190, 215, 195)
TITLE_SIZE = 28
LABEL_SIZE = 22
CAPTION_SIZE = 18
PLAYER_SIZE = 22
LINE_GAP = 6
CAPTION_H = CAPTION_SIZE + 6
MAX_BYTES = 8 * 1024 * 1024
"""Discord's smallest attachment limit; a picture over it is not sent."""
TEXT_WIDTH = WIDTH - 2 * MARGIN
PLAYER_INDENT = 16  # room for the gold arrow of the player to act


@dataclass(frozen=True, slots=True)
class Block:
    """A row placed on the picture: where it starts and how many cards a line."""

    row: Row
    x: int
    y: int
    per_line: int


def wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` in lines at most ``width`` pixels wide, broken between words (a single word
    wider than the line is cut with an ellipsis, the only text ever cut)."""
    lines: list[str] = []
    line = ""
    for word in _words(text):
        attempt = f"{line} {word}" if line else word
        if text_length(attempt, size) <= width or not line:
            line = attempt
        else:
            lines.append(line)
            line = word
        if text_length(line, size) > width:
            lines.append(_fit(line, size, width))
            line = ""
    if line or not lines:
        lines.append(line)
    return lines


def _words(text: str) -> list[str]:
    """``text``'s words, a separator " · " kept with the word after it, so that a line
    breaks before a fact, never leaving a dot at its end."""
    words: list[str] = []
    for word in text.split(" "):
        if words and words[-1] == "·":
            words[-1] = f"· {word}"
        else:
            words.append(word)
    return words


def _captioned(row: Row) -> bool:
    return any(slot.caption for slot in row.slots)


def _label(row: Row) -> str:
    return row.label + (f" (+{row.more} more)" if row.more else "")


def _block_size(row: Row) -> tuple[int, int, int]:
    """(width, height, cards per line) of ``row`` drawn as one block."""
    per_line = max(1, min(len(row.slots), PER_LINE))
    lines = max(1, -(-len(row.slots) // per_line))
    cards_w = per_line * (CARD_W + GAP) - GAP
    label_lines = wrap(_label(row), LABEL_SIZE, TEXT_WIDTH)
    label_w = max(int(text_length(line, LABEL_SIZE)) for line in label_lines)
    width = min(TEXT_WIDTH, max(cards_w, label_w))
    label_h = len(wrap(_label(row), LABEL_SIZE, width)) * (LABEL_SIZE + LINE_GAP)
    line_h = CARD_H + (CAPTION_H if _captioned(row) else 0) + GAP
    return width, label_h + lines * line_h, per_line


def _head(scene: Scene) -> list[tuple[str, int, tuple[int, int, int]]]:
    """The title's and the facts' lines, each with its size and colour, wrapped."""
    lines = [(t, TITLE_SIZE, TEXT) for t in wrap(scene.title, TITLE_SIZE, TEXT_WIDTH)]
    if scene.facts:
        lines += [(t, LABEL_SIZE, SOFT) for t in wrap(scene.facts, LABEL_SIZE, TEXT_WIDTH)]
    return lines


def _players(scene: Scene) -> list[tuple[str, bool, bool]]:
    """Each player line's wrapped lines: (text, the player to act, the line's first)."""
    out = []
    for line in scene.players:
        turn = line.startswith(TURN_MARK)
        for i, part in enumerate(wrap(line.removeprefix(TURN_MARK), PLAYER_SIZE,
                                      TEXT_WIDTH - PLAYER_INDENT)):
            out.append((part, turn, i == 0))
    return out


def layout(scene: Scene) -> tuple[list[Block], int]:
    """Rows flow left to right and wrap, so that short ones share a line; the end's y."""
    top = MARGIN + sum(size + LINE_GAP for _, size, _ in _head(scene))
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
    """``text`` as typed (names are escaped for messages, :func:`cogs.render.text.safe_name`), cut
    with an ellipsis to ``width`` pixels."""
    text = unescaped(text)
    if text_length(text, size) <= width:
        return text
    while text and text_length(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _right_edge(scene: Scene, blocks: list[Block]) -> int:
    """Where the content ends on the right: a small scene makes a small picture."""
    right = MARGIN + max((int(text_length(t, size)) for t, size, _ in _head(scene)), default=0)
    for text, _, _ in _players(scene):
        right = max(right, MARGIN + PLAYER_INDENT + int(text_length(text, PLAYER_SIZE)))
    for block in blocks:
        width, _, _ = _block_size(block.row)
        right = max(right, block.x + width)
    return min(WIDTH, right + MARGIN)


def _draw_block(image: Image.Image, draw: ImageDraw.ImageDraw, block: Block) -> None:
    row = block.row
    width, _, _ = _block_size(row)
    top = block.y
    for line in wrap(_label(row), LABEL_SIZE, width):
        draw.text((block.x, top), line, font=font(LABEL_SIZE), fill=SOFT)
        top += LABEL_SIZE + LINE_GAP
    line_h = CARD_H + (CAPTION_H if _captioned(row) else 0) + GAP
    for i, slot in enumerate(row.slots):
        x = block.x + (i % block.per_line) * (CARD_W + GAP)
        y = top + (i // block.per_line) * line_h
        card = card_image(slot.face) if slot.face is not None else back_image(slot.count)
        image.alpha_composite(card, (x, y))
        if slot.caption:
            draw.text((x + CARD_W / 2, y + CARD_H + 3),
                      _fit(slot.caption, CAPTION_SIZE, CARD_W + GAP - 2),
                      font=font(CAPTION_SIZE), fill=TEXT, anchor="ma")


@functools.lru_cache(maxsize=512)
def render_png(scene: Scene) -> bytes:
    """``scene`` as PNG bytes (the same bytes for the same scene, every time)."""
    return encode(draw_scene(scene))


def draw_scene(scene: Scene) -> Image.Image:
    """``scene`` drawn in full colour (:func:`render_png` encodes it)."""
    blocks, bottom = layout(scene)
    players = _players(scene)
    height = bottom + len(players) * (PLAYER_SIZE + LINE_GAP) + MARGIN
    image = Image.new("RGBA", (WIDTH, height), (*FELT, 255))
    draw = ImageDraw.Draw(image)
    y = MARGIN
    for text, size, colour in _head(scene):
        draw.text((MARGIN, y), text, font=font(size), fill=colour)
        y += size + LINE_GAP
    for block in blocks:
        _draw_block(image, draw, block)
    top = bottom
    for text, turn, first in players:
        if turn and first:
            draw.polygon([(MARGIN, top + 3), (MARGIN, top + PLAYER_SIZE - 3),
                          (MARGIN + 11, top + PLAYER_SIZE / 2)], fill=GOLD)
        draw.text((MARGIN + PLAYER_INDENT, top), text, font=font(PLAYER_SIZE),
                  fill=GOLD if turn else TEXT)
        top += PLAYER_SIZE + LINE_GAP
    return image.crop((0, 0, _right_edge(scene, blocks), height))


COLOURS = 256
"""A picture's palette: its own most telling colours, chosen per picture."""
PNG_LEVEL = 6
"""zlib's effort (0-9). Measured on 40 tables of the five games (docs/performance.md):
a palette PNG at 6 is a quarter of the full-colour PNG at 1 drawn before (12.8 against
53.2 KB at the median) and takes less to make (3.6 against 4.6 ms); 9 would save 0.7 KB
more for five times the time."""


def encode(image: Image.Image) -> bytes:
    """``image`` as a palette PNG: a table is felt, paper, four suit colours and their
    anti-aliased edges, about a thousand colours, which :data:`COLOURS` chosen by an octree
    keep within 16 of 255 per channel (about 0.2 on average, 1.25 in a hand of pale
    unplayable cards: no eye tells them apart) at a quarter of the bytes. Every byte less
    is one less to send to Discord and for a player to download, and for the bot's
    process to copy from its workers and into its upload."""
    out = io.BytesIO()
    palette = image.convert("RGB").quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    palette.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


__all__ = ["CAPTION_SIZE", "LABEL_SIZE", "MAX_BYTES", "PLAYER_SIZE", "TITLE_SIZE", "WIDTH",
           "draw_scene", "encode", "layout", "render_png", "wrap"]
