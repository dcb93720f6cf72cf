"""Dealing the cards a seat has not seen to the places it cannot see, within what play
revealed: "holds at most so many cards of this suit" (a void is at most none).

The worlds a search player samples must respect every void the history revealed, and
a card-by-card random deal can paint itself into a corner (the only hand that may take
the last Spicy-free suit is full). A few plain shuffles are tried first (one
that fits is an exactly uniform draw); failing those, each card goes to a holder drawn
with weight equal to its room, and only if the rest can still be placed: a transport
problem whose feasibility, with a handful of suits, is Hall's condition over every set
of suits.

>>> import random
>>> hands = constrained_deal([0, 1, 2, 3], groups=[0, 0, 1, 1], sizes=[2, 2],
...                          caps=[[0, 2], [2, 2]], rng=random.Random(1))
>>> sorted(hands[0]), sorted(hands[1])
([2, 3], [0, 1])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

#: Plain shuffles tried before placing card by card: a shuffle that fits is an exactly
#: uniform draw among the deals that respect the caps, and usually one of the first does.
TRIES = 20


class NoDealFits(ValueError):
    """No deal of the cards respects the sizes and caps (the perspective is inconsistent)."""


def constrained_deal(
    cards: Sequence[int],
    *,
    groups: Sequence[int],
    sizes: Sequence[int],
    caps: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Deal ``cards`` to holders of ``sizes``; holder ``h`` takes at most ``caps[h][g]``
    cards of group ``g`` (``groups[card]``). Canonical: the cards are sorted before the
    shuffle, so equal inputs and equal generators give equal deals."""
    if sum(sizes) != len(cards):
        raise NoDealFits(f"{len(cards)} cards for {sum(sizes)} places")
    order = sorted(cards)
    rng.shuffle(order)
    room = list(sizes)
    cap = [[min(c, s) for c in row] for row, s in zip(caps, sizes, strict=True)]
    if all(c == s for row, s in zip(cap, sizes, strict=True) for c in row):
        return _plain_deal(order, sizes)
    for _ in range(TRIES):
        attempt = _plain_deal(order, sizes)
        if _within_caps(attempt, groups, cap):
            return attempt
        rng.shuffle(order)
    demand = [0] * len(cap[0])
    for c in order:
        demand[groups[c]] += 1
    if not _feasible(room, cap, demand):
        raise NoDealFits("no deal respects what play revealed")
    dealt: list[list[int]] = [[] for _ in sizes]
    for c in order:
        g = groups[c]
        demand[g] -= 1
        holder = _place(g, room, cap, demand, rng)
        dealt[holder].append(c)
    return dealt


def _within_caps(dealt: list[list[int]], groups: Sequence[int], cap: list[list[int]]) -> bool:
    for cards, row in zip(dealt, cap, strict=True):
        held = [0] * len(row)
        for c in cards:
            held[groups[c]] += 1
        if any(h > c for h, c in zip(held, row, strict=True)):
            return False
    return True


def _plain_deal(order: list[int], sizes: Sequence[int]) -> list[list[int]]:
    dealt = []
    start = 0
    for size in sizes:
        dealt.append(order[start:start + size])
        start += size
    return dealt


def _place(
    g: int, room: list[int], cap: list[list[int]], demand: list[int], rng: random.Random
) -> int:
    """A holder for one card of group ``g``, drawn by room, that leaves the rest placeable."""
    candidates = [h for h in range(len(room)) if room[h] and cap[h][g]]
    while candidates:
        h = _by_room(candidates, room, rng)
        room[h] -= 1
        cap[h][g] -= 1
        if _feasible(room, cap, demand):
            return h
        room[h] += 1
        cap[h][g] += 1
        candidates.remove(h)
    raise NoDealFits("no deal respects what play revealed")  # unreachable once feasible


def _by_room(candidates: list[int], room: Sequence[int], rng: random.Random) -> int:
    """One of ``candidates``, each as likely as it has room."""
    pick = rng.randrange(sum(room[h] for h in candidates))
    for h in candidates:
        if pick < room[h]:
            return h
        pick -= room[h]
    raise AssertionError("unreachable: pick is below the total room")


def _feasible(room: Sequence[int], cap: Sequence[Sequence[int]], demand: Sequence[int]) -> bool:
    """Whether ``demand`` (cards per group) fits: for every set of groups, its cards fit
    in what the holders can take of those groups (max-flow min-cut)."""
    wanted = [g for g, d in enumerate(demand) if d]
    for k in range(1, len(wanted) + 1):
        for subset in combinations(wanted, k):
            need = sum(demand[g] for g in subset)
            can = sum(min(r, sum(row[g] for g in subset)) for r, row in zip(room, cap,
                                                                            strict=True))
            if need > can:
                return False
    return True


__all__ = ["NoDealFits", "constrained_deal"]
