"""Fizzbin's deal object: who holds what, the stack, and whether it is night.

Record form (``rules/fizzbin.md``, "Record"): ``{"night": false, "hands": [[cards]
x players], "stack": [top first]}``, ``hands`` indexed by player; the two 7-card
hands are those of the players at the dealer's seat and on the dealer's left,
and the second card of each is the face-up one. ``night`` may be left out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards import Card
from games.core.dealing import Hands, card_texts, deal_round_robin, hands_json, parse_hands
from games.core.errors import SetupError
from games.fizzbin.cards import DECK
from games.fizzbin.seating import Seating

HAND_SIZE = 6
BIG_HAND = 7
FACE_UP_INDEX = 1  # the second card of a 7-card hand
_KEYS = frozenset({"night", "hands", "stack"})


@dataclass(frozen=True, slots=True)
class FizzbinDeal:
    """One deal: the hands by player, the stack (top first), and day or night if fixed."""

    hands: Hands
    stack: tuple[Card, ...]
    night: bool | None = None

    def big_hands(self) -> set[int]:
        """The players dealt seven cards."""
        return {p for p, h in enumerate(self.hands) if len(h) == BIG_HAND}

    def to_json(self) -> dict[str, Any]:
        """This deal in record form. Whether it is night is settled when the hand starts
        (the game writes it then); until that, day unless the deal says night."""
        return {
            "night": bool(self.night),
            "hands": hands_json(self.hands),
            "stack": card_texts(self.stack),
        }


def parse_deal(raw: Mapping[str, Any], where: str, *, players: int, time: str) -> FizzbinDeal:
    """A deal from a record; :class:`SetupError` naming what is wrong."""
    keys = set(raw)
    if not {"hands", "stack"} <= keys or not keys <= _KEYS:
        raise SetupError(f"{where} must have the keys hands and stack (and may have night), "
                         f"not {sorted(keys)}")
    night = raw.get("night")
    if "night" in raw and not isinstance(night, bool):
        raise SetupError(f"{where}: night must be true or false")
    if (night is True and time == "day") or (night is False and time == "night"):
        raise SetupError(f"{where} is played by {'night' if night else 'day'}, "
                         f"but the option time is {time}")
    hands = parse_hands(raw["hands"], DECK, players, where)
    sizes = sorted(len(h) for h in hands)
    if sizes != [HAND_SIZE] * (players - 2) + [BIG_HAND] * 2:
        raise SetupError(f"{where}: two hands must hold {BIG_HAND} cards and the others "
                         f"{HAND_SIZE}")
    stack = tuple(DECK.parse_list(raw["stack"], f"{where} stack"))
    DECK.check_exactly([*(c for h in hands for c in h), *stack], where)
    return FizzbinDeal(hands, stack, night)


def check_big_hands(deal: FizzbinDeal, where: str, *, dealer: int, left: int) -> None:
    """Raise :class:`SetupError` unless the dealer and the dealer's left hold seven cards."""
    if deal.big_hands() != {dealer, left}:
        raise SetupError(f"{where}: the 7-card hands must be those of player {dealer} (the "
                         f"dealer) and player {left} (on the dealer's left)")


def shuffle_deal(rng: random.Random, seating: Seating, dealer_seat: int) -> FizzbinDeal:
    """Six cards each one at a time clockwise from the dealer's left, then a seventh to
    the dealer's left and to the dealer; the rest is the stack. Day or night is left open."""
    cards = DECK.shuffled(rng)
    n = len(seating)
    by_seat: list[list[Card]] = [[] for _ in range(n)]
    left = seating.left_of(dealer_seat)
    deal_round_robin(cards, by_seat, count=HAND_SIZE, first=left)
    by_seat[left].append(cards.pop(0))
    by_seat[dealer_seat].append(cards.pop(0))
    hands: list[tuple[Card, ...]] = [() for _ in range(n)]
    for seat, hand in enumerate(by_seat):
        hands[seating.player_at(seat)] = tuple(hand)
    return FizzbinDeal(tuple(hands), tuple(cards))
