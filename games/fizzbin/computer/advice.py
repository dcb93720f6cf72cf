"""What Fizzbin teaches the hard level's search: search only the discards worth telling apart.

A Fizzbin discard is a card of the hand onto any pile: some 28 moves. One card thrown
onto one pile or another is nearly the same move (only the pile's top card gets
buried), so playouts spent on telling those apart are wasted, and their noise swamps
the real differences between cards. The search keeps each card onto the ``targets``
piles the rules of thumb (:mod:`games.fizzbin.computer.thumb`) would choose: the one
whose top card others would most like buried, then the others whose top others want
most. ``cards`` can also keep only the least useful cards by the rules of thumb (and
any card whose discard leaves the best hand one discard can leave); by default every
card is kept, because the rules of thumb misjudge some (they keep a Three-Quarters
card that the search would rather throw than a lone ace). The draws are few (the
stack, each pile) and all searched.

The worlds are the knowledge's (:meth:`FizzbinKnowledge.sample`), whose horizon is one
round of turns ahead; ``rounds`` looks further (0: to the end of the hand).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence

from games.fizzbin.computer.fast import DISCARD_BASE, action_move, rank_strength
from games.fizzbin.computer.knowledge import Table, read_table
from games.fizzbin.computer.knowledge import world as sample_world
from games.fizzbin.computer.thumb import Tactics, tactics_for
from games.players.advice import register_advice
from games.players.base import Perspective, SearchState

#: The least useful cards whose discards are searched (0: every card).
CARDS = 0
#: The piles each of them may go onto: the rules of thumb's burial, then the piles
#: whose top card others want most (a pair or special rank).
TARGETS = 1
#: A pile top others want this much is worth burying (pair and special ranks).
WANTED = 1.5
#: Rounds of turns a playout looks ahead (0: to the end of the hand); the knowledge's 1.
ROUNDS = 1


class FizzbinAdvice:
    """Fizzbin's :class:`~games.players.advice.Advice`: prune the discards by thumb."""

    game = "fizzbin"

    def __init__(self, cards: int = CARDS, targets: int = TARGETS, rounds: int = ROUNDS) -> None:
        if cards < 0 or targets < 1 or rounds < 0:
            raise ValueError("keep one card and one pile at least, and look ahead")
        self.cards = cards
        self.targets = targets
        self.rounds = rounds

    def candidates(self, p: Perspective) -> Sequence[int]:
        moves = [action_move(a) for a in p.legal]
        discards = {m: i for i, m in enumerate(moves) if m >= DISCARD_BASE}
        if len(discards) <= max(self.cards, self.targets):
            return range(len(p.legal))
        t = read_table(p)
        draws = [i for i, m in enumerate(moves) if m < DISCARD_BASE]
        kept = [discards[m] for m in self.discards(t, discards) if m in discards]
        return draws + kept

    def discards(self, t: Table, legal: Collection[int]) -> list[int]:
        """The discard moves worth searching, best first by the rules of thumb."""
        tactics = tactics_for(t.night)
        free = sorted({_card(m) for m in legal}, key=_by_use(tactics, t.holding))
        cards = free[: self.cards] if self.cards else free
        leaves = {c: rank_strength([h for h in t.holding if h != c], t.night) for c in free}
        best = max(leaves.values())
        if all(leaves[c] < best for c in cards):
            cards.append(next(c for c in free if leaves[c] == best))
        piles = self.piles(tactics, t)
        return [DISCARD_BASE + (c << 3) + q for c in cards for q in piles]

    def piles(self, tactics: Tactics, t: Table) -> list[int]:
        """The piles to discard onto, best first: the rules of thumb's burial, then the
        piles whose top card others want most."""
        order = [tactics.burial(t.piles, t.seat)]
        wanted = sorted((q for q, pile in enumerate(t.piles)
                         if pile and tactics.wanted[pile[-1]] >= WANTED),
                        key=lambda q: (-tactics.wanted[t.piles[q][-1]], q))
        for q in wanted:
            if q not in order:
                order.append(q)
        return order[: self.targets]

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        world = sample_world(read_table(p), rng)
        if self.rounds != ROUNDS:  # the knowledge's worlds end a round ahead
            world.turns_left = self.rounds * p.players + 1 if self.rounds else 1 << 30
        return world


def _card(move: int) -> int:
    return (move >> 3) - (DISCARD_BASE >> 3)


def _by_use(tactics: Tactics, hand: Sequence[int]) -> Callable[[int], tuple[float, float, int]]:
    """The rules of thumb's order of the cards to throw: least worth in ``hand``, then
    least wanted by others, then by card."""
    prof = tactics.profile(hand)

    def key(card: int) -> tuple[float, float, int]:
        return tactics.worth_in(card, prof), tactics.wanted[card], card

    return key


ADVICE = register_advice(FizzbinAdvice())

__all__ = ["ADVICE", "CARDS", "TARGETS", "FizzbinAdvice"]
