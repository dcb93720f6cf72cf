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
Plan(move=2, reason='it makes a pair of Aces for a Half Fizzbin')
>>> t.plan(hand, [[], [ids["AD"]]], me=0, step=0, taken=0, pile_turn=True, stack=True).move
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core.cards import FACE_RANKS as RANK_LABELS
from games.core.cards import standard_card_label
from games.fizzbin.cards import DECK, forced_ranks, is_red, special_ranks
from games.fizzbin.scoring import PAIR_RANKS, HandRank, rank_hand

_RANK = tuple(c.rank for c in DECK.cards)
_PAIR, _SPECIAL, _FORCED, _THREE = 0, 1, 2, 3

#: Gain a pile card must bring to be taken (completing a pair, a needed special card).
TAKE_AT = 3.0
#: A hand this big stops drawing again after a special card (Shronk grows likelier).
BIG_HAND = 8
SHRONK = -9.0

_WORDS = {1: "Aces", 11: "Jacks", 12: "Queens", 13: "Kings"}

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
        # Three-Quarters cards of the right colour: red by day, black by night.
        self.three = tuple(k == _THREE and is_red(c) != night
                           for k, c in zip(self.kind, DECK.cards, strict=True))
        self.special = tuple(sorted(special))
        # How much others would like a card on top of a pile (what a discard can bury).
        self.wanted = tuple((2.0, 1.5, -1.0, 0.3)[k] for k in self.kind)

    # --- judging cards ---------------------------------------------------------

    def profile(self, hand: Sequence[int]) -> tuple[list[int], list[int], int, bool]:
        """What judging ``hand``'s cards needs: cards per rank, Three-Quarters cards of
        the right colour per rank, how many Three-Quarters ranks those cover, and
        whether the hand holds a pair of aces, jacks or sevens."""
        counts = [0] * 14
        right = [0] * 14
        covered = 0
        three = self.three
        for c in hand:
            r = _RANK[c]
            counts[r] += 1
            if three[c]:  # only Three-Quarters ranks
                covered += not right[r]
                right[r] += 1
        paired = counts[1] == 2 or counts[11] == 2 or counts[7] == 2
        return counts, right, covered, paired

    def worth_in(self, card: int, prof: tuple[list[int], list[int], int, bool]) -> float:
        """What ``card`` is worth in the hand ``prof`` describes (a hand that holds it)."""
        counts, right, covered, paired = prof
        r = _RANK[card]
        k = counts[r]
        if k >= 3:
            return SHRONK
        kind = self.kind[card]
        if kind == _PAIR:
            return 7.0 if k == 2 else 2.0
        if kind == _SPECIAL:
            return 0.5 if k == 2 else 5.0 if paired else 3.0
        if kind == _FORCED:
            return 0.0
        if not self.three[card]:
            return 0.1
        return 0.3 if right[r] > 1 else 1.0 + 0.4 * covered

    def gain_in(self, card: int, prof: tuple[list[int], list[int], int, bool]) -> float:
        """What taking ``card`` into the hand ``prof`` describes would be worth (a forced
        card: nothing, it would only go onto one's own pile)."""
        if self.forced[card]:
            return SHRONK
        counts, right, covered, paired = prof
        r = _RANK[card]
        k = counts[r] + 1
        if k >= 3:
            return SHRONK
        kind = self.kind[card]
        if kind == _PAIR:
            return 7.0 if k == 2 else 2.0
        if kind == _SPECIAL:
            return 0.5 if k == 2 else 5.0 if paired else 3.0
        if not self.three[card]:
            return 0.1
        return 0.3 if right[r] else 1.0 + 0.4 * (covered + 1)

    def worth(self, card: int, hand: Sequence[int]) -> float:
        """What ``card`` is worth in ``hand`` (which holds it)."""
        return self.worth_in(card, self.profile(hand))

    def gain(self, card: int, hand: Sequence[int]) -> float:
        """What taking ``card`` into ``hand`` would be worth."""
        return self.gain_in(card, self.profile(hand))

    # --- choosing --------------------------------------------------------------

    def move(self, hand: Sequence[int], piles: Sequence[Sequence[int]], me: int, step: int,
             taken: int, pile_turn: bool, stack: bool, *, overlook: bool = False,
             second: bool = False, no_bury: bool = False) -> int:
        """The rules of thumb's move (see the module docstring). The flags are the
        beginner's mistakes: ``overlook`` a useful pile card, throw the ``second``-worst
        card, bury nothing (``no_bury``)."""
        prof = self.profile(hand)
        if step in (_DRAW, _DRAW_AGAIN):
            if not overlook and not (step == _DRAW and pile_turn):
                best, best_gain = -1, TAKE_AT
                for q, pile in enumerate(piles):
                    if pile:
                        g = self.gain_in(pile[-1], prof)
                        if g >= best_gain and (best < 0 or g > best_gain):
                            best, best_gain = q, g
                if best >= 0:
                    return _PILE + best
            free = any(not taken >> c & 1 for c in hand) if taken else bool(hand)
            if stack and (step == _DRAW or len(hand) < BIG_HAND or not free):
                return _STACK
            if not free:
                return _PILE + next(q for q, pile in enumerate(piles) if pile)
        worst, worst_key, runner, runner_key = -1, (99.0, 9.0, 99), -1, (99.0, 9.0, 99)
        for c in hand:
            if taken >> c & 1:
                continue
            key = (self.worth_in(c, prof), self.wanted[c], c)
            if key < worst_key:
                runner, runner_key = worst, worst_key
                worst, worst_key = c, key
            elif key < runner_key:
                runner, runner_key = c, key
        card = runner if second and runner >= 0 else worst
        target = me if no_bury else self.burial(piles, me)
        return _DISCARD + (card << 3) + target

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
        """:meth:`move` and why. With ``rng``, each of the three beginner's mistakes
        happens in a share ``slip`` of the decisions."""

        def slips() -> bool:
            return rng is not None and rng.random() < slip

        move = self.move(hand, piles, me, step, taken, pile_turn, stack, overlook=slips(),
                         second=slips(), no_bury=slips())
        return Plan(move, self.reason(move, hand, piles, me=me, step=step,
                                      pile_turn=pile_turn))

    def choose(self, state: Any, rng: random.Random) -> int:
        """The rollout's move in a :class:`~games.fizzbin.computer.fast.FastFizzbin` (no noise)."""
        me = state.turn
        return self.move(state.holding[me], state.piles, me, state.step, state.taken,
                         state.pile_turn[me], bool(state.stack))

    # --- words -----------------------------------------------------------------

    def reason(self, move: int, hand: Sequence[int], piles: Sequence[Sequence[int]], *,
               me: int, step: int, pile_turn: bool) -> str:
        """Why ``move`` is good, said to the player who holds ``hand`` (for the hint)."""
        if move >= _DISCARD:
            return self.discard_reason((move >> 3) - (_DISCARD >> 3), hand, piles, move & 7,
                                       me)
        if move == _STACK:
            if step == _DRAW_AGAIN:
                return "your special card lets you draw again"
            prof = self.profile(hand)
            useful = any(pile and self.gain_in(pile[-1], prof) >= TAKE_AT for pile in piles)
            if useful and step == _DRAW and pile_turn:
                return "you took from a pile last turn, and the stack keeps the hand moving"
            return "no pile card helps your hand" if not useful else \
                "the stack may bring more than the piles"
        pile = piles[move - _PILE]
        if not pile:
            return ""
        top = pile[-1]
        if self.forced[top]:
            return "it is forced, so it goes straight onto your own pile"
        if step == _DRAW and pile_turn:
            return "you take from a pile again instead of drawing from the stack"
        if self.gain(top, hand) >= TAKE_AT:
            return self.take_reason(top, hand)
        return "you know what you get, though it helps little"

    def take_reason(self, card: int, hand: Sequence[int]) -> str:
        """Why taking ``card`` from a pile helps ``hand``, said to its holder."""
        rank = _RANK[card]
        kind = self.kind[card]
        have = sum(1 for c in hand if _RANK[c] == rank)
        if kind == _PAIR and have == 1:
            return f"it makes a pair of {_plural(rank)} for a Half Fizzbin"
        if kind == _SPECIAL:
            return "a special card, one of the two a Full Fizzbin needs"
        if kind == _THREE:
            return "it brings you closer to a Three-Quarters Fizzbin"
        return "you can use it"

    def discard_reason(self, card: int, hand: Sequence[int], piles: Sequence[Sequence[int]],
                       target: int, me: int) -> str:
        """Why throwing ``card`` onto ``target``'s pile makes sense, said to the player."""
        worth = self.worth(card, hand)
        if worth <= SHRONK:
            what = f"three {_plural(_RANK[card])} would be a Shronk, which always loses"
        elif worth >= TAKE_AT:
            what = "you give up a card worth keeping, for a better hand"
        elif self.wanted[card] >= 1.5:
            what = "others may want it, but it does the least for you"
        else:
            what = "it does nothing for your hand"
        parts = [what]
        kept = self.keeping([c for c in hand if c != card])
        if kept:
            parts.append(kept)
        pile = piles[target] if target < len(piles) else []
        if target != me and pile and self.wanted[pile[-1]] > 0.3:
            parts.append(f"it buries {standard_card_label(DECK.cards[pile[-1]])}, "
                         "which others could take")
        return "; ".join(parts)

    def keeping(self, hand: Sequence[int]) -> str:
        """What ``hand`` holds toward a winning Fizzbin hand, said to its holder ("" for
        nothing yet)."""
        rank = rank_hand((DECK.cards[c] for c in hand), night=self.night)
        if rank in (HandRank.ROYAL, HandRank.FULL, HandRank.THREE_QUARTERS):
            return f"you keep a {rank.title}"
        if rank is HandRank.HALF:
            counts = self.profile(hand)[0]
            pair = next(r for r in sorted(PAIR_RANKS) if counts[r] == 2)
            return f"you keep the pair of {_plural(pair)} for a Half Fizzbin"
        return ""


def _plural(rank: int) -> str:
    """A rank in words, as many of it: "Aces", "Jacks", "7s"."""
    return _WORDS.get(rank, f"{RANK_LABELS.get(rank, str(rank))}s")


@cache
def tactics_for(night: bool) -> Tactics:
    """The shared rules of thumb by day or by night."""
    return Tactics(night=night)


__all__ = ["BIG_HAND", "TAKE_AT", "Plan", "Tactics", "tactics_for"]
