"""Fizzbin's rules of thumb, on integer cards: what a decent casual player does.

A casual player keeps pairs of aces, jacks and sevens (every winning hand but
Three-Quarters needs one) and the two special ranks (with a pair they make a Full
Fizzbin); never keeps three of a kind (Shronk always loses); takes a card from a pile
when it completes something, and otherwise tries the stack; draws again after a special
card while the hand is not too big; throws away the least useful card, onto the pile
whose top card others would most like, to bury it. It never takes a forced card from a
pile (it would only go onto its own pile), and it never takes two turns in a row without
drawing from the stack, so a hand between computers always ends.

The same rules drive the easy level (:meth:`Tactics.plan`, with a little noise) and the
search's rollouts (:meth:`Tactics.choose`, without).

>>> from games.fizzbin.cards import DECK
>>> t = tactics_for(night=False)
>>> ids = {c.text: i for i, c in enumerate(DECK.cards)}
>>> hand = [ids[x] for x in "AS 3D 5C 9H QS 8C".split()]
>>> t.plan(hand, [[], [ids["AD"]]], me=0, step=0, taken=0, pile_turn=False, stack=True)
Plan(move=2, reason='takes AD to make a pair of aces')
>>> t.plan(hand, [[], [ids["AD"]]], me=0, step=0, taken=0, pile_turn=True, stack=True).move
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.fizzbin.cards import DECK, RANK_NAMES, forced_ranks, is_red, special_ranks
from games.fizzbin.scoring import PAIR_RANKS

_RANK = tuple(c.rank for c in DECK.cards)
_TEXT = tuple(c.text for c in DECK.cards)
_PAIR, _SPECIAL, _FORCED, _THREE = 0, 1, 2, 3

#: Gain a pile card must bring to be taken (completing a pair, a needed special card).
TAKE_AT = 3.0
#: A hand this big stops drawing again after a special card (Shronk grows likelier).
BIG_HAND = 8
SHRONK = -9.0

_WORDS = {1: "aces", 11: "jacks", 7: "sevens"}

# Moves, as in games.fizzbin.fast (kept here so that the two modules need not import
# each other).
_STACK, _PILE, _DISCARD = 0, 1, 64
_DRAW, _DRAW_AGAIN = 0, 1


@dataclass(frozen=True, slots=True)
class Plan:
    """A move and, in a few words, why."""

    move: int
    reason: str


class Tactics:
    """The rules of thumb by day or by night (the special ranks change)."""

    def __init__(self, *, night: bool) -> None:
        self.night = night
        special, forced = special_ranks(night=night), forced_ranks(night=night)
        kinds = {}
        for rank in range(1, 14):
            kinds[rank] = (_PAIR if rank in PAIR_RANKS else _SPECIAL if rank in special
                           else _FORCED if rank in forced else _THREE)
        self.kind = tuple(kinds[r] for r in _RANK)
        self.forced = tuple(k == _FORCED for k in self.kind)
        self.right_colour = tuple(is_red(c) != night for c in DECK.cards)
        self.special = tuple(sorted(special))
        # How much others would like a card on top of a pile (what a discard can bury).
        self.wanted = tuple((2.0, 1.5, -1.0, 0.3)[k] for k in self.kind)

    # --- judging cards ---------------------------------------------------------

    def counts(self, hand: Sequence[int]) -> list[int]:
        """Cards per rank in ``hand``."""
        out = [0] * 14
        for c in hand:
            out[_RANK[c]] += 1
        return out

    def three_quarters(self, hand: Sequence[int]) -> int:
        """How many of the Three-Quarters ranks the hand covers in the right colour."""
        ranks = {_RANK[c] for c in hand if self.right_colour[c] and self.kind[c] == _THREE}
        return len(ranks)

    def worth(self, card: int, counts: Sequence[int], hand: Sequence[int]) -> float:
        """What ``card`` is worth in ``hand`` (which holds it; ``counts`` are its ranks)."""
        rank = _RANK[card]
        k = counts[rank]
        if k >= 3:
            return SHRONK
        kind = self.kind[card]
        if kind == _PAIR:
            return 7.0 if k == 2 else 2.0
        if kind == _SPECIAL:
            if k == 2:
                return 0.5
            paired = any(counts[r] == 2 for r in PAIR_RANKS)
            return 5.0 if paired else 3.0
        if kind == _FORCED:
            return 0.0
        if not self.right_colour[card]:
            return 0.1
        if any(c != card and _RANK[c] == rank and self.right_colour[c] for c in hand):
            return 0.3
        return 1.0 + 0.4 * self.three_quarters(hand)

    def gain(self, card: int, hand: Sequence[int]) -> float:
        """What taking ``card`` into ``hand`` would be worth (a forced card: nothing)."""
        if self.forced[card]:
            return SHRONK
        grown = [*hand, card]
        return self.worth(card, self.counts(grown), grown)

    # --- choosing --------------------------------------------------------------

    def best_pile(self, hand: Sequence[int], piles: Sequence[Sequence[int]]
                  ) -> tuple[int, float]:
        """The pile whose top card helps ``hand`` most, and how much (-1 when none)."""
        best, best_gain = -1, SHRONK
        for q, pile in enumerate(piles):
            if pile:
                g = self.gain(pile[-1], hand)
                if g > best_gain:
                    best, best_gain = q, g
        return best, best_gain

    def ranked_discards(self, hand: Sequence[int], taken: int) -> list[int]:
        """The cards ``hand`` may discard, least useful first (ties: the one others want
        least, then deck order)."""
        counts = self.counts(hand)
        free = [c for c in hand if not taken >> c & 1]
        return sorted(free, key=lambda c: (self.worth(c, counts, hand), self.wanted[c], c))

    def burial(self, piles: Sequence[Sequence[int]], me: int) -> int:
        """The pile to discard onto: the one whose top others would most like to take,
        else one's own."""
        best, best_want = me, 0.3
        for q, pile in enumerate(piles):
            if pile and self.wanted[pile[-1]] > best_want:
                best, best_want = q, self.wanted[pile[-1]]
        return best

    def plan(self, hand: Sequence[int], piles: Sequence[Sequence[int]], *, me: int,
             step: int, taken: int, pile_turn: bool, stack: bool,
             rng: random.Random | None = None, slip: float = 0.0) -> Plan:
        """The move for ``me`` holding ``hand``, and why. With ``rng``, a share ``slip``
        of the decisions makes a beginner's mistake: overlooking a useful pile card,
        throwing the second-worst card, or not burying anything."""

        def slips() -> bool:
            return rng is not None and rng.random() < slip

        discards = self.ranked_discards(hand, taken) if step != _DRAW else []
        may_draw = step in (_DRAW, _DRAW_AGAIN)
        if may_draw:
            q, g = self.best_pile(hand, piles)
            must_stack = step == _DRAW and pile_turn and stack
            if q >= 0 and g >= TAKE_AT and not must_stack and not slips():
                return Plan(_PILE + q, self.take_reason(piles[q][-1], hand))
            if stack and (step == _DRAW or len(hand) < BIG_HAND or not discards):
                if step == _DRAW_AGAIN:
                    return Plan(_STACK, "draws again after a special card")
                if must_stack and q >= 0 and g >= TAKE_AT:
                    return Plan(_STACK, "draws from the stack: no two turns in a row "
                                        "from the piles")
                return Plan(_STACK, "tries the stack: no pile card helps")
            if not discards:
                open_piles = [q for q, p in enumerate(piles) if p]
                return Plan(_PILE + (q if q >= 0 else open_piles[0]),
                            "takes what it can: no card may be discarded")
        card = discards[1] if len(discards) > 1 and slips() else discards[0]
        target = me if slips() else self.burial(piles, me)
        return Plan(_DISCARD + (card << 3) + target, self.discard_reason(card, hand, piles,
                                                                          target, me))

    def choose(self, state: Any, rng: random.Random) -> int:
        """The rollout's move in a :class:`~games.fizzbin.fast.FastFizzbin` (no noise)."""
        me = state.turn
        return self.plan(state.holding[me], state.piles, me=me, step=state.step,
                         taken=state.taken, pile_turn=state.pile_turn[me],
                         stack=bool(state.stack)).move

    # --- words -----------------------------------------------------------------

    def take_reason(self, card: int, hand: Sequence[int]) -> str:
        """Why taking ``card`` from a pile helps ``hand``."""
        rank = _RANK[card]
        kind = self.kind[card]
        have = sum(1 for c in hand if _RANK[c] == rank)
        if kind == _PAIR and have == 1:
            return f"takes {_TEXT[card]} to make a pair of {_WORDS[rank]}"
        if kind == _SPECIAL:
            return f"takes {_TEXT[card]}, a special card towards a Full Fizzbin"
        if kind == _THREE:
            return f"takes {_TEXT[card]} towards Three-Quarters Fizzbin"
        return f"takes {_TEXT[card]} from the pile"

    def discard_reason(self, card: int, hand: Sequence[int], piles: Sequence[Sequence[int]],
                       target: int, me: int) -> str:
        """Why throwing ``card`` onto ``target``'s pile makes sense (or does not)."""
        counts = self.counts(hand)
        worth = self.worth(card, counts, hand)
        name = _TEXT[card]
        if worth <= SHRONK:
            what = f"breaks up three {RANK_NAMES[_RANK[card]]}s (Shronk always loses)"
        elif worth >= TAKE_AT:
            what = f"gives up {name}, a card worth keeping"
        else:
            what = f"throws away {name}, the least useful card"
        pile = piles[target] if target < len(piles) else []
        if target != me and pile and self.wanted[pile[-1]] > 0.3:
            return f"{what}, burying {_TEXT[pile[-1]]} where others could take it"
        return f"{what} onto {'its own' if target == me else 'a'} pile"


@cache
def tactics_for(night: bool) -> Tactics:
    """The shared rules of thumb by day or by night."""
    return Tactics(night=night)


__all__ = ["BIG_HAND", "TAKE_AT", "Plan", "Tactics", "tactics_for"]
