"""Fibonachos on the search fast path: one round as integers and bitmasks.

Cards, hands and moves are those of :mod:`games.fibonachos.computer.bits`: a move is the
integer of the card played. The search horizon is the end of the current round: the
next round is a fresh shuffle nobody can know (the state holds no generator), and the
round's points are what a player can still change. :meth:`FibonachosState.values` is
each seat's points for the round over 34, the most a round can give.

>>> import games
>>> game = games.new_game("fibonachos", 4, seed=3)
>>> state = FibonachosState.from_game(game)
>>> [state.action(m) for m in state.moves()][:3]
[Action('play R1'), Action('play R5'), Action('play R11')]
>>> while not state.done():
...     state.play(state.moves()[0])
>>> state.to_act(), len(state.values())
(-1, 4)
"""

from __future__ import annotations

import random
from typing import Self

from games.core.actions import Action
from games.fibonachos.computer.bits import (
    CARD,
    CARD_ID,
    SCORE_SHARE,
    SECOND,
    add_card,
    card_id,
    hand_mask,
    legal_moves,
    trick_winner,
)
from games.fibonachos.computer.thumb import choose
from games.fibonachos.game import PLAY, Fibonachos


class FibonachosState:
    """One determinized world of Fibonachos, to the end of the current round.

    ``decks`` (two players only) and ``spicy`` keep their top card last, so drawing is
    ``pop()``; ``prize`` is the face-up Spicy value, 0 once the deck is gone; ``won`` is
    each seat's Spicy sum this round.
    """

    __slots__ = ("decks", "hands", "leader", "players", "prize", "size", "spicy",
                 "trick", "tricks_left", "turn", "won")

    def __init__(
        self,
        *,
        players: int,
        hands: list[int],
        decks: list[list[int]],
        trick: list[int],
        leader: int,
        turn: int,
        tricks_left: int,
        spicy: list[int],
        prize: int,
        won: list[int],
    ) -> None:
        self.players = players
        self.size = 4 if players == 2 else players
        self.hands = hands
        self.decks = decks
        self.trick = trick
        self.leader = leader
        self.turn = turn
        self.tricks_left = tricks_left
        self.spicy = spicy
        self.prize = prize
        self.won = won

    @classmethod
    def from_game(cls, game: Fibonachos) -> FibonachosState:
        """The exact current round of ``game`` (for tests and measurements)."""
        over = game.over
        return cls(
            players=game.players,
            hands=[hand_mask(h) for h in game.hands],
            decks=[[card_id(c) for c in reversed(d)] for d in game.decks],
            trick=[card_id(c) for _, c in game.trick],
            leader=game.leader,
            turn=-1 if over or game.to_act is None else game.to_act,
            tricks_left=0 if over else game.tricks_per_round - game.round_tricks,
            spicy=[c.rank for c in reversed(game.spicy)],
            prize=game.prize[0].rank if game.prize else 0,
            won=[sum(c.rank for c in w) for w in game.won],
        )

    # --- the SearchState protocol ------------------------------------------------

    def to_act(self) -> int:
        return self.turn

    def done(self) -> bool:
        return self.turn < 0

    def moves(self) -> tuple[int, ...]:
        return legal_moves(self.hands[self.turn], self.trick)

    def play(self, move: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        second = SECOND[move]
        hand = hand ^ second if hand & second else hand ^ (1 << move)
        if self.decks:
            deck = self.decks[seat]
            if deck:
                hand = add_card(hand, deck.pop())
        self.hands[seat] = hand
        trick = self.trick
        trick.append(move)
        if len(trick) < self.size:
            self.turn = (seat + 1) % self.players
        else:
            self._resolve()

    def _resolve(self) -> None:
        winner = (self.leader + trick_winner(self.trick)) % self.players
        self.won[winner] += self.prize
        self.prize = self.spicy.pop() if self.spicy else 0
        self.trick = []
        self.tricks_left -= 1
        self.leader = winner
        self.turn = winner if self.tricks_left else -1

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.size = self.size
        new.hands = self.hands[:]
        new.decks = [d[:] for d in self.decks] if self.decks else self.decks
        new.trick = self.trick[:]
        new.leader = self.leader
        new.turn = self.turn
        new.tricks_left = self.tricks_left
        new.spicy = self.spicy[:]
        new.prize = self.prize
        new.won = self.won[:]
        return new

    def values(self) -> list[float]:
        """Each seat's round points over 34 (before the end: as if the round ended now)."""
        return [SCORE_SHARE[w] for w in self.won]

    def rollout_move(self, rng: random.Random) -> int:
        seat = self.turn
        trick = self.trick
        return choose(
            self.hands[seat],
            trick,
            after=self.size - len(trick) - 1,
            spicy_sum=self.won[seat],
            prize=self.prize,
        )

    def action(self, move: int) -> Action:
        return PLAY[CARD[move]]

    def move(self, action: Action) -> int:
        assert action.card is not None
        return CARD_ID[action.card]


__all__ = ["FibonachosState"]
