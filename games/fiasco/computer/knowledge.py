"""What Fiasco teaches its computer players: rules of thumb, hints and a world sampler.

Nothing in Fiasco's history is hidden: claims and plays are face up, and the waste
pile is public. What a seat cannot see is the other hands and the stock, and
nothing in the rules narrows them down (there is no suit to follow, so play reveals
no voids): every way of dealing the unseen cards into those places, at their known
sizes, is consistent with the seat's perspective. The players' choices do say
something, though, so :meth:`FiascoKnowledge.sample` weighs such worlds by how well
they explain the other players' plays (:mod:`games.fiasco.computer.inference`) and draws one
by weight.

Every level keeps a game finite: each move plays a card from a hand, so a deal ends
after at most its 54 cards; only the extended game deals again, until someone holds
42 points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from games.core.actions import Action
from games.core.cards import Card
from games.core.game import Game
from games.fiasco.cards import FULL_DECK, SUITS, four_suit_deck
from games.fiasco.computer.bits import (
    CARD_ID,
    CARDS,
    FIASCO_ID,
    KING_ID,
    RANK,
    collect_mask,
    hand_int,
    stack_of,
)
from games.fiasco.computer.fast import CLAIMING, DONE, FiascoState, from_game, set_pending
from games.fiasco.computer.inference import batch_sizes, clues, weight
from games.fiasco.computer.thumb import EASY_NOISE, Assessment, assess, choose
from games.fiasco.game import Fiasco, FiascoVerb, claim_order
from games.fiasco.options import FiascoOptions
from games.players.base import Decision, Perspective, register_knowledge
from games.players.weighed import WeighedPool

#: Simulated moves per hard decision proposed for Fiasco: the default, 20,000. With
#: the weighed sampler it beat 5,000 against three easy players (0.44 against 0.40 of
#: the wins over the same first 120 deals) and stays inside a second on one core.
BUDGET = 20_000
#: Uniform worlds weighed, once per perspective, by how well they explain the other
#: players' plays; every sampled world is drawn from them by weight.
POOL = 256


class Situation:
    """The seat to act's view of the pot, in the fast path's ints (what tactics read)."""

    __slots__ = ("after", "coll", "collects", "hand", "pot", "top", "top_mine", "top_player")

    def __init__(self, p: Perspective, claims: Sequence[Sequence[str]]) -> None:
        view = p.view
        seat = p.seat
        opts = cast(FiascoOptions, p.options)
        self.hand = hand_int(_cards(p, f"hand:{seat}"))
        self.pot = [CARD_ID[c] for c in _cards(p, "pot")]
        self.coll = stack_of(_cards(p, f"collection:{seat}"))
        self.collects = collect_mask([SUITS.index(s) for s in claims[seat]])
        self.top, self.top_player = -1, -1
        for player, card in view.trick:
            if card.rank > self.top:
                self.top, self.top_player = card.rank, player
        half = p.players // 2
        self.top_mine = self.top_player >= 0 and (
            self.top_player == seat
            or (opts.teams and self.top_player % half == seat % half)
        )
        self.after = p.players - len(view.trick) - 1

    def assess(self) -> list[Assessment]:
        """Every card in hand with the rules of thumb's score."""
        return assess(hand=self.hand, pot=self.pot, top=self.top, top_mine=self.top_mine,
                      after=self.after, coll=self.coll, collects=self.collects)


class FiascoKnowledge:
    """Fiasco's :class:`~games.players.base.Knowledge`."""

    game = "fiasco"

    def redact(self, seat: int, actor: int, action: str) -> str:
        """Every Fiasco action is seen by all (claims and plays are face up)."""
        return action

    def __init__(self) -> None:
        self._worlds: Worlds | None = None  # of the last perspective sampled

    def sample(self, p: Perspective, rng: random.Random) -> FiascoState:
        opts = cast(FiascoOptions, p.options)
        claims = claims_of(p)
        if p.view.over or p.view.to_act is None:
            state = _empty_deal(p, claims)
            state.phase = DONE
            state.turn = -1
            return state
        if sum(map(len, claims)) < len(claim_order(p.players, p.dealer, opts.suits)):
            state = _empty_deal(p, claims)
            _sample_claiming(state, p, rng)
            return state
        if self._worlds is None or self._worlds.p is not p:
            self._worlds = Worlds(p, claims)
        return self._worlds.draw(rng)

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        if p.legal[0].verb == FiascoVerb.CHOOSE:
            action = rng.choice(p.legal)
        else:
            s = Situation(p, claims_of(p))
            card = choose(hand=s.hand, pot=s.pot, top=s.top, top_mine=s.top_mine,
                          after=s.after, coll=s.coll, collects=s.collects, rng=rng,
                          noise=EASY_NOISE)
            action = Action(FiascoVerb.PLAY, CARDS[card])
        return Decision(action, self.why(p, action))

    def why(self, p: Perspective, action: Action) -> str:
        if action.verb == FiascoVerb.CHOOSE:
            return "every suit has the same seven cards, so any will do"
        assert action.card is not None
        s = Situation(p, claims_of(p))
        found = {a.card: a for a in s.assess()}
        mine = found.get(CARD_ID[action.card])
        if mine is None:
            return ""
        return _explain(mine, s, list(found.values()))

    def from_game(self, game: Game[Any]) -> FiascoState:
        assert isinstance(game, Fiasco)
        return from_game(game)


def claims_of(p: Perspective) -> list[list[str]]:
    """Each seat's claimed suits, read from the (public) history."""
    claims: list[list[str]] = [[] for _ in range(p.players)]
    for entry in p.history:
        actor, verb, *rest = entry.split()
        if verb == FiascoVerb.CHOOSE:
            claims[int(actor)].append(rest[0])
    return claims


def _cards(p: Perspective, zone: str) -> tuple[Card, ...]:
    """The cards of a zone the seat sees (every zone read here is visible to it)."""
    cards = p.view.zone(zone).cards
    assert cards is not None, f"{zone} is hidden from seat {p.seat}"
    return cards


def _sample_claiming(state: FiascoState, p: Perspective, rng: random.Random) -> None:
    """Claims still open: the coming deal is any order of the deck at all."""
    opts = cast(FiascoOptions, p.options)
    assert p.view.to_act is not None
    state.phase = CLAIMING
    state.turn = p.view.to_act
    state.claim_order = tuple(claim_order(p.players, p.dealer, opts.suits))
    four = opts.suits == "four"
    perm = list(range(40 if four else len(FULL_DECK)))
    rng.shuffle(perm)
    set_pending(state, perm, four=four)


class Worlds:
    """The worlds of one mid-deal perspective: what stays put in every one of them, the
    unseen cards, and the clues the other players' plays give about them (``size``: the
    uniform worlds weighed by them; ``temper``: the power the weights are raised to before
    drawing, :class:`~games.players.weighed.WeighedPool`)."""

    def __init__(self, p: Perspective, claims: Sequence[Sequence[str]], size: int = POOL,
                 temper: float = 1.0) -> None:
        view = p.view
        opts = cast(FiascoOptions, p.options)
        self.p = p
        self.base = _empty_deal(p, claims)
        four = opts.suits == "four"
        deck = four_suit_deck(s for c in claims for s in c) if four else FULL_DECK
        unseen = [CARD_ID[c] for c in deck.cards]
        for zone in view.zones:
            for card in zone.cards or ():
                unseen.remove(CARD_ID[card])
        self.unseen = sorted(unseen)
        self.hidden = [view.zone(f"hand:{s}").count if s != p.seat else 0
                       for s in range(p.players)]
        self.clues = clues(self.base, _deal_plays(p, len(deck)), seat=p.seat,
                           in_hand=view.zone(f"hand:{p.seat}").count, deck=len(deck))
        self._fill_public(self.base)
        self.size = size
        self.temper = temper
        self._pool: WeighedPool[FiascoState] | None = None

    def _fill_public(self, state: FiascoState) -> None:
        p, view = self.p, self.p.view
        state.hands = [0] * p.players
        state.hands[p.seat] = hand_int(_cards(p, f"hand:{p.seat}"))
        state.pot = [CARD_ID[c] for c in _cards(p, "pot")]
        state.colls = [stack_of(_cards(p, f"collection:{s}")) for s in range(p.players)]
        assert view.to_act is not None
        state.turn = view.to_act
        state.leader = view.trick[0][0] if view.trick else view.to_act
        state.set_round([(player, CARD_ID[card]) for player, card in view.trick])

    def uniform(self, rng: random.Random) -> FiascoState:
        """A world drawn uniformly: the unseen cards (sorted, then shuffled) dealt into
        the other hands at their sizes, the rest the stock."""
        unseen = self.unseen[:]
        rng.shuffle(unseen)
        state = self.base.copy()
        at = 0
        for seat, count in enumerate(self.hidden):
            if count:
                state.hands[seat] = hand_int([CARDS[c] for c in unseen[at:at + count]])
                at += count
        state.stock = tuple(unseen[at:])
        return state

    def draw(self, rng: random.Random) -> FiascoState:
        """A world in proportion to how well it explains the clues.

        Weighing worlds costs far more than playing them, so each perspective weighs
        one pool of ``size`` uniform worlds, once, drawn from a generator seeded by the
        perspective's own history (so a draw stays a function of the perspective and
        ``rng``); ``rng`` then picks from the pool by weight (sampling-importance-
        resampling, see :mod:`games.fiasco.computer.inference`).
        """
        if not self.clues:
            return self.uniform(rng)
        if self._pool is None:
            self._pool = WeighedPool.dealt(self.p, self.size, self.uniform,
                                           lambda w: weight(self.clues, w.hands),
                                           self.temper)
        return self._pool.pick(rng).copy()


def _empty_deal(p: Perspective, claims: Sequence[Sequence[str]]) -> FiascoState:
    opts = cast(FiascoOptions, p.options)
    return FiascoState(
        players=p.players, dealer=p.dealer, scores=p.view.scores, teams=opts.teams,
        extended=opts.length == "extended",
        claims=[[SUITS.index(s) for s in c] for c in claims],
    )


def _deal_plays(p: Perspective, deck: int) -> list[tuple[int, str]]:
    """The plays (actor, card text) of the current deal, from the public history."""
    plays = []
    for entry in p.history:
        actor, verb, *rest = entry.split()
        if verb == FiascoVerb.PLAY:
            plays.append((int(actor), rest[0]))
    per_deal = sum(batch_sizes(p.players, deck)) * p.players
    return plays[len(p.rounds) * per_deal:]


def _explain(mine: Assessment, s: Situation, options: list[Assessment]) -> str:
    """A few words on the card assessed as ``mine``, said to the player (the hint)."""
    rank = RANK[mine.card]
    if mine.card == FIASCO_ID and mine.win == 0.0:
        if s.top_mine:
            return "it costs your own side a card of the pot it is winning"
        return "it costs the pot's winner a card"
    if mine.win == 1.0:
        winners = [a for a in options if a.win == 1.0]
        if mine.net <= 0:
            return "you take the lead, though the pot is worth nothing to you"
        if rank == min(RANK[a.card] for a in winners):
            return "it takes the pot with your cheapest winning card"
        return "it takes the pot and keeps your suit's cards in hand"
    if mine.win == 0.0:
        if mine.card == KING_ID:
            return "you give a King away"
        if mine.card < KING_ID and mine.card // 7 in _own_suits(s):
            return "you give up a card of your own suit that cannot win"
        return "a low card stays under the lead" if rank <= 4 else "it stays under the lead"
    if s.top < 0:
        return "a low lead keeps your high cards" if rank <= 4 else \
            "a high lead to take the pot"
    return "you play high for the pot" if mine.net > 0 else "you top the pot to lead next"


def _own_suits(s: Situation) -> list[int]:
    return [suit for suit in range(6) if (s.collects >> (7 * suit)) & 1]


KNOWLEDGE = register_knowledge(FiascoKnowledge())

__all__ = ["BUDGET", "KNOWLEDGE", "FiascoKnowledge", "Situation", "claims_of"]
