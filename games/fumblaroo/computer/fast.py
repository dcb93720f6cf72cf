"""Fumblaroo on the search fast path: one hand, bidding included, as integers.

Cards and hands are those of :mod:`games.fumblaroo.computer.bits`. Moves: a card ``c`` played is
``c``, discarded ``DISCARD + c``; then ``ORDER``, ``PASS``, ``PICK``, ``TURN`` and
``CALL + suit``. The search horizon is the end of the current hand: the next deal is a
fresh shuffle nobody can know (the state holds no generator). :meth:`values` weighs the
hand by the game: 1 to a player whom it makes the winner and 0 to the others; otherwise
0.5 plus the seat's points less the best of the others', over 12 (the most a hand can
give is 5, so this stays inside (0, 1)).

>>> import games
>>> game = games.new_game("fumblaroo", 3, seed=2)
>>> state = FumblarooState.from_game(game)
>>> [state.action(m) for m in state.moves()]
[Action('order'), Action('pass')]
>>> while not state.done():
...     state.play(state.moves()[-1])
>>> state.to_act(), sum(state.taken)
(-1, 5)
"""

from __future__ import annotations

import random
from typing import Self

from games.core.actions import Action, Verb
from games.fumblaroo.cards import SUITS
from games.fumblaroo.computer.bits import (
    CARD,
    CARD_ID,
    EFFECTIVE,
    FOLLOWS,
    SUIT,
    cards_of,
    hand_mask,
    trick_winner,
)
from games.fumblaroo.computer.thumb import (
    ORDER_AT,
    PICK_AT,
    after_pick,
    best_call,
    discard,
    follow,
    hand_weight,
    lead,
)
from games.fumblaroo.game import ORDER as ORDER_ACTION
from games.fumblaroo.game import PASS as PASS_ACTION
from games.fumblaroo.game import PICK as PICK_ACTION
from games.fumblaroo.game import TURN as TURN_ACTION
from games.fumblaroo.game import Fumblaroo, FumblarooVerb, Stage
from games.fumblaroo.scoring import TRICKS_PER_HAND, game_winner, hand_points

PLAYERS = 3
DISCARD = 32
ORDER, PASS, PICK, TURN, CALL = 64, 65, 66, 67, 68
BIDDING, DEALER, DISCARDING, CALLING, PLAYING, DONE = range(6)
_STAGE = {Stage.BIDDING: BIDDING, Stage.DEALER: DEALER, Stage.DISCARD: DISCARDING,
          Stage.CALLING: CALLING, Stage.PLAYING: PLAYING, Stage.OVER: DONE}
_VERB_MOVES: dict[Verb, int] = {FumblarooVerb.ORDER: ORDER, FumblarooVerb.PASS: PASS,
                                FumblarooVerb.PICK: PICK, FumblarooVerb.TURN: TURN}
_MOVE_ACTIONS = {ORDER: ORDER_ACTION, PASS: PASS_ACTION, PICK: PICK_ACTION, TURN: TURN_ACTION}
_SPREAD = 12.0


class FumblarooState:
    """One determinized world of Fumblaroo, to the end of the current hand.

    ``up`` is the up-card while it is up (else -1), ``turned`` the suit turned down
    (else -1), ``trump`` and ``caller`` -1 until made; ``scores`` are the totals before
    this hand and ``target`` the game's.
    """

    __slots__ = ("caller", "dealer", "hands", "leader", "passes", "scores", "stage",
                 "taken", "target", "trick", "trump", "turn", "turned", "up")

    players = PLAYERS

    def __init__(
        self,
        *,
        hands: list[int],
        dealer: int,
        stage: int,
        turn: int,
        up: int = -1,
        turned: int = -1,
        trump: int = -1,
        caller: int = -1,
        passes: int = 0,
        leader: int = -1,
        trick: list[int] | None = None,
        taken: list[int] | None = None,
        scores: list[int] | None = None,
        target: int = 10,
    ) -> None:
        self.hands = hands
        self.dealer = dealer
        self.stage = stage
        self.turn = turn
        self.up = up
        self.turned = turned
        self.trump = trump
        self.caller = caller
        self.passes = passes
        self.leader = leader
        self.trick = trick if trick is not None else []
        self.taken = taken if taken is not None else [0, 0, 0]
        self.scores = scores if scores is not None else [0, 0, 0]
        self.target = target

    @classmethod
    def from_game(cls, game: Fumblaroo) -> FumblarooState:
        """The exact current hand of ``game`` (for tests and measurements)."""
        over = game.over
        stage = DONE if over else _STAGE[game.stage]
        return cls(
            hands=[hand_mask(h) for h in game.hands],
            dealer=game.dealer,
            stage=stage,
            turn=-1 if over or game.to_act is None else game.to_act,
            up=CARD_ID[game.up_card] if game.up_card is not None else -1,
            turned=SUITS.index(game.turned_down[0].suit) if game.turned_down else -1,
            trump=SUITS.index(game.trump) if game.trump else -1,
            caller=-1 if game.caller is None else game.caller,
            passes=game.passes,
            leader=game.leader,
            trick=[CARD_ID[c] for _, c in game.trick],
            taken=list(game.taken),
            scores=[s - g for s, g in zip(game.scores, game.rounds[-1], strict=True)]
            if over and game.rounds else list(game.scores),
            target=game.options.target,
        )

    # --- the SearchState protocol ------------------------------------------------

    def to_act(self) -> int:
        return self.turn

    def done(self) -> bool:
        return self.stage == DONE

    def moves(self) -> tuple[int, ...]:
        stage = self.stage
        if stage == PLAYING:
            hand = self.hands[self.turn]
            if not self.trick:
                return cards_of(hand)
            trump = self.trump
            suit_follows = FOLLOWS[trump][EFFECTIVE[trump][self.trick[0]]]
            return cards_of(hand & suit_follows or hand)
        if stage == BIDDING:
            return (ORDER, PASS)
        if stage == DEALER:
            return (PICK, TURN)
        if stage == DISCARDING:
            return tuple(DISCARD + c for c in cards_of(self.hands[self.turn]))
        if stage == CALLING:
            return tuple(CALL + s for s in range(4) if s != self.turned)
        return ()

    def play(self, move: int) -> None:
        seat = self.turn
        if move < DISCARD:
            self._play_card(seat, move)
        elif move < ORDER:
            self.hands[seat] ^= 1 << (move - DISCARD)
            self._start_tricks()
        elif move == PASS:
            self.passes += 1
            if self.passes < PLAYERS - 1:
                self.turn = (seat + 1) % PLAYERS
            else:
                self.stage = DEALER
                self.turn = self.dealer
        elif move in (ORDER, PICK):
            self.trump = SUIT[self.up]
            self.caller = seat
            self.hands[self.dealer] |= 1 << self.up
            self.up = -1
            self.stage = DISCARDING
            self.turn = self.dealer
        elif move == TURN:
            self.turned = SUIT[self.up]
            self.up = -1
            self.stage = CALLING
            self.turn = (self.dealer + 1) % PLAYERS
        else:
            self.trump = move - CALL
            self.caller = seat
            self._start_tricks()

    def _start_tricks(self) -> None:
        self.stage = PLAYING
        self.leader = self.turn = (self.dealer + 1) % PLAYERS

    def _play_card(self, seat: int, card: int) -> None:
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        if len(trick) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return
        winner = (self.leader + trick_winner(trick, trump=self.trump)) % PLAYERS
        self.taken[winner] += 1
        self.trick = []
        self.leader = self.turn = winner
        if sum(self.taken) == TRICKS_PER_HAND:
            self.stage = DONE
            self.turn = -1

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.hands = self.hands[:]
        new.dealer = self.dealer
        new.stage = self.stage
        new.turn = self.turn
        new.up = self.up
        new.turned = self.turned
        new.trump = self.trump
        new.caller = self.caller
        new.passes = self.passes
        new.leader = self.leader
        new.trick = self.trick[:]
        new.taken = self.taken[:]
        new.scores = self.scores
        new.target = self.target
        return new

    def gained(self) -> list[int]:
        """Each seat's points for the hand (once done)."""
        return hand_points(self.taken, caller=self.caller)

    def values(self) -> list[float]:
        """By the game once done (see the module docstring); before, by tricks so far."""
        if self.stage != DONE:
            return _relative(self.taken, TRICKS_PER_HAND)
        gained = self.gained()
        totals = [s + g for s, g in zip(self.scores, gained, strict=True)]
        winner = game_winner(totals, target=self.target)
        if winner is not None:
            return [1.0 if p == winner else 0.0 for p in range(PLAYERS)]
        return _relative(gained, _SPREAD)

    def rollout_move(self, rng: random.Random) -> int:
        return thumb_move(self, rng)

    def action(self, move: int) -> Action:
        if move < DISCARD:
            return Action(FumblarooVerb.PLAY, CARD[move])
        if move < ORDER:
            return Action(FumblarooVerb.DISCARD, CARD[move - DISCARD])
        if move >= CALL:
            return Action(FumblarooVerb.CALL, arg=SUITS[move - CALL])
        return _MOVE_ACTIONS[move]

    def move(self, action: Action) -> int:
        if action.verb == FumblarooVerb.PLAY and action.card is not None:
            return CARD_ID[action.card]
        if action.verb == FumblarooVerb.DISCARD and action.card is not None:
            return DISCARD + CARD_ID[action.card]
        if action.verb == FumblarooVerb.CALL and action.arg is not None:
            return CALL + SUITS.index(action.arg)
        return _VERB_MOVES[action.verb]


def _relative(points: list[int], spread: float) -> list[float]:
    return [0.5 + (points[p] - max(points[q] for q in range(PLAYERS) if q != p)) / (2 * spread)
            for p in range(PLAYERS)]


def thumb_move(state: FumblarooState, rng: random.Random | None = None, *,
               waver: float = 0.0) -> int:
    """The rules of thumb (:mod:`games.fumblaroo.computer.thumb`) for the seat to act, reading
    only its hand and the table; ``waver`` shifts its judgement of its hand."""
    seat, stage = state.turn, state.stage
    hand = state.hands[seat]
    if stage == PLAYING:
        if not state.trick:
            return lead(hand, state.trump, caller=seat == state.caller)
        return follow(state.moves(), state.trick, state.trump)
    if stage == BIDDING:
        strong = hand_weight(hand, SUIT[state.up]) + waver >= ORDER_AT
        return ORDER if strong else PASS
    if stage == DEALER:
        strong = hand_weight(after_pick(hand, state.up), SUIT[state.up]) + waver >= PICK_AT
        return PICK if strong else TURN
    if stage == DISCARDING:
        return DISCARD + discard(hand, state.trump)
    return CALL + best_call(hand, state.turned)


__all__ = ["CALL", "DISCARD", "ORDER", "PASS", "PICK", "TURN", "FumblarooState", "thumb_move"]
