"""Fumblaroo's rules of thumb, on the integers of :mod:`games.fumblaroo.computer.bits`.

What a decent casual player does. Every hand pays only the player with the most tricks
(or, at 2-2-1, the players on two who did not call), so a player calls trump only with
a hand that can take three tricks: trumps counted by weight (the 2 of trump most, then
the other 2, the Ace, the King ...) and Aces of the other suits. The dealer picks up
with a little less, since the up-card comes into their hand; a player forced to call
names their strongest suit. The dealer discards their weakest card outside trump,
preferring a lone card (it leaves a void to trump in).

In the tricks: the caller leads trump while holding two or more, to draw them; anyone
else leads an Ace of a plain suit if they have one, else their lowest card. Following,
a player wins as cheaply as they can, and otherwise throws their lowest card, keeping
trumps. Only the seat's own hand and the table are read.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.fumblaroo.computer.bits import EFFECTIVE, FOLLOWS, RANK, STRENGTH, SUIT, cards_of

# A trump's weight by its strength in trump (9 to A, the other 2, the 2 of trump).
_TRUMP_WEIGHT = {9: 0.8, 10: 0.8, 11: 0.9, 12: 1.0, 13: 1.5, 14: 2.0, 15: 2.5, 16: 3.0}
_PLAIN_ACE = 1.0
_ACE = 14
_TRUMP_BASE = 100

#: Hand weight needed to order it up, for the dealer to pick it up (the up-card
#: counted in and the worst card out), and how far the easy level's judgement wavers.
ORDER_AT = 5.0
PICK_AT = 5.0


def hand_weight(hand: int, trump: int) -> float:
    """How many tricks' worth of strength ``hand`` holds with ``trump`` as trump, roughly."""
    strength = STRENGTH[trump][trump]
    weight = 0.0
    for c in cards_of(hand):
        if EFFECTIVE[trump][c] == trump:
            weight += _TRUMP_WEIGHT[strength[c] - _TRUMP_BASE]
        elif RANK[c] == _ACE:
            weight += _PLAIN_ACE
    return weight


def discard(hand: int, trump: int) -> int:
    """The weakest card outside trump, a lone one first; the lowest trump if all are."""
    cards = cards_of(hand)

    def key(c: int) -> tuple[bool, int, int]:
        suit = EFFECTIVE[trump][c]
        alone = (hand & FOLLOWS[trump][suit]).bit_count() == 1
        return (suit == trump, RANK[c] if RANK[c] != 2 or suit == trump else 1, not alone)

    return min(cards, key=key)


def after_pick(hand: int, up: int) -> int:
    """The dealer's hand once they take ``up`` and throw :func:`discard`."""
    six = hand | 1 << up
    return six ^ 1 << discard(six, SUIT[up])


def best_call(hand: int, turned: int) -> int:
    """The strongest suit of ``hand`` other than the turned-down one."""
    suits = [s for s in range(4) if s != turned]
    return max(suits, key=lambda s: (hand_weight(hand, s), -s))


def lead(hand: int, trump: int, *, caller: bool) -> int:
    """The card to lead: trump to draw them (the caller with two or more), else a plain
    Ace, else the lowest card."""
    trumps = cards_of(hand & FOLLOWS[trump][trump])
    strength = STRENGTH[trump][trump]
    if caller and len(trumps) >= 2:
        return max(trumps, key=lambda c: strength[c])
    plain = cards_of(hand & ~FOLLOWS[trump][trump])
    aces = [c for c in plain if RANK[c] == _ACE]
    if aces:
        return aces[0]
    if plain:
        return min(plain, key=lambda c: (RANK[c] if RANK[c] != 2 else 1))
    return max(trumps, key=lambda c: strength[c])


def follow(legal: Sequence[int], trick: Sequence[int], trump: int) -> int:
    """Win as cheaply as possible, else throw the lowest card (trumps kept)."""
    strength = STRENGTH[trump][EFFECTIVE[trump][trick[0]]]
    best = max(strength[c] for c in trick)
    winners = [c for c in legal if strength[c] > best]
    if winners:
        return min(winners, key=lambda c: strength[c])
    return min(legal, key=lambda c: (strength[c], RANK[c] if RANK[c] != 2 else 1))


__all__ = [
    "ORDER_AT",
    "PICK_AT",
    "after_pick",
    "best_call",
    "discard",
    "follow",
    "hand_weight",
    "lead",
]
