"""Fibonachos' rules of thumb, on the integers of :mod:`games.fibonachos.computer.bits`.

What a decent casual player does. Taking no Spicy card at all is worth 34, more than
almost any sum, so until a player has taken one they **duck**: they play the highest
card that does not win the trick so far (shedding danger while it is safe), lead their
lowest card, and when every card wins, win with the highest if nobody plays after them
(it wins anyway) or play the lowest and hope to be overtaken. Once a player holds Spicy
cards the 34 is gone and more is mostly better, so they **take** a prize that does not
lower their score (``round_score`` of the new sum at least the old): with the cheapest
card that wins, or they throw their lowest. A trick without a prize is a free chance to
shed the highest card.

A card "wins so far" by the real rule, trump included (two Fibonachos make the highest
Fibonacho win); the easy level sometimes forgets the trump rule (``naive``), the
mistake people make most. Only the seat's own hand and the table are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from games.fibonachos.computer.bits import IS_FIB, RANK, SUIT, legal_moves
from games.fibonachos.scoring import round_score


class Intent(Enum):
    """What the rules of thumb are trying to do with the trick at hand."""

    DUCK = "duck"  # stay out of the pot
    TAKE = "take"  # win the prize
    SHED = "shed"  # no prize: get rid of a high card


def intent(spicy_sum: int, prize: int) -> Intent:
    """Duck until the first Spicy card; then take prizes that do not lower the score."""
    if prize == 0:
        return Intent.SHED
    if spicy_sum > 0 and round_score(spicy_sum + prize) >= round_score(spicy_sum):
        return Intent.TAKE
    return Intent.DUCK


def wins_so_far(trick: Sequence[int], card: int, *, naive: bool = False) -> bool:
    """Whether ``card`` would win ``trick`` if the trick ended with it.

    ``naive`` forgets the trump rule (the highest card of the lead suit wins).
    """
    if not trick:
        return True
    led = SUIT[trick[0]]
    fibs = int(IS_FIB[card])
    best_fib = 0
    best_led = 0
    for c in trick:
        if IS_FIB[c]:
            fibs += 1
            best_fib = max(best_fib, RANK[c])
        if SUIT[c] == led:
            best_led = max(best_led, RANK[c])
    if fibs >= 2 and not naive:
        return IS_FIB[card] and RANK[card] >= best_fib  # equal: the last played wins
    return SUIT[card] == led and RANK[card] > best_led


def _trump_after(trick: Sequence[int], card: int) -> bool:
    return IS_FIB[card] + sum(IS_FIB[c] for c in trick) >= 2


def choose(
    hand: int,
    trick: Sequence[int],
    *,
    after: int,
    spicy_sum: int,
    prize: int,
    naive: bool = False,
) -> int:
    """The rules-of-thumb card for ``hand`` on ``trick``; ``after`` plays follow it."""
    legal = legal_moves(hand, trick)
    if len(legal) == 1:
        return legal[0]
    aim = intent(spicy_sum, prize)
    if aim is Intent.SHED:
        return _highest(legal)
    if not trick:
        return _lowest(legal) if aim is Intent.DUCK else _highest(legal)
    winners = [c for c in legal if wins_so_far(trick, c, naive=naive)]
    if aim is Intent.TAKE:
        return _lowest(winners) if winners else _lowest(legal)
    losers = [c for c in legal if c not in winners]
    if not losers:
        return _highest(legal) if after == 0 else _lowest(legal)
    if after:
        # A lone Fibonacho that loses now wins if a later player adds a second one.
        safe = [c for c in losers if not IS_FIB[c] or _trump_after(trick, c)]
        losers = safe or losers
    return _highest(losers)


def _highest(cards: Sequence[int]) -> int:
    best = cards[0]
    for c in cards:
        if RANK[c] > RANK[best]:
            best = c
    return best


def _lowest(cards: Sequence[int]) -> int:
    best = cards[0]
    for c in cards:
        if RANK[c] < RANK[best]:
            best = c
    return best


__all__ = ["Intent", "choose", "intent", "wins_so_far"]
