"""Fazes on the search fast path: one faze as integers and bitmasks, no validation.

:class:`FastFazes` plays exactly as :class:`~games.fazes.game.Fazes` does (the same
seat to act, the same legal cards, the same points), but a card is an ``int``
(``games.fazes.computer.bits``), a hand is a bitmask, a move is the card's integer, and
:meth:`FastFazes.play` trusts its move. It keeps no events, no history and no
generator.

The horizon is the end of the current faze. Each faze is scored on its own and the
next one is a fresh deal that no seat can know, so searching past it would only add
noise (and a world would have to invent that deal). :meth:`FastFazes.values` is the
faze's points for each seat, scaled to [0, 1] so that 1 is the best a seat can score
in this faze (the -50 of the last trick where there is one) and 0 the worst (every
point of the faze, as a moon shot by another seat gives).

>>> import games
>>> game = games.new_game("fazes", 4, {"fazes": [5]}, seed=3)
>>> state = FastFazes.from_game(game)
>>> [state.action(m).card.text for m in state.moves()]
['G2']
>>> while not state.done():
...     state.play(state.moves()[0])
>>> state.points()
[0, 0, -50, 0]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from games.core.actions import Action
from games.core.cards import Card
from games.fazes.cards import deck_for_players, hand_size
from games.fazes.computer.bits import (
    BLACK,
    CARDS,
    COLOUR_OF,
    G2,
    GREEN,
    INDEX,
    PLAY_OF,
    POINTS,
    RED,
    SEGMENT,
    SEGMENT_CARDS,
    SHIFT,
    YELLOW,
    cards_of,
    mask_of,
)
from games.fazes.computer.thumb import choose
from games.fazes.game import Fazes
from games.fazes.scoring import (
    LAST_TRICK_FAZES,
    LAST_TRICK_POINTS,
    SHOOTABLE_FAZES,
    has_trump,
    trick_points,
)

#: How often a rollout plays a random card of the colour its rule of thumb chose.
ROLLOUT_NOISE = 0.1

_OPENING = (G2,)
_REDS = SEGMENT_CARDS[RED]
_YELLOWS = SEGMENT_CARDS[YELLOW]
_GREENS = SEGMENT_CARDS[GREEN]
_BLACKS = SEGMENT_CARDS[BLACK]
_Y, _G, _B = SHIFT[YELLOW], SHIFT[GREEN], SHIFT[BLACK]


@dataclass(frozen=True, slots=True)
class FazeRules:
    """What stays fixed through one faze, shared by every copy of its states."""

    players: int
    faze: int
    trump: bool
    hand_size: int
    points: tuple[int, ...]  # per card
    per_trick: int
    total: int  # every point of the faze (what each other seat scores on a moon shot)
    shootable: bool
    last_trick: int  # what the last trick's winner scores besides (-50, or 0)
    best: int  # the lowest a seat can score in this faze
    span: int  # worst minus best, for values()

    @classmethod
    def of(cls, players: int, faze: int) -> FazeRules:
        """The rules of ``faze`` with ``players``."""
        points = POINTS[faze]
        size = hand_size(players)
        total = sum(points[INDEX[c]] for c in deck_for_players(players)) + (
            trick_points(faze) * size)
        last = LAST_TRICK_POINTS if faze in LAST_TRICK_FAZES else 0
        return cls(players=players, faze=faze, trump=has_trump(faze), hand_size=size,
                   points=points, per_trick=trick_points(faze), total=total,
                   shootable=faze in SHOOTABLE_FAZES, last_trick=last, best=last,
                   span=max(total, 0) - last)


_RULES = {(n, f): FazeRules.of(n, f) for n in range(3, 9) for f in range(1, 7)}


class FastFazes:
    """One faze of Fazes on the fast path (see the module docstring)."""

    __slots__ = ("final", "hands", "led", "played", "players", "pts", "rules", "to_move",
                 "trick_pts", "tricks_left", "win", "win_seat", "win_trump")

    rules: FazeRules
    players: int
    hands: list[int]  # per seat, a bitmask of the cards held
    pts: list[int]  # per seat, the points taken in tricks so far (no moon, no -50)
    to_move: int  # -1 once the faze is over
    led: int  # the led colour, -1 between tricks
    win: int  # the card winning the trick under way
    win_seat: int
    win_trump: bool  # whether that card is a red trump
    played: int  # cards in the trick under way
    trick_pts: int  # the points of those cards
    tricks_left: int  # tricks still to finish, the one under way included
    final: list[int] | None  # the faze's points, once it is over

    @classmethod
    def start(
        cls,
        players: int,
        faze: int,
        hands: Sequence[int],
        *,
        leader: int,
        tricks_left: int,
        pts: Sequence[int] | None = None,
        trick: Sequence[tuple[int, int]] = (),
    ) -> FastFazes:
        """A state from its parts: ``hands`` hold every card not yet played (those of
        ``trick``, the trick under way as (seat, card), still in them), ``leader`` leads
        that trick, and ``pts`` are the points taken so far."""
        state = cls.__new__(cls)
        state.rules = _RULES[(players, faze)]
        state.players = players
        state.hands = list(hands)
        state.pts = list(pts) if pts is not None else [0] * players
        state.to_move = leader
        state.led = -1
        state.win = state.win_seat = -1
        state.win_trump = False
        state.played = state.trick_pts = 0
        state.tricks_left = tricks_left
        state.final = None
        for seat, card in trick:
            assert seat == state.to_move, "the trick must be in play order"
            state.play(card)
        return state

    @classmethod
    def from_game(cls, game: Fazes) -> FastFazes:
        """The exact state of ``game``'s current faze (the last one, over, once it is)."""
        n = game.players
        if game.over:
            state = cls.start(n, game.faze, [0] * n, leader=0, tricks_left=0)
            state.to_move = -1
            state.final = list(game.rounds[-1])
            return state
        hands = [mask_of(h) for h in game.hands]
        for seat, card in game.plays:
            hands[seat] |= 1 << INDEX[card]
        leader = game.plays[0][0] if game.plays else game.to_act
        assert leader is not None
        return cls.start(
            n, game.faze, hands, leader=leader, tricks_left=game.hand_size - game.faze_tricks,
            pts=game.points_taken(), trick=[(s, INDEX[c]) for s, c in game.plays])

    # --- the SearchState protocol ---------------------------------------------------

    def to_act(self) -> int:
        return self.to_move

    def done(self) -> bool:
        return self.to_move < 0

    def moves(self) -> tuple[int, ...]:
        hand = self.hands[self.to_move]
        if self.played:
            led = self.led
            same = (hand >> SHIFT[led]) & SEGMENT
            if same:
                return SEGMENT_CARDS[led][same]
            if self.rules.trump and hand & SEGMENT:
                return _REDS[hand & SEGMENT]
        elif self.tricks_left == self.rules.hand_size:
            return _OPENING
        return (_REDS[hand & SEGMENT] + _YELLOWS[(hand >> _Y) & SEGMENT]
                + _GREENS[(hand >> _G) & SEGMENT] + _BLACKS[hand >> _B])

    def play(self, move: int) -> None:
        seat = self.to_move
        self.hands[seat] ^= 1 << move
        rules = self.rules
        if not self.played:
            self.led = COLOUR_OF[move]
            self.win = move
            self.win_seat = seat
            self.win_trump = rules.trump and move < SHIFT[YELLOW]
            self.trick_pts = rules.points[move]
            self.played = 1
        else:
            if rules.trump and move < SHIFT[YELLOW]:  # a red, and red is trump
                if not self.win_trump or move > self.win:
                    self.win, self.win_seat, self.win_trump = move, seat, True
            elif not self.win_trump and move > self.win and COLOUR_OF[move] == self.led:
                self.win, self.win_seat = move, seat
            self.trick_pts += rules.points[move]
            self.played += 1
            if self.played == rules.players:
                self._end_trick()
                return
        self.to_move = seat + 1 if seat + 1 < rules.players else 0

    def _end_trick(self) -> None:
        winner = self.win_seat
        self.pts[winner] += self.trick_pts + self.rules.per_trick
        self.played = 0
        self.led = -1
        self.tricks_left -= 1
        if self.tricks_left:
            self.to_move = winner
        else:
            self.to_move = -1
            self.final = self._score(winner)

    def _score(self, last_winner: int) -> list[int]:
        """The faze's points: the moon, then the last trick (as ``score_faze``)."""
        rules = self.rules
        points = list(self.pts)
        if rules.shootable and rules.total in points:
            shooter = points.index(rules.total)
            points = [rules.total] * rules.players
            points[shooter] = 0
        points[last_winner] += rules.last_trick
        return points

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.rules = self.rules
        new.players = self.players
        new.hands = self.hands[:]
        new.pts = self.pts[:]
        new.to_move = self.to_move
        new.led = self.led
        new.win = self.win
        new.win_seat = self.win_seat
        new.win_trump = self.win_trump
        new.played = self.played
        new.trick_pts = self.trick_pts
        new.tricks_left = self.tricks_left
        new.final = self.final
        return new

    def points(self) -> list[int]:
        """Each seat's points for the faze: final once done, else those taken so far."""
        return list(self.final) if self.final is not None else list(self.pts)

    def values(self) -> list[float]:
        rules = self.rules
        worst = rules.best + rules.span
        return [(worst - p) / rules.span for p in (self.final or self.pts)]

    def rollout_move(self, rng: random.Random) -> int:
        seat = self.to_move
        rules = self.rules
        hand = self.hands[seat]
        card, _ = choose(hand, faze=rules.faze, led=self.led, win=self.win,
                         win_trump=self.win_trump, played=self.played, players=rules.players,
                         tricks_left=self.tricks_left,
                         opening=not self.played and self.tricks_left == rules.hand_size)
        if rng.random() < ROLLOUT_NOISE:  # misjudge the ranks: any legal card of that colour
            colour = COLOUR_OF[card]
            alike = [c for c in self.moves() if COLOUR_OF[c] == colour]
            return alike[rng.randrange(len(alike))]
        return card

    def action(self, move: int) -> Action:
        return PLAY_OF[move]

    def move(self, action: Action) -> int:
        card: Card | None = action.card
        assert card is not None
        return INDEX[card]

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(CARDS[c].text for c in cards_of(h)) for h in self.hands)
        return (f"FastFazes(faze {self.rules.faze}, to act {self.to_move}, "
                f"{self.tricks_left} tricks left, hands {hands})")


__all__ = ["ROLLOUT_NOISE", "FastFazes", "FazeRules"]
