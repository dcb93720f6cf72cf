"""Card faces drawn by the project, one style per deck.

Every face carries its suit three ways: a colour, a shape and a letter, so that a
colour-blind player (or a grey-scale phone screen) tells the suits apart as easily
as anyone. Faces are drawn once per (style, card, marks) and kept.

- Fiasco: six suits (Swords, Roses, Books, Treasure Chests, Mandolins, Horses), each
  its colour and shape, plus gold Kings (a crown) and dark Fiascos (a cross).
- Fibonachos: Red, Yellow and Green 1-16, the Fibonacci numbers ringed; orange Spicy
  cards (a flame).
- Fazes: Red, Yellow, Green and Black, a star when the colour is trump.
- Fizzbin and Fumblaroo: standard cards in four colours (spades black, hearts red,
  diamonds blue, clubs green) with drawn pips; Fumblaroo's bowers starred.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from games.core.cards import Card

CARD_W = 66
CARD_H = 92
RADIUS = 8

Colour = tuple[int, int, int]

INK: Colour = (30, 30, 30)
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
          "crown", "cross", "flame", "spade", "heart", "club", "star")

FIASCO_SUITS: dict[str, tuple[Colour, str]] = {
    "S": ((90, 110, 140), "triangle"),  # Swords
    "R": ((200, 40, 60), "circle"),  # Roses
    "B": ((40, 90, 180), "square"),  # Books
    "T": ((150, 100, 30), "diamond"),  # Treasure Chests
    "M": ((120, 60, 160), "hexagon"),  # Mandolins
    "H": ((40, 140, 70), "pentagon"),  # Horses
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
    return Face(rank, card.suit, colour, shape, starred=card.text in bowers)


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
    else:
        draw.polygon(shape_points(shape, cx, cy, r), fill=colour)


@functools.lru_cache(maxsize=1024)
def card_image(face: Face) -> Image.Image:
    """The picture of one card face (RGBA, CARD_W x CARD_H). Do not draw on it: it is shared."""
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=PAPER,
                           outline=face.colour, width=4)
    draw_shape(draw, face.shape, 15, 16, 8, face.colour)
    if face.letter:
        draw.text((CARD_W - 14, 16), face.letter, font=font(15), fill=face.colour, anchor="mm")
    size = 34 if len(face.rank) < 2 else 28
    draw.text((CARD_W / 2, CARD_H / 2 + 6), face.rank, font=font(size), fill=face.colour,
              anchor="mm")
    if face.ringed:
        draw.ellipse((CARD_W / 2 - 22, CARD_H / 2 - 16, CARD_W / 2 + 22, CARD_H / 2 + 28),
                     outline=face.colour, width=2)
    if face.starred:
        draw_shape(draw, "star", CARD_W - 13, CARD_H - 14, 9, GOLD)
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
    draw.rounded_rectangle((7, 7, CARD_W - 8, CARD_H - 8), RADIUS - 3, outline=(140, 150, 200),
                           width=2)
    if count > 1:
        draw.text((CARD_W / 2, CARD_H / 2), str(count), font=font(24), fill=(240, 240, 255),
                  anchor="mm")
    return image


__all__ = ["CARD_H", "CARD_W", "Face", "back_image", "card_image", "face_of", "font", "text_length"]
