"""Zones: every card of a game lives in exactly one, and each knows who may see it.

A game keeps its cards in plain lists for speed and describes them on demand as
:class:`Zone` objects. From that one description come the per-player views, the
invariant checks (no card lost or duplicated) and what a computer player may
know.

**Order.** A zone that cards are taken from (a pile, a stock, a private deck) lists them
top first: ``cards[0]`` is the card the next player to take from it gets, and
:attr:`Zone.top` / :attr:`ZoneView.top` name it. Every reader (the hand menu's labels,
the table message, the pictures, the terminal, the computer players) asks for the top
this way, so a pile's order means one thing wherever it is read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from games.core.cards import Card


class Visibility(Enum):
    """Who may look at the cards of a zone."""

    PUBLIC = "public"  # everybody, spectators included
    OWNER = "owner"  # the owning player alone (a hand)
    NOBODY = "nobody"  # face down for all, owner too (a stock, a private deck, cards set aside)


class ZoneKind(Enum):
    """What a zone is on the table, so a renderer can lay it out."""

    HAND = "hand"
    STOCK = "stock"
    TRICK = "trick"
    PILE = "pile"
    COLLECTION = "collection"
    WASTE = "waste"
    ASIDE = "aside"
    FACE_UP = "face_up"


@dataclass(frozen=True, slots=True)
class Zone:
    """A named place holding cards (the list is the game's own, not a copy)."""

    name: str
    kind: ZoneKind
    cards: Sequence[Card]  # a pile or a stock: top first (see the module docstring)
    visibility: Visibility
    owner: int | None = None

    @property
    def top(self) -> Card | None:
        """The card on top (the next one taken), or None when the zone is empty."""
        return self.cards[0] if self.cards else None

    def visible_to(self, player: int | None) -> bool:
        """Whether ``player`` (``None`` for a spectator) may see these cards."""
        if self.visibility is Visibility.PUBLIC:
            return True
        if self.visibility is Visibility.OWNER:
            return player is not None and player == self.owner
        return False


@dataclass(frozen=True, slots=True)
class ZoneView:
    """A zone as one viewer sees it: the cards, or only their count."""

    name: str
    kind: ZoneKind
    owner: int | None
    count: int
    cards: tuple[Card, ...] | None  # None when hidden from this viewer; a pile: top first

    @property
    def hidden(self) -> bool:
        return self.cards is None

    @property
    def top(self) -> Card | None:
        """The card on top (the next one taken), or None when empty or hidden."""
        return self.cards[0] if self.cards else None


def view_zone(zone: Zone, player: int | None) -> ZoneView:
    """What ``player`` sees of ``zone``."""
    cards = tuple(zone.cards) if zone.visible_to(player) else None
    return ZoneView(zone.name, zone.kind, zone.owner, len(zone.cards), cards)


def zone_words(zone: ZoneView) -> str:
    """A zone's name in words, its owner left out: ``face_up:1`` -> "face up"."""
    return zone.name.partition(":")[0].replace("_", " ")


def zone_title(zone: ZoneView, names: Sequence[str]) -> str:
    """``collection:2`` -> "Cy's collection", ``stock`` -> "Stock": the one name of a zone
    for people, in the table message, the pictures and the terminal alike."""
    if zone.owner is not None and 0 <= zone.owner < len(names):
        return f"{names[zone.owner]}'s {zone_words(zone)}"
    return zone_words(zone).capitalize()


def all_cards(zones: Iterable[Zone]) -> Counter[Card]:
    """Every card in the given zones, counted."""
    counts: Counter[Card] = Counter()
    for zone in zones:
        counts.update(zone.cards)
    return counts
