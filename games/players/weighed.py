"""Worlds weighed by how well they explain the other players' plays, drawn by weight.

Card-location inference as Skat and Bridge programs do it (sampling-importance-
resampling): a seat's sampler deals a pool of worlds the rules allow, weighs each by
the likelihood of what the other seats did (their bids, their plays) had they held
that world's cards, and the search draws its worlds from the pool in proportion to
the weights. Weighing costs far more than playing out, so each perspective weighs one
pool, once, dealt from a generator seeded by the perspective alone (its seat and
history, by a checksum, the same in every process): a decision stays a function of the
perspective and the search's own generator, wherever it is made.

Used by the games whose hard level reads the plays: Fiasco, Fazes and Fumblaroo, each
with its own deal and its own model of the players (their ``inference`` modules).

Who plays by the rules of thumb? Fazes and Fumblaroo read every other seat as one of
two players, not knowing which (:class:`Readings`): one who plays the easy level's
rules of thumb (slipping now and then to any legal move), or one of whom the model
knows nothing, who might make any legal move alike (a person, a searching computer).
A world's weight for a seat is the chance of its plays under either, ``prior`` and
``1 - prior`` apart before anything is read. So the plays themselves tell which player
a seat is: a seat whose plays the rules explain in some worlds and not in others
moves the weight onto the worlds that explain them; a seat whose plays the rules
explain in no world weighs the worlds by its legal moves alone, as good as unweighed,
instead of favouring the few wrong worlds that happen to explain its plays.
"""

from __future__ import annotations

import itertools
import random
import zlib
from bisect import bisect_right
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from games.players.base import Perspective

#: Pools kept by :class:`Recent`, one per perspective searched lately (a search asks for
#: hundreds of worlds): enough for the searches in threads at once of the bot's fallback
#: when its workers die.
KEPT = 8
#: The chance, before any of its plays is read, that a seat plays by the rules of thumb
#: (:class:`Readings`).
RULES_PRIOR = 0.5
#: A rules-of-thumb player's chance of a move its rules would not make, spread evenly
#: over its legal moves.
SLIP = 0.05

Deal = TypeVar("Deal")
Kept = TypeVar("Kept")
World = TypeVar("World")


def own_generator(p: Perspective) -> random.Random:
    """A generator seeded by ``p`` alone (never by the per-process ``str`` hash)."""
    return random.Random(zlib.crc32("\n".join((str(p.seat), *p.history)).encode()))


def check_prior(prior: float) -> float:
    """``prior`` if it is a chance in [0, 1]; ValueError if not."""
    if not 0 <= prior <= 1:
        raise ValueError(f"prior is the chance that a seat plays by the rules of thumb, "
                         f"in [0, 1], not {prior!r}")
    return prior


class Readings:
    """One world's reading of the other seats' clues: per seat, the chance of its clues
    if it plays by the rules of thumb (each clue's chance under the rules, with a
    ``SLIP`` spread over its legal moves) and if it chooses among them alike.

    >>> r = Readings(2)
    >>> r.read(1, chance=1.0, choices=4)  # the rules' own move, of four
    >>> r.weight(prior=0.5) == 0.5 * (0.95 + 0.05 / 4) + 0.5 * 0.25
    True
    >>> r.weight(prior=1.0) == 0.95 + 0.05 / 4
    True
    """

    __slots__ = ("alike", "rules")

    def __init__(self, players: int) -> None:
        self.rules = [1.0] * players
        self.alike = [0.0] * players  # 0: nothing read of that seat

    def read(self, seat: int, chance: float, choices: int) -> None:
        """A clue of ``seat`` that the rules of thumb make with ``chance``, among
        ``choices`` legal moves (or bids)."""
        alike = 1.0 / choices
        self.rules[seat] *= (1.0 - SLIP) * chance + SLIP * alike
        self.alike[seat] = (self.alike[seat] or 1.0) * alike

    def weight(self, prior: float = RULES_PRIOR) -> float:
        """The chance of every seat's clues: per seat, ``prior`` that it plays by the
        rules, else alike; the product over the seats read."""
        w = 1.0
        for rules, alike in zip(self.rules, self.alike, strict=True):
            if alike:
                w *= prior * rules + (1.0 - prior) * alike
        return w


def check_temper(temper: float) -> float:
    """``temper`` if it is a power to temper weights by, in (0, 1]; ValueError if not."""
    if not 0 < temper <= 1:
        raise ValueError(f"temper is a power in (0, 1] (1 leaves the weights as they are), "
                         f"not {temper!r}")
    return temper


class WeighedPool(Generic[Deal]):
    """Deals and their weights, to draw from in proportion (evenly when every weight is
    zero: no deal explains the plays, so none is preferred).

    ``temper`` (in (0, 1]) raises every weight to that power first: below 1 it flattens
    the weights, so that a pool whose weight gathers on a few deals draws from more of
    them (1, the default, leaves the weights exactly as they are).

    >>> pool = WeighedPool(["a", "b", "c"], [0.0, 1.0, 0.0])
    >>> {pool.pick(random.Random(r)) for r in range(10)}
    {'b'}
    >>> len({WeighedPool("abc", [0, 0, 0]).pick(random.Random(r)) for r in range(30)})
    3
    """

    __slots__ = ("cumulative", "deals")

    def __init__(self, deals: Iterable[Deal], weights: Iterable[float],
                 temper: float = 1.0) -> None:
        self.deals = list(deals)
        if check_temper(temper) != 1:
            weights = [w ** temper for w in weights]
        self.cumulative = list(itertools.accumulate(weights))
        if len(self.cumulative) != len(self.deals) or not self.deals:
            raise ValueError("a pool needs one weight for each of its deals, and a deal")

    @classmethod
    def dealt(cls, p: Perspective, size: int, deal: Callable[[random.Random], Deal],
              weigh: Callable[[Deal], float], temper: float = 1.0) -> WeighedPool[Deal]:
        """``size`` deals from ``deal`` on ``p``'s own generator, weighed by ``weigh``
        (tempered by ``temper``)."""
        own = own_generator(p)
        deals = [deal(own) for _ in range(size)]
        return cls(deals, map(weigh, deals), temper)

    def weights(self) -> list[float]:
        """The deals' weights, as drawn by (tempered)."""
        return [b - a for a, b in itertools.pairwise([0.0, *self.cumulative])]

    def effective_size(self) -> float:
        """How many deals the weights amount to: 1 / the sum of the squared normalized
        weights (the pool's size when the weights are even, or all zero; 1 when one deal
        holds them all).

        >>> WeighedPool("abcd", [1, 1, 0, 0]).effective_size()
        2.0
        >>> WeighedPool("abcd", [0, 0, 0, 0]).effective_size()
        4.0
        """
        weights = self.weights()
        total = sum(weights)
        if not total > 0:
            return float(len(weights))
        return total * total / sum(w * w for w in weights)

    def pick(self, rng: random.Random) -> Deal:
        total = self.cumulative[-1]
        if not total > 0:
            return self.deals[rng.randrange(len(self.deals))]
        at = bisect_right(self.cumulative, rng.random() * total)
        return self.deals[min(at, len(self.deals) - 1)]


class PooledWorlds(Generic[Deal, World]):
    """One perspective's worlds: each a deal made into a world by ``make``, drawn from a
    pool of ``size`` deals by their weight (``weigh``), or dealt afresh from the search's
    own generator when there is nothing to weigh by (``weigh`` None: nobody else has
    played yet), as the game's knowledge deals them. ``temper`` tempers the weights
    (:class:`WeighedPool`)."""

    def __init__(self, p: Perspective, size: int, *, deal: Callable[[random.Random], Deal],
                 make: Callable[[Deal], World],
                 weigh: Callable[[Deal], float] | None, temper: float = 1.0) -> None:
        self.p = p
        self.deal = deal
        self.make = make
        self.weigh = weigh
        self.pool = None if weigh is None else WeighedPool.dealt(p, size, deal, weigh, temper)

    def draw(self, rng: random.Random) -> World:
        return self.make(self.deal(rng) if self.pool is None else self.pool.pick(rng))


class Recent(Generic[Kept]):
    """What was made for the last ``kept`` perspectives, found again by identity: a search
    asks for hundreds of worlds of one perspective, and searches in threads at once (the
    bot's fallback when its workers die) each find their own, not one another's."""

    __slots__ = ("_kept", "kept")

    def __init__(self, kept: int = KEPT) -> None:
        if kept < 1:
            raise ValueError("keep at least one")
        self.kept = kept
        self._kept: tuple[tuple[Perspective, Kept], ...] = ()

    def get(self, p: Perspective, make: Callable[[Perspective], Kept]) -> Kept:
        recent = self._kept  # read once: another thread may replace it meanwhile
        for q, made in recent:
            if q is p:
                return made
        made = make(p)
        self._kept = ((p, made), *recent[:self.kept - 1])
        return made


__all__ = ["KEPT", "RULES_PRIOR", "SLIP", "PooledWorlds", "Readings", "Recent", "WeighedPool",
           "check_prior", "check_temper", "own_generator"]
