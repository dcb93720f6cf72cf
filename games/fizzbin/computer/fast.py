"""Fizzbin on the search fast path: one hand as flat lists of integer cards and moves.

:class:`FastFizzbin` is the :class:`~games.players.base.SearchState` of Fizzbin. It plays
exactly the rules of :class:`~games.fizzbin.game.Fizzbin` for the hand under way, without
validation, events or strings, so that a search can copy and play it out thousands of
times per decision. Its horizon is at most the end of the current hand: that is where
Fizzbin scores (one point to the one best hand) and where everything is reshuffled, so
nothing the search could learn lies beyond it. A sampled world for the computer
players looks only one round of turns ahead (``turns``): a hand's end is a long,
chaotic way off, and flat Monte Carlo over some 28 discards drowned in the noise of
whole-hand playouts (hard won 9 % of one-hand games against easy players that way);
a round ahead, the ranks the hands reach are a much steadier signal.

Cards are their index in :data:`~games.fizzbin.cards.DECK` (``rank - 1 + 13 * suit``).
Moves are integers: ``0`` draws the stack, ``1 + q`` draws the top of ``q``'s pile,
``64 + 8 * card + t`` discards ``card`` onto ``t``'s pile.

A random playout from mid-hand is some 150 moves to the hand's end, so the cost of a move
is what counts: the state keeps a bitmask of the sources one may draw from (``sources``)
so that the draw moves are a shared tuple looked up, not built; a card's kind (plain,
special, forced) is one table lookup; and whether a drawer may still discard is a count
(the cards taken from a pile this turn are all still in the hand), not a scan.

>>> import games
>>> from games.fizzbin.computer.fast import FastFizzbin
>>> game = games.new_game("fizzbin", 4, {"time": "day"}, seed=3)
>>> state = FastFizzbin.from_game(game)
>>> [str(state.action(m)) for m in state.moves()]
['draw stack']
>>> while not state.done():
...     state.play(state.moves()[0])
>>> state.to_act(), len(state.values())
(-1, 4)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from typing import Any, Self

from games.core.actions import STACK, Action
from games.core.cards import Card
from games.fizzbin.cards import DECK, forced_ranks, special_ranks
from games.fizzbin.computer.history import split_hands, turn_flags
from games.fizzbin.computer.thumb import Tactics, tactics_for
from games.fizzbin.game import FizzbinVerb
from games.fizzbin.scoring import PAIR_RANKS, THREE_QUARTER_RANKS, HandRank, judge

#: The draw of the stack; ``DRAW_PILE + q`` draws ``q``'s pile; see :func:`discard_move`.
DRAW_STACK = 0
DRAW_PILE = 1
DISCARD_BASE = 64

# Steps of a turn, as in :class:`games.fizzbin.game.Step`; HORIZON: the search's horizon
# came before the hand's end (done, but not over).
DRAW, DRAW_AGAIN, DISCARD, OVER, HORIZON = 0, 1, 2, 3, 4
# A card's kind by day or by night (see _kinds).
PLAIN, SPECIAL, FORCED = 0, 1, 2

CARD_ID: dict[Card, int] = {c: i for i, c in enumerate(DECK.cards)}
RANK: tuple[int, ...] = tuple(c.rank for c in DECK.cards)

# Hand ranks by strength (HandRank.strength), and back.
_BY_STRENGTH = {r.strength: r for r in HandRank}
#: How sharply :meth:`FastFizzbin.values` favours a better-ranked hand before the end.
SOFTNESS = 1.5
_WEIGHT = tuple(math.exp(SOFTNESS * s) for s in range(len(_BY_STRENGTH)))


def discard_move(card: int, target: int) -> int:
    """The move that discards ``card`` onto ``target``'s pile."""
    return DISCARD_BASE + (card << 3) + target


@cache
def _discard_moves(players: int) -> tuple[tuple[int, ...], ...]:
    """Per card, its discard moves onto every pile in player order (shared, immutable)."""
    return tuple(tuple(discard_move(c, t) for t in range(players)) for c in range(len(RANK)))


@cache
def _draw_moves(players: int) -> tuple[tuple[int, ...], ...]:
    """Per (stack non-empty, bitmask of non-empty piles), the draw moves in order."""
    out = []
    for mask in range(2 << players):
        stack, piles = mask & 1, mask >> 1
        out.append(((DRAW_STACK,) if stack else ())
                   + tuple(DRAW_PILE + q for q in range(players) if piles >> q & 1))
    return tuple(out)


@cache
def _kinds(night: bool) -> tuple[int, ...]:
    """Per card: PLAIN, SPECIAL (draw again) or FORCED (onto one's own pile), by day or
    by night."""
    special, forced = special_ranks(night=night), forced_ranks(night=night)
    return tuple(SPECIAL if r in special else FORCED if r in forced else PLAIN for r in RANK)


# Hand ranking on a bitmask of cards: the deck is four 13-bit suits (spades, hearts,
# diamonds, clubs), each bit a rank (ace lowest), so a rank's bits line up across suits.
_SUIT = (1 << 13) - 1
_PAIR_BITS = sum(1 << (r - 1) for r in PAIR_RANKS)
_THREE_QUARTER_BITS = sum(1 << (r - 1) for r in THREE_QUARTER_RANKS)
_SPECIAL_BITS = {night: sum(1 << (r - 1) for r in special_ranks(night=night))
                 for night in (False, True)}
_ROYAL, _FULL, _THREE_QUARTERS, _HALF, _NOTHING, _SHRONK = (
    HandRank.ROYAL.strength, HandRank.FULL.strength, HandRank.THREE_QUARTERS.strength,
    HandRank.HALF.strength, HandRank.NOTHING.strength, HandRank.SHRONK.strength)


def rank_strength(hand: Sequence[int], night: bool) -> int:
    """:func:`games.fizzbin.scoring.rank_hand` on integer cards, as a strength (5 best).

    The search scores a hand at the end of every playout, so this counts ranks with a
    few operations on the suits' bitmasks instead of card by card: ``two`` holds the
    ranks present in at least two suits, ``three`` in at least three.
    """
    mask = 0
    for c in hand:
        mask |= 1 << c
    s, h, d, c = mask & _SUIT, mask >> 13 & _SUIT, mask >> 26 & _SUIT, mask >> 39
    sh, dc = s & h, d & c
    if sh & (d | c) or dc & (s | h):
        return _SHRONK
    pairs = ((sh | dc | (s | h) & (d | c)) & _PAIR_BITS).bit_count()  # exactly two now
    special = _SPECIAL_BITS[night]
    if pairs and (s | h | d | c) & special == special:
        return _ROYAL if pairs >= 2 else _FULL
    right = s | c if night else h | d  # black by night, red by day
    if right & _THREE_QUARTER_BITS == _THREE_QUARTER_BITS:
        return _THREE_QUARTERS
    return _HALF if pairs else _NOTHING


class FastFizzbin:
    """One Fizzbin hand in a determinized world, on the search fast path.

    Everything is by player (as in the rules core) except the turn order, which is
    ``after[p]``: the player on ``p``'s right, counter-clockwise. ``holding[p]`` is every
    card ``p`` holds, the face-up one included. ``pile_turn[p]`` says that ``p``'s last
    turn drew nothing from the stack: the computer players never take two such turns in
    a row (so a hand between computers always ends), and :meth:`values` scores a seat
    that did with 0, so no search can prefer it. ``sources`` is the bitmask of what may
    be drawn from: bit 0 the stack, bit ``1 + q`` ``q``'s pile (kept up to date by
    :meth:`play`, so that listing the draws is one lookup).
    """

    __slots__ = ("_after", "_discards", "_draws", "_kinds", "_tactics", "drew_stack",
                 "holding", "night", "pile_turn", "piles", "players", "sources", "stack",
                 "stalled", "step", "taken", "turn", "turns_left")

    def __init__(self, *, night: bool, holding: list[list[int]], piles: list[list[int]],
                 stack: list[int], to_act: int, after: Sequence[int], step: int = DRAW,
                 taken: int = 0, pile_turn: Sequence[bool] | None = None,
                 drew_stack: bool = False, turns: int | None = None) -> None:
        """``stack`` has its top card last, as does every pile; ``taken`` is the bitmask
        of the cards taken from a pile this turn (not this turn's discard). ``turns``
        puts the horizon that many turn ends ahead (the turn under way counts), if the
        hand has not ended by then; None: the end of the hand."""
        n = len(holding)
        self.players = n
        self.night = night
        self.holding = holding
        self.piles = piles
        self.stack = stack
        self.sources = (1 if stack else 0) | sum(2 << q for q, pile in enumerate(piles) if pile)
        self.turn = to_act
        self._after = tuple(after)
        self.turns_left = turns if turns is not None else 1 << 30
        self.step = HORIZON if self.turns_left <= 0 and step != OVER else step
        self.taken = taken
        self.pile_turn = list(pile_turn) if pile_turn is not None else [False] * n
        self.drew_stack = drew_stack
        self.stalled = [False] * n
        self._kinds = _kinds(night)
        self._draws = _draw_moves(n)
        self._discards = _discard_moves(n)
        self._tactics = tactics_for(night)

    @classmethod
    def from_game(cls, game: Any) -> FastFizzbin:
        """The exact state of a live :class:`~games.fizzbin.game.Fizzbin` (tests, benches)."""
        seating = game.seating
        n = game.players
        after = [seating.player_at(seating.right_of(seating.seat_of(p))) for p in range(n)]
        step = {"draw": DRAW, "draw again": DRAW_AGAIN, "discard": DISCARD,
                "over": OVER}[game.step.value]
        hand = split_hands(game.history, players=n, hands_done=len(game.results))[-1]
        pile_turn, drew_stack = turn_flags(hand, n, game.to_act)
        state = cls(
            night=game.night,
            holding=[[CARD_ID[c] for c in game.holding(p)] for p in range(n)],
            piles=[[CARD_ID[c] for c in pile] for pile in game.piles],
            stack=[CARD_ID[c] for c in game.stack],
            to_act=game.to_act if game.to_act is not None else -1,
            after=after,
            step=step,
            taken=sum(1 << CARD_ID[c] for c in game.taken),
            pile_turn=pile_turn,
            drew_stack=drew_stack,
        )
        return state

    # --- the protocol ----------------------------------------------------------

    def to_act(self) -> int:
        return -1 if self.step >= OVER else self.turn

    def done(self) -> bool:
        return self.step >= OVER

    def hand_over(self) -> bool:
        """Whether the hand has ended (the horizon may come sooner)."""
        return self.step == OVER

    def moves(self) -> Sequence[int]:
        """The draws (a shared tuple), or a new list with the discards: per free card in
        the order of the hand, onto every pile in player order."""
        step = self.step
        if step == DRAW:
            return self._draws[self.sources]
        if step >= OVER:
            return ()
        out = list(self._draws[self.sources]) if step == DRAW_AGAIN else []
        table = self._discards
        taken = self.taken
        if taken:
            for c in self.holding[self.turn]:
                if not taken >> c & 1:
                    out += table[c]
        else:
            for c in self.holding[self.turn]:
                out += table[c]
        return out

    def play(self, move: int) -> None:
        p = self.turn
        if move >= DISCARD_BASE:
            card, target = (move >> 3) - (DISCARD_BASE >> 3), move & 7
            self.holding[p].remove(card)
            self.piles[target].append(card)
            self.sources |= 2 << target
            self._end_turn(p)
            return
        if move == DRAW_STACK:
            stack = self.stack
            card = stack.pop()
            if not stack:
                self.sources &= ~1
            self.drew_stack = True
            taken = 0
        else:
            if self.step == DRAW and self.pile_turn[p]:
                self.stalled[p] = True
            pile = self.piles[move - DRAW_PILE]
            card = pile.pop()
            if not pile:
                self.sources &= ~(1 << move)  # pile q's bit is 1 << (1 + q), and move is 1 + q
            taken = 1 << card
        kind = self._kinds[card]
        hand = self.holding[p]
        if kind == FORCED:
            self.piles[p].append(card)
            self.sources |= 2 << p
            step = DISCARD
        else:
            hand.append(card)
            self.taken |= taken
            step = DRAW_AGAIN if kind == SPECIAL else DISCARD
        self.step = step
        # Every card taken from a pile this turn is still in the hand, so none is free to
        # discard when the counts agree. Then the turn ends, unless ``p`` may draw again.
        if len(hand) <= self.taken.bit_count() and not (step == DRAW_AGAIN and self.sources):
            self._end_turn(p)

    def _end_turn(self, p: int) -> None:
        self.taken = 0
        self.turns_left -= 1
        self.pile_turn[p] = not self.drew_stack
        self.drew_stack = False
        if not self.stack:
            self.step = OVER
            return
        self.step = DRAW if self.turns_left > 0 else HORIZON
        self.turn = self._after[p]

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.night = self.night
        new.holding = [h[:] for h in self.holding]
        new.piles = [p[:] for p in self.piles]
        new.stack = self.stack[:]
        new.sources = self.sources
        new.turn = self.turn
        new._after = self._after
        new.step = self.step
        new.taken = self.taken
        new.pile_turn = self.pile_turn[:]
        new.drew_stack = self.drew_stack
        new.stalled = self.stalled[:]
        new.turns_left = self.turns_left
        new._kinds = self._kinds
        new._draws = self._draws
        new._discards = self._discards
        new._tactics = self._tactics
        return new

    def strengths(self) -> list[int]:
        """Every player's hand rank as a strength (:attr:`HandRank.strength`), shown now."""
        return [rank_strength(h, self.night) for h in self.holding]

    def result(self) -> tuple[int | None, int | None, list[HandRank]]:
        """The hand's winner, loser and ranks if it ended now (exact once it is over)."""
        ranks = [_BY_STRENGTH[s] for s in self.strengths()]
        winner, loser = judge(ranks)
        return winner, loser, ranks

    def values(self) -> list[float]:
        """Per seat in [0.02, 1]; 0 for a seat that stalled (see the class docstring).

        Once the hand is over, its points lead: the winner gains a point on everybody,
        1; nobody winning keeps the match as it was, ``1/n`` (an even seat's share);
        another's win costs a point, 0. Before that (a horizon a round of turns ahead),
        an estimate: half that lead as if the hand ended now, half a soft share of the
        hands' ranks (:data:`SOFTNESS`), which tells a hand one card from a win from a
        hopeless one.
        """
        n = self.players
        strengths = self.strengths()
        best = max(strengths)  # judge()'s winner, on strengths
        if best >= _HALF and strengths.count(best) == 1:
            winner = strengths.index(best)
            raw = [float(p == winner) for p in range(n)]
        else:
            raw = [1.0 / n] * n
        if self.step != OVER:
            weights = [_WEIGHT[s] for s in strengths]
            total = sum(weights)
            raw = [0.5 * r + 0.5 * w / total for r, w in zip(raw, weights, strict=True)]
        return [0.0 if self.stalled[p] else 0.02 + 0.98 * raw[p] for p in range(n)]

    def rollout_move(self, rng: random.Random) -> int:
        """The easy rules of thumb, reading only the mover's hand and the piles' tops."""
        return self._tactics.choose(self, rng)

    def action(self, move: int) -> Action:
        return move_action(move)

    def move(self, action: Action) -> int:
        return action_move(action)


def move_action(move: int) -> Action:
    """The rules core's action for a fast-path move."""
    if move >= DISCARD_BASE:
        card = DECK.cards[(move >> 3) - (DISCARD_BASE >> 3)]
        return Action(FizzbinVerb.DISCARD, card, str(move & 7))
    if move == DRAW_STACK:
        return Action(FizzbinVerb.DRAW, arg=STACK)
    return Action(FizzbinVerb.DRAW, arg=str(move - DRAW_PILE))


def action_move(action: Action) -> int:
    """The fast-path move for a rules core's action."""
    if action.verb == FizzbinVerb.DISCARD and action.card is not None:
        return discard_move(CARD_ID[action.card], action.player_arg)
    if action.arg == STACK:
        return DRAW_STACK
    return DRAW_PILE + action.player_arg


__all__ = ["CARD_ID", "DISCARD", "DRAW", "DRAW_AGAIN", "DRAW_PILE", "DRAW_STACK", "OVER",
           "RANK", "FastFizzbin", "Tactics", "action_move", "discard_move", "move_action",
           "rank_strength"]
