"""A toy game on the search fast path, whose best move is known, for testing the search.

The seat to act picks one of ``len(strengths)`` moves; then ``length`` filler moves
are played, and the seat wins with the chosen move's strength as its probability:
each world holds a hidden draw ``luck`` and the seat wins when ``luck < strength``.
Each world is a fresh state; ``ToyKnowledge`` counts the worlds and the moves played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.core.actions import Action, Verb
from games.players.base import Decision, Perspective


class ToyVerb(Verb):
    PICK = "pick"


CHOICES = tuple(Action(ToyVerb.PICK, None, str(i)) for i in range(8))


@dataclass
class Counter:
    worlds: int = 0
    moves: int = 0


class ToyState:
    players = 2

    def __init__(
        self, strengths: Sequence[float], length: int, counter: Counter, luck: float
    ) -> None:
        self.strengths = strengths
        self.luck = luck
        self.length = length
        self.counter = counter
        self.choice = -1
        self.left = length

    def to_act(self) -> int:
        return -1 if self.done() else 0

    def done(self) -> bool:
        return self.choice >= 0 and self.left == 0

    def moves(self) -> Sequence[int]:
        return range(len(self.strengths)) if self.choice < 0 else (0,)

    def play(self, move: int) -> None:
        self.counter.moves += 1
        if self.choice < 0:
            self.choice = move
        else:
            self.left -= 1

    def copy(self) -> ToyState:
        twin = ToyState(self.strengths, self.length, self.counter, self.luck)
        twin.choice, twin.left = self.choice, self.left
        return twin

    def values(self) -> Sequence[float]:
        won = self.luck < self.strengths[self.choice]
        return (1.0, 0.0) if won else (0.0, 1.0)

    def rollout_move(self, rng: random.Random) -> int:
        return 0

    def action(self, move: int) -> Action:
        return CHOICES[move]

    def move(self, action: Action) -> int:
        return CHOICES.index(action)


@dataclass
class ToyKnowledge:
    strengths: Sequence[float]
    length: int = 3
    game: str = "toy"
    counter: Counter = field(default_factory=Counter)

    def redact(self, seat: int, actor: int, action: str) -> str:
        return action

    def sample(self, p: Perspective, rng: random.Random) -> ToyState:
        self.counter.worlds += 1
        return ToyState(self.strengths, self.length, self.counter, rng.random())

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        return Decision(p.legal[0], "the first")

    def why(self, p: Perspective, action: Action) -> str:
        return f"picks {action.arg}"

    def from_game(self, game: object) -> ToyState:
        return ToyState(self.strengths, self.length, self.counter, 0.5)
