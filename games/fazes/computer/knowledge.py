"""What Fazes teaches its computer players: rules of thumb, hints and a world sampler.

Every card in Fazes is played face up, so the history hides nothing (:meth:`redact`
changes no action). What a seat cannot see is the other hands; what it can infer is
who is void in which colour: a player who did not follow holds none of the led colour
and, when red is trump (fazes 1 and 6), one who played neither the led colour nor red
holds no red either. :meth:`FazesKnowledge.sample` deals the unseen cards at random to
the other hands, honouring their sizes and those voids.

Games between computers always end: every move plays a card, and a faze ends when the
hands are empty.

>>> import random, games
>>> from games.players import perspective
>>> game = games.new_game("fazes", 4, {"fazes": [3]}, seed=2)
>>> for _ in range(5):
...     _ = game.apply(game.to_act, game.legal_actions()[0])
>>> p = perspective(game, game.to_act)
>>> KNOWLEDGE.easy(p, random.Random(0))
Decision(action=Action('play Y3'), reason='you slip a point card under the winning card', odds='')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from games.core.actions import Action
from games.core.game import Game
from games.fazes.cards import COLOUR_NAMES, COLOURS, FULL_DECK, deck_for_players, hand_size
from games.fazes.computer.bits import (
    CARDS,
    COLOUR_OF,
    INDEX,
    PLAY_OF,
    RED,
    mask_of,
    mask_of_ints,
)
from games.fazes.computer.fast import FastFazes
from games.fazes.computer.thumb import REASONS, choose
from games.fazes.game import Fazes, FazesVerb
from games.fazes.options import FazesOptions
from games.fazes.scoring import has_trump, points_taken
from games.fazes.tricks import trick_winner
from games.players.base import Decision, Perspective, register_knowledge

#: How often the easy player misjudges ranks: a random legal card of the colour it chose.
EASY_NOISE = 0.15
#: Simulated moves per hard decision: the default fits Fazes. With 4 players it takes a
#: median 55 ms (p99 127 ms) of CPU per decision, well inside 300 ms (p99 1 s), and wins
#: 62 % of 200 games against three easy players (95 % interval 55-68 %; par is 25 %).
BUDGET = 20_000

ALL_COLOURS = (1 << len(COLOURS)) - 1


@dataclass(frozen=True, slots=True)
class Seen:
    """What one seat knows of the faze under way, on the fast path's integers."""

    players: int
    seat: int
    faze: int
    hand: int  # the seat's own cards
    trick: tuple[tuple[int, int], ...]  # the trick under way, (seat, card) in play order
    leader: int
    tricks_left: int
    pts: tuple[int, ...]  # points taken so far, per seat
    counts: tuple[int, ...]  # cards in each hand
    colours: tuple[int, ...]  # per seat, the colours it may still hold (a 4-bit mask)
    unseen: tuple[int, ...]  # the cards in other hands, sorted

    @property
    def opening(self) -> bool:
        return not self.trick and self.tricks_left == hand_size(self.players)


def seen(p: Perspective) -> Seen:
    """Read ``p`` into what the seat knows; :class:`ValueError` once the game is over."""
    if p.view.over:
        raise ValueError("the game is over: there is no faze to play")
    n = p.players
    options = cast(FazesOptions, p.options)
    faze = options.fazes[len(p.rounds)]
    hand_view = p.view.zone(f"hand:{p.seat}")
    assert hand_view.cards is not None
    hand = mask_of(hand_view.cards)
    taken = [p.view.zone(f"taken:{q}").cards or () for q in range(n)]
    played = mask_of(c for cards in taken for c in cards) | mask_of(c for _, c in p.view.trick)
    in_play = mask_of(deck_for_players(n))
    unseen = in_play & ~played & ~hand
    trick = tuple((s, INDEX[c]) for s, c in p.view.trick)
    leader = trick[0][0] if trick else p.view.to_act
    assert leader is not None
    done = sum(len(t) for t in taken) // n
    return Seen(
        players=n, seat=p.seat, faze=faze, hand=hand, trick=trick, leader=leader,
        tricks_left=hand_size(n) - done,
        pts=tuple(points_taken(faze, taken, [len(t) // n for t in taken])),
        counts=tuple(p.view.zone(f"hand:{q}").count for q in range(n)),
        colours=_colours_held(p, faze),
        unseen=tuple(c for c in range(len(CARDS)) if unseen >> c & 1),
    )


def faze_plays(p: Perspective) -> list[tuple[int, int]]:
    """The plays of the faze under way, (seat, card) in order, from ``p``'s history."""
    n = p.players
    return [_entry(e) for e in p.history[len(p.rounds) * n * hand_size(n):]]


def _colours_held(p: Perspective, faze: int) -> tuple[int, ...]:
    """Per seat, the colours it may still hold, from who failed to follow this faze."""
    n = p.players
    plays = faze_plays(p)
    colours = [ALL_COLOURS] * n
    trump = has_trump(faze)
    for start in range(0, len(plays), n):
        led = COLOUR_OF[plays[start][1]]
        for seat, card in plays[start + 1:start + n]:
            colour = COLOUR_OF[card]
            if colour != led:
                colours[seat] &= ~(1 << led)
                if trump and colour != RED:
                    colours[seat] &= ~(1 << RED)
    return tuple(colours)


def _entry(entry: str) -> tuple[int, int]:
    """A history entry ``"2 play G5"`` as (seat, card)."""
    seat, verb, card = entry.split()
    assert verb == FazesVerb.PLAY, entry
    return int(seat), INDEX[FULL_DECK.parse(card)]


def deal_unseen(s: Seen, rng: random.Random) -> list[int]:
    """Every hand as a bitmask: the seat's own, and the unseen cards dealt at random to
    the others, each receiving as many as it holds and none of a colour it is void in.

    Cards are dealt one by one in a shuffled (canonical, then ``rng``) order, each to a
    seat drawn in proportion to the room it has left, among the seats that may hold its
    colour and that leave the rest dealable (Hall's condition over sets of colours).
    """
    cards = list(s.unseen)
    rng.shuffle(cards)
    room = [0 if q == s.seat else s.counts[q] for q in range(s.players)]
    hands = [s.hand if q == s.seat else 0 for q in range(s.players)]
    others = [q for q in range(s.players) if room[q]]
    if all(s.colours[q] == ALL_COLOURS for q in others):  # nothing inferred: deal in turn
        at = 0
        for q in others:
            hands[q] = mask_of_ints(cards[at:at + room[q]])
            at += room[q]
        return hands
    left = [0] * len(COLOURS)
    for card in cards:
        left[COLOUR_OF[card]] += 1
    for card in cards:
        colour = COLOUR_OF[card]
        left[colour] -= 1
        choices = [q for q in others if room[q] and s.colours[q] >> colour & 1]
        while True:
            q = _weighted(choices, room, rng)
            room[q] -= 1
            if _dealable(left, room, others, s.colours):
                break
            room[q] += 1
            choices.remove(q)
        hands[q] |= 1 << card
    return hands


def _weighted(choices: list[int], room: list[int], rng: random.Random) -> int:
    """One of ``choices``, drawn in proportion to its ``room``."""
    pick = rng.randrange(sum(room[q] for q in choices))
    for q in choices:
        pick -= room[q]
        if pick < 0:
            return q
    raise AssertionError("no seat can take the card")  # pragma: no cover


def _dealable(left: list[int], room: list[int], others: list[int],
              colours: tuple[int, ...]) -> bool:
    """Whether ``left`` cards per colour fit the ``room`` of the seats allowed each colour:
    for every set of colours, its cards fit the seats that may hold one of them."""
    for subset in range(1, ALL_COLOURS + 1):
        need = sum(left[k] for k in range(len(COLOURS)) if subset >> k & 1)
        if need and need > sum(room[q] for q in others if colours[q] & subset):
            return False
    return True


def world(s: Seen, hands: list[int]) -> FastFazes:
    """The fast state of the faze under way with these hands (the trick's cards aside)."""
    full = list(hands)
    for seat, card in s.trick:
        full[seat] |= 1 << card
    return FastFazes.start(s.players, s.faze, full, leader=s.leader, tricks_left=s.tricks_left,
                           pts=s.pts, trick=s.trick)


def trick_state(trick: Sequence[tuple[int, int]], faze: int) -> tuple[int, int, bool]:
    """A trick so far ((seat, card) in order) as the rules of thumb read it: the led
    colour, the card winning it (by the rules' ``trick_winner``) and whether that card
    is a red trump; ``(-1, -1, False)`` before the lead."""
    if not trick:
        return -1, -1, False
    winner = trick_winner([(seat, CARDS[card]) for seat, card in trick], trump=has_trump(faze))
    win = next(card for seat, card in trick if seat == winner)
    return COLOUR_OF[trick[0][1]], win, has_trump(faze) and COLOUR_OF[win] == RED


def thumb(s: Seen) -> tuple[int, int]:
    """The rule-of-thumb card for the seat and why (``games.fazes.computer.thumb.choose``)."""
    led, win, win_trump = trick_state(s.trick, s.faze)
    return choose(s.hand, faze=s.faze, led=led, win=win, win_trump=win_trump,
                  played=len(s.trick), players=s.players, tricks_left=s.tricks_left,
                  opening=s.opening)


class FazesKnowledge:
    """Fazes' :class:`~games.players.base.Knowledge`."""

    game = "fazes"

    def __init__(self) -> None:
        # The last perspective read: the hard level samples many worlds from one.
        self._last: tuple[Perspective, Seen] | None = None

    def _seen(self, p: Perspective) -> Seen:
        last = self._last
        if last is not None and last[0] is p:
            return last[1]
        s = seen(p)
        self._last = (p, s)
        return s

    def redact(self, seat: int, actor: int, action: str) -> str:
        """Every card is played face up: nothing to hide."""
        return action

    def sample(self, p: Perspective, rng: random.Random) -> FastFazes:
        s = self._seen(p)
        return world(s, deal_unseen(s, rng))

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        s = self._seen(p)
        card, reason = thumb(s)
        if rng.random() < EASY_NOISE:
            colour = COLOUR_OF[card]
            alike = [a for a in p.legal if a.card is not None and a.card.suit == COLOURS[colour]]
            slip = alike[rng.randrange(len(alike))]
            if slip != PLAY_OF[card]:
                return Decision(slip, self.why(p, slip))
        return Decision(PLAY_OF[card], REASONS[reason])

    def why(self, p: Perspective, action: Action) -> str:
        """The rule of thumb's reason when ``action`` is its choice, else what the card
        does in the trick; "" for an action that is not legal (there is nothing to say)."""
        if action.card is None or action not in p.legal:
            return ""
        s = self._seen(p)
        card = INDEX[action.card]
        best, reason = thumb(s)
        if card == best:
            return REASONS[reason]
        return _describe(s, card)

    def from_game(self, game: Game[Any]) -> FastFazes:
        assert isinstance(game, Fazes)
        return FastFazes.from_game(game)


def _describe(s: Seen, card: int) -> str:
    """``card`` in a few words, when it is not the rule of thumb's choice."""
    if not s.trick:
        return "you lead low" if CARDS[card].rank <= 8 else "you lead high"
    led = COLOUR_OF[s.trick[0][1]]
    colour = COLOUR_OF[card]
    plays = [(seat, CARDS[c]) for seat, c in s.trick]
    trump = has_trump(s.faze)
    winner = trick_winner([*plays, (s.seat, CARDS[card])], trump=trump)
    if colour == led:
        return "it wins the trick so far" if winner == s.seat else \
            "it stays under the winning card"
    if trump and colour == RED:
        return "you trump in" if winner == s.seat else "you trump under a higher red"
    return f"you have no {COLOUR_NAMES[COLOURS[led]]}, so you discard"


KNOWLEDGE = register_knowledge(FazesKnowledge())

__all__ = ["BUDGET", "EASY_NOISE", "KNOWLEDGE", "FazesKnowledge", "Seen", "deal_unseen",
           "faze_plays", "seen", "trick_state"]
