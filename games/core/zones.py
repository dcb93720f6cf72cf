"""Zones: every card of a game lives in exactly one, and each knows who may see it.

A game keeps its cards in plain lists for speed and describes them on demand as
:class:`Zone` objects. From that one description come the per-player views, the
invariant checks (no card lost or duplicated) and what a computer player may
know.
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
    cards: Sequence[Card]
    visibility: Visibility
    owner: int | None = None

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
    cards: tuple[Card, ...] | None  # None when hidden from this viewer

    @property
    def hidden(self) -> bool:
        return self.cards is None


def view_zone(zone: Zone, player: int | None) -> ZoneView:
    """What ``player`` sees of ``zone``."""
    cards = tuple(zone.cards) if zone.visible_to(player) else None
    return ZoneView(zone.name, zone.kind, zone.owner, len(zone.cards), cards)


def all_cards(zones: Iterable[Zone]) -> Counter[Card]:
    """Every card in the given zones, counted."""
    counts: Counter[Card] = Counter()
    for zone in zones:
        counts.update(zone.cards)
    return counts
