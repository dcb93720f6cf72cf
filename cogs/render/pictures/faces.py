"""Card faces drawn by the project, one style per deck.

Every face carries its suit three ways: a colour, a shape and a letter, so that a
colour-blind player (or a grey-scale phone screen) tells the suits apart as easily
as anyone. Faces are drawn once per (style, card, marks) and kept.

- Fiasco: six suits in the colours of the rules (``docs/rules/fiasco.md``) with the
  emoji's own symbols drawn: a gray sword, a red rose, a green book, a yellow chest, an
  orange mandolin, a blue horse; gold Kings (a crown) and dark Fiascos (a cross).
- Fibonachos: Red, Yellow and Green 1-16, the Fibonacci numbers ringed; orange Spicy
  cards (a flame).
- Fazes: Red, Yellow, Green and Black, a star when the colour is trump.
- Fizzbin and Fumblaroo: standard cards in four colours (spades black, hearts red,
  diamonds blue, clubs green) with drawn pips; every Fumblaroo trump starred, its two
  bowers (the twos above the Ace) ringed as well.

A card's rank and letter are written in its suit's colour darkened until they stand out
from the paper at least as WCAG asks of text (4.5:1): a yellow 14 reads as well as a
black one.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from games.core.cards import Card

CARD_W = 96
CARD_H = 134
RADIUS = 10
SCALE = CARD_W / 66  # the faces were laid out on a 66 px card
MIN_CONTRAST = 4.5

Colour = tuple[int, int, int]

PAPER: Colour = (250, 248, 240)
GOLD: Colour = (201, 152, 28)


@dataclass(frozen=True, slots=True)
class Face:
    """What one card face shows: everything that decides its pixels."""

    rank: str  # the big label: "10", "K", "F", "3"
    letter: str  # the suit's letter, for colour-blind players ("S", "R"); "" for none
    colour: Colour
    shape: str  # one of SHAPES
    ringed: bool = False  # a special card of its deck (a Fibonacci number)
    starred: bool = False  # trump, or a bower
    dim: bool = False  # shown but not playable now (the hand picture)


SHAPES = ("triangle", "circle", "square", "diamond", "hexagon", "pentagon",
          "crown", "cross", "flame", "spade", "heart", "club", "star",
          "sword", "rose", "book", "chest", "mandolin", "horse")

FIASCO_SUITS: dict[str, tuple[Colour, str]] = {  # the rules' colours, the emoji's symbols
    "S": ((120, 124, 134), "sword"),  # Swords, gray 🗡️
    "R": ((200, 40, 60), "rose"),  # Roses, red 🌹
    "B": ((40, 150, 70), "book"),  # Books, green 📗
    "T": ((222, 170, 20), "chest"),  # Treasure Chests, yellow 💰
    "M": ((235, 120, 25), "mandolin"),  # Mandolins, orange 🎸
    "H": ((45, 95, 200), "horse"),  # Horses, blue 🐎
}
COLOURED_SUITS: dict[str, tuple[Colour, str]] = {  # Fibonachos and Fazes
    "R": ((205, 45, 45), "circle"),
    "Y": ((215, 165, 0), "triangle"),
    "G": ((35, 145, 60), "square"),
    "B": ((35, 35, 35), "diamond"),
}
STANDARD_SUITS: dict[str, tuple[Colour, str]] = {
    "S": ((25, 25, 25), "spade"),
    "H": ((205, 35, 45), "heart"),
    "D": ((30, 90, 200), "diamond"),
    "C": ((30, 130, 60), "club"),
}
STANDARD_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}
FIBONACCI = frozenset({1, 2, 3, 5, 8, 13})


def face_of(game: str, card: Card, *, trump: str = "", bowers: frozenset[str] = frozenset()
            ) -> Face:
    """The face of ``card`` in ``game``'s deck style.

    ``trump`` is the trump suit's letter (Fazes, Fumblaroo), ``bowers`` the texts of
    the cards that rank above every trump (Fumblaroo's twos of trump's colour).
    """
    if game == "fiasco":
        if card.text == "K":
            return Face("K", "", GOLD, "crown")
        if card.text == "F":
            return Face("F", "", (90, 20, 30), "cross")
        colour, shape = FIASCO_SUITS[card.suit]
        return Face(str(card.rank), card.suit, colour, shape)
    if game == "fibonachos":
        if not card.suit:
            return Face(str(card.rank), "", (230, 110, 20), "flame")
        colour, shape = COLOURED_SUITS[card.suit]
        return Face(str(card.rank), card.suit, colour, shape, ringed=card.rank in FIBONACCI)
    if game == "fazes":
        colour, shape = COLOURED_SUITS[card.suit]
        return Face(str(card.rank), card.suit, colour, shape, starred=card.suit == trump)
    colour, shape = STANDARD_SUITS[card.suit]
    rank = STANDARD_RANKS.get(card.rank, str(card.rank))
    bower = card.text in bowers
    trumped = bool(trump) and (card.suit == trump or bower)
    return Face(rank, card.suit, colour, shape, ringed=bower, starred=trumped)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font (shipped with Pillow, free licence), at ``size`` pixels."""
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=4096)
def text_length(text: str, size: int) -> float:
    """How wide ``text`` is at ``size`` pixels (as ``ImageDraw.textlength`` measures it).

    Measuring is a seventh of a picture's drawing, and the same labels, names and
    captions come back on every picture of a table: each is measured once.
    """
    return font(size).getlength(text, "L")


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The outline of a regular polygon shape centred on (cx, cy) with radius r."""
    sides = {"triangle": 3, "square": 4, "diamond": 4, "pentagon": 5, "hexagon": 6,
             "star": 10}[shape]
    turn = {"square": math.pi / 4, "triangle": -math.pi / 2, "pentagon": -math.pi / 2,
            "star": -math.pi / 2}.get(shape, 0.0 if shape != "diamond" else math.pi / 2)
    points = []
    for i in range(sides):
        radius = r * (0.45 if shape == "star" and i % 2 else 1.0)
        angle = turn + 2 * math.pi * i / sides
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def draw_shape(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float,
               colour: Colour) -> None:
    """One suit symbol, filled with ``colour``."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    elif shape == "heart":
        draw.ellipse((cx - r, cy - r * 0.8, cx, cy + r * 0.1), fill=colour)
        draw.ellipse((cx, cy - r * 0.8, cx + r, cy + r * 0.1), fill=colour)
        draw.polygon([(cx - r * 0.97, cy - r * 0.2), (cx + r * 0.97, cy - r * 0.2),
                      (cx, cy + r)], fill=colour)
    elif shape == "spade":
        draw.ellipse((cx - r, cy - r * 0.2, cx, cy + r * 0.6), fill=colour)
        draw.ellipse((cx, cy - r * 0.2, cx + r, cy + r * 0.6), fill=colour)
        draw.polygon([(cx - r * 0.97, cy + r * 0.3), (cx + r * 0.97, cy + r * 0.3),
                      (cx, cy - r)], fill=colour)
        draw.polygon([(cx, cy + r * 0.2), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)],
                     fill=colour)
    elif shape == "club":
        small = r * 0.5
        for dx, dy in ((0, -r * 0.45), (-r * 0.5, r * 0.2), (r * 0.5, r * 0.2)):
            draw.ellipse((cx + dx - small, cy + dy - small, cx + dx + small, cy + dy + small),
                         fill=colour)
        draw.polygon([(cx, cy), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=colour)
    elif shape == "crown":
        draw.polygon([(cx - r, cy + r * 0.6), (cx - r, cy - r * 0.6), (cx - r * 0.5, cy),
                      (cx, cy - r), (cx + r * 0.5, cy), (cx + r, cy - r * 0.6),
                      (cx + r, cy + r * 0.6)], fill=colour)
    elif shape == "cross":
        w = r * 0.35
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=colour, width=int(w * 2))
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=colour, width=int(w * 2))
    elif shape == "flame":
        draw.ellipse((cx - r * 0.75, cy - r * 0.2, cx + r * 0.75, cy + r), fill=colour)
        draw.polygon([(cx - r * 0.72, cy + r * 0.3), (cx + r * 0.72, cy + r * 0.3),
                      (cx + r * 0.1, cy - r)], fill=colour)
    elif shape in OBJECTS:
        OBJECTS[shape](draw, cx, cy, r, colour)
    else:
        draw.polygon(shape_points(shape, cx, cy, r), fill=colour)


def _sword(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A dagger, point up: blade, crossguard, grip."""
    w = r * 0.22
    draw.polygon([(cx, cy - r), (cx + w, cy - r * 0.7), (cx + w, cy + r * 0.35),
                  (cx - w, cy + r * 0.35), (cx - w, cy - r * 0.7)], fill=colour)
    draw.rectangle((cx - r * 0.65, cy + r * 0.3, cx + r * 0.65, cy + r * 0.48), fill=colour)
    draw.rectangle((cx - w * 0.8, cy + r * 0.48, cx + w * 0.8, cy + r), fill=colour)


def _rose(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A flower head of five petals on a stem."""
    petal = r * 0.38
    for i in range(5):
        angle = -math.pi / 2 + 2 * math.pi * i / 5
        px, py = cx + r * 0.42 * math.cos(angle), cy - r * 0.25 + r * 0.42 * math.sin(angle)
        draw.ellipse((px - petal, py - petal, px + petal, py + petal), fill=colour)
    draw.rectangle((cx - r * 0.08, cy + r * 0.2, cx + r * 0.08, cy + r), fill=colour)
    draw.polygon([(cx, cy + r * 0.55), (cx + r * 0.55, cy + r * 0.35),
                  (cx + r * 0.2, cy + r * 0.75)], fill=colour)


def _book(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A closed book, spine on the left, its pages showing."""
    draw.rectangle((cx - r * 0.8, cy - r, cx + r * 0.8, cy + r), fill=colour)
    draw.rectangle((cx - r * 0.5, cy - r * 0.8, cx + r * 0.65, cy + r * 0.8), fill=PAPER)
    draw.rectangle((cx - r * 0.35, cy - r * 0.8, cx + r * 0.65, cy + r * 0.65), fill=colour)


def _chest(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A treasure chest: a rounded lid over a box, with its lock."""
    draw.pieslice((cx - r, cy - r * 0.85, cx + r, cy + r * 0.25), 180, 360, fill=colour)
    draw.rectangle((cx - r, cy - r * 0.2, cx + r, cy + r * 0.8), fill=colour)
    draw.rectangle((cx - r, cy - r * 0.3, cx + r, cy - r * 0.18), fill=PAPER)
    draw.rectangle((cx - r * 0.16, cy - r * 0.25, cx + r * 0.16, cy + r * 0.15), fill=PAPER)


def _mandolin(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float,
              colour: Colour) -> None:
    """A mandolin: a round body with its sound hole, and a neck to the upper right."""
    draw.line((cx, cy + r * 0.2, cx + r * 0.9, cy - r * 0.9), fill=colour, width=max(2, int(r / 3)))
    draw.ellipse((cx - r * 0.8, cy - r * 0.3, cx + r * 0.5, cy + r), fill=colour)
    hole = r * 0.18
    draw.ellipse((cx - r * 0.15 - hole, cy + r * 0.35 - hole, cx - r * 0.15 + hole,
                  cy + r * 0.35 + hole), fill=PAPER)


def _horse(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A horse's head and neck, as on a knight: facing left."""
    points = [(-0.05, -1.0), (0.25, -0.8), (0.55, -0.35), (0.75, 0.35), (0.75, 1.0),
              (-0.45, 1.0), (-0.2, 0.4), (-0.35, 0.1), (-0.85, 0.05), (-0.95, -0.25),
              (-0.45, -0.65), (-0.2, -0.75)]
    draw.polygon([(cx + x * r, cy + y * r) for x, y in points], fill=colour)


OBJECTS = {"sword": _sword, "rose": _rose, "book": _book, "chest": _chest,
           "mandolin": _mandolin, "horse": _horse}
"""Fiasco's suit symbols, drawn as its emoji show them (🗡️ 🌹 📗 💰 🎸 🐎)."""


def _luminance(colour: Colour) -> float:
    """The relative luminance of ``colour`` (WCAG 2)."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = (channel(v) for v in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: Colour, two: Colour) -> float:
    """The contrast ratio of two colours (WCAG 2): 1 to 21."""
    light, dark = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@functools.cache
def ink(colour: Colour) -> Colour:
    """``colour`` darkened until text in it stands out from the paper (``MIN_CONTRAST``)."""
    shade = colour
    while contrast(shade, PAPER) < MIN_CONTRAST:
        shade = (int(shade[0] * 0.92), int(shade[1] * 0.92), int(shade[2] * 0.92))
    return shade


@functools.lru_cache(maxsize=1024)
def card_image(face: Face) -> Image.Image:
    """The picture of one card face (RGBA, CARD_W x CARD_H). Do not draw on it: it is shared."""
    s = SCALE
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=PAPER,
                           outline=face.colour, width=round(4 * s))
    draw_shape(draw, face.shape, 16 * s, 17 * s, 9 * s, face.colour)
    text = ink(face.colour)
    if face.letter:
        draw.text((CARD_W - 15 * s, 17 * s), face.letter, font=font(round(16 * s)),
                  fill=text, anchor="mm")
    size = round((34 if len(face.rank) < 2 else 28) * s)
    draw.text((CARD_W / 2, CARD_H / 2 + 6 * s), face.rank, font=font(size), fill=text,
              anchor="mm")
    if face.ringed:
        draw.ellipse((CARD_W / 2 - 23 * s, CARD_H / 2 - 16 * s, CARD_W / 2 + 23 * s,
                      CARD_H / 2 + 28 * s), outline=text, width=round(2 * s))
    if face.starred:
        draw_shape(draw, "star", CARD_W - 14 * s, CARD_H - 15 * s, 10 * s, GOLD)
    if face.dim:
        veil = Image.new("RGBA", image.size, (250, 250, 250, 150))
        image = Image.alpha_composite(image, veil)
    return image


def back_image(count: int) -> Image.Image:
    """A face-down card, with how many there are when more than one."""
    return _back(min(count, 999))


@functools.lru_cache(maxsize=256)
def _back(count: int) -> Image.Image:
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=(60, 70, 120),
                           outline=(30, 35, 70), width=3)
    draw.rounded_rectangle((9, 9, CARD_W - 10, CARD_H - 10), RADIUS - 3,
                           outline=(140, 150, 200), width=2)
    if count > 1:
        draw.text((CARD_W / 2, CARD_H / 2), str(count), font=font(32), fill=(240, 240, 255),
                  anchor="mm")
    return image


__all__ = ["CARD_H", "CARD_W", "Face", "back_image", "card_image", "contrast", "face_of", "font",
           "ink", "text_length"]
