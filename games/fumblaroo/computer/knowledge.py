"""What Fumblaroo teaches its computer players: rules of thumb, hints, and worlds.

Hidden from a seat: the other two hands, the Kingdom, and the dealer's face-down
discard, which :meth:`FumblarooKnowledge.redact` turns into ``discard ?`` for everyone
but the dealer (the view shows only that one card lies there, the facts never name
it). What every seat saw: the up-card, and so, once it was ordered or picked up (the
"Taken up" fact), that the dealer holds it unless they discarded it; every card played;
and the voids play revealed: a player who did not follow the led suit (trump's other 2
counting as trump) holds none of it, since nobody draws during a hand.

>>> import random, games
>>> from games.players import perspective
>>> game = games.new_game("fumblaroo", 3, seed=2)
>>> p = perspective(game, game.to_act)
>>> KNOWLEDGE.easy(p, random.Random(0)).reason
'your hand is too weak in Hearts to make them trump'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.core.actions import Action
from games.core.cards import Card
from games.core.game import Game
from games.fumblaroo.cards import DECK, SUIT_NAMES, SUITS
from games.fumblaroo.computer.bits import CARD, CARD_ID, COUNT, EFFECTIVE, STRENGTH, SUIT, hand_mask
from games.fumblaroo.computer.fast import (
    BIDDING,
    CALLING,
    DEALER,
    DISCARDING,
    PLAYING,
    FumblarooState,
    thumb_move,
)
from games.fumblaroo.game import Fumblaroo, FumblarooVerb
from games.fumblaroo.scoring import TRICKS_PER_HAND
from games.players.base import Decision, Perspective, register_knowledge
from games.players.constrained_deal import constrained_deal

PLAYERS = 3
HIDDEN_DISCARD = f"{FumblarooVerb.DISCARD} ?"
#: How far the easy level's judgement of a hand wavers (standard deviation, in the
#: rules of thumb's trick weights), and how often it wins a trick more dearly than needed.
WAVER = 0.75
OVERPLAYS = 0.1
#: The hard level's budget (simulated moves per decision).
BUDGET = 20_000


@dataclass
class Hand:
    """The current hand as a seat can rebuild it from its perspective."""

    stage: int = BIDDING
    passes: int = 0
    trump: int = -1
    caller: int = -1
    turned: int = -1
    my_discard: Card | None = None
    plays: list[tuple[int, Card]] = field(default_factory=list)


def hand_entries(p: Perspective) -> list[tuple[int, str]]:
    """The history of the current hand: everything after the last hand's fifteenth play."""
    entries: list[tuple[int, str]] = []
    plays = 0
    for entry in p.history:
        seat, _, action = entry.partition(" ")
        entries.append((int(seat), action))
        if action.startswith(f"{FumblarooVerb.PLAY} "):
            plays += 1
            if plays == TRICKS_PER_HAND * PLAYERS:
                entries, plays = [], 0
    return entries


def rebuild(p: Perspective) -> Hand:
    """Stage, trump, caller and plays of the current hand, from the seat's history."""
    hand = Hand()
    for seat, action in hand_entries(p):
        verb, _, rest = action.partition(" ")
        if verb == FumblarooVerb.PASS:
            hand.passes += 1
            hand.stage = DEALER if hand.passes == PLAYERS - 1 else BIDDING
        elif verb in (FumblarooVerb.ORDER, FumblarooVerb.PICK):
            hand.trump, hand.caller, hand.stage = _taken_up_suit(p), seat, DISCARDING
        elif verb == FumblarooVerb.TURN:
            hand.turned, hand.stage = SUITS.index(_turned_down(p).suit), CALLING
        elif verb == FumblarooVerb.CALL:
            hand.trump, hand.caller, hand.stage = SUITS.index(rest), seat, PLAYING
        elif verb == FumblarooVerb.DISCARD:
            hand.stage = PLAYING
            if seat == p.seat and rest != "?":
                hand.my_discard = DECK.parse(rest)
        else:
            hand.plays.append((seat, DECK.parse(rest)))
    return hand


def voids(hand: Hand) -> list[tuple[int, int]]:
    """(seat, suit) for every time a seat did not follow the led suit this hand."""
    out = []
    for i, (seat, card) in enumerate(hand.plays):
        if i % PLAYERS:
            led = EFFECTIVE[hand.trump][CARD_ID[hand.plays[i - i % PLAYERS][1]]]
            if EFFECTIVE[hand.trump][CARD_ID[card]] != led:
                out.append((seat, led))
    return out


def table_state(p: Perspective, hand: Hand) -> FumblarooState:
    """The hand as the seat sees it: its own cards, the table; other hands empty."""
    view = p.view
    hands = [0] * PLAYERS
    hands[p.seat] = hand_mask(view.zone(f"hand:{p.seat}").cards or ())
    up = view.zone("up-card").cards or ()
    trick = view.trick
    taken = [view.zone(f"tricks:{q}").count // PLAYERS for q in range(PLAYERS)]
    return FumblarooState(
        hands=hands,
        dealer=p.dealer,
        stage=hand.stage,
        turn=-1 if view.to_act is None else view.to_act,
        up=CARD_ID[up[0]] if up else -1,
        turned=hand.turned,
        trump=hand.trump,
        caller=hand.caller,
        passes=hand.passes,
        leader=trick[0][0] if trick else (-1 if view.to_act is None else view.to_act),
        trick=[CARD_ID[c] for _, c in trick],
        taken=taken,
        scores=list(view.scores),
        target=int(getattr(p.options, "target", 10)),
    )


@dataclass(frozen=True)
class Unseen:
    """What a seat's worlds of the current hand share: the table as it sees it, and the
    places its unseen cards may lie (the other hands, the dealer's discard, the Kingdom)."""

    seat: int
    hand: Hand
    table: FumblarooState  # the other hands empty
    cards: tuple[int, ...]  # the unseen cards
    groups: tuple[int, ...]  # the suit each card follows (under trump once made)
    others: tuple[int, ...]
    sizes: tuple[int, ...]  # per other seat, then the discard, then the Kingdom
    caps: tuple[tuple[int, ...], ...]
    up: int  # the taken-up card when it is unseen, else -1
    placed_up: str | None  # where that card is: "hand" (the dealer's) or "discard"
    discard: int  # the seat's own discard, as a mask (the dealer's view), else 0


def unseen(p: Perspective) -> Unseen:
    """Read ``p`` into what every world of the seat shares."""
    hand = rebuild(p)
    view, seat = p.view, p.seat
    seen = [*(view.zone(f"hand:{seat}").cards or ()), *(c for _, c in hand.plays),
            *(view.zone("up-card").cards or ()), *(view.zone("turned down").cards or ())]
    if hand.my_discard is not None:
        seen.append(hand.my_discard)
    others = [q for q in range(PLAYERS) if q != seat]
    sizes = [view.zone(f"hand:{q}").count for q in others]
    discard_size = 0 if seat == p.dealer else view.zone("discard").count
    taken_up = _taken_up(p)
    placed_up = None
    if taken_up is not None and seat != p.dealer and taken_up not in seen:
        seen.append(taken_up)
        dealer_size = sizes[others.index(p.dealer)]
        placed_up = _place_up(hand, p.dealer, dealer_size, discard_size)
        if placed_up == "hand":
            sizes[others.index(p.dealer)] -= 1
        else:
            discard_size -= 1
    cards = list(range(COUNT))
    for card in seen:
        cards.remove(CARD_ID[card])
    caps = [[COUNT] * 4 for _ in others]
    for q, suit in voids(hand):
        if q != seat:
            caps[others.index(q)][suit] = 0
    return Unseen(
        seat=seat, hand=hand, table=table_state(p, hand), cards=tuple(cards),
        groups=EFFECTIVE[hand.trump] if hand.trump >= 0 else SUIT, others=tuple(others),
        sizes=(*sizes, discard_size, view.zone("kingdom").count),
        caps=tuple(tuple(c) for c in (*caps, [COUNT] * 4, [COUNT] * 4)),
        up=-1 if placed_up is None or taken_up is None else CARD_ID[taken_up],
        placed_up=placed_up,
        discard=0 if hand.my_discard is None else 1 << CARD_ID[hand.my_discard])


def deal_unseen(u: Unseen, rng: random.Random) -> list[int]:
    """A deal of the unseen cards: every seat's hand as a mask (the seat's own too), then
    the dealer's discard (0 when there is none)."""
    dealt = constrained_deal(u.cards, groups=u.groups, sizes=u.sizes, caps=u.caps, rng=rng)
    hands = [0] * PLAYERS
    hands[u.seat] = u.table.hands[u.seat]
    for q, cards in zip(u.others, dealt, strict=False):
        hands[q] = sum(1 << c for c in cards)
    discard = u.discard | sum(1 << c for c in dealt[len(u.others)])
    if u.placed_up == "hand":
        hands[u.table.dealer] |= 1 << u.up
    elif u.placed_up == "discard":
        discard |= 1 << u.up
    return [*hands, discard]


def world(u: Unseen, dealt: list[int]) -> FumblarooState:
    """The hand under way with the hands of ``dealt`` (:func:`deal_unseen`)."""
    state = u.table.copy()
    state.hands = dealt[:PLAYERS]
    return state


class FumblarooKnowledge:
    """Fumblaroo's :class:`~games.players.base.Knowledge`."""

    game = "fumblaroo"

    def redact(self, seat: int, actor: int, action: str) -> str:
        """The dealer's discard is face down: others see only that there was one."""
        return HIDDEN_DISCARD if action.startswith(FumblarooVerb.DISCARD) else action

    def sample(self, p: Perspective, rng: random.Random) -> FumblarooState:
        u = unseen(p)
        return world(u, deal_unseen(u, rng))

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        state = table_state(p, rebuild(p))
        move = thumb_move(state, waver=rng.gauss(0.0, WAVER))
        if state.stage == PLAYING and state.trick and rng.random() < OVERPLAYS:
            dear = _dearest_winner(state)
            move = dear if dear >= 0 else move
        action = state.action(move)
        return Decision(action, self.why(p, action))

    def why(self, p: Perspective, action: Action) -> str:
        hand = rebuild(p)
        state = table_state(p, hand)
        verb = action.verb
        up = SUIT_NAMES[CARD[state.up].suit] if state.up >= 0 else ""
        if verb in (FumblarooVerb.ORDER, FumblarooVerb.PICK):
            return f"your hand is strong in {up}"
        if verb in (FumblarooVerb.PASS, FumblarooVerb.TURN):
            return f"your hand is too weak in {up} to make them trump"
        if verb == FumblarooVerb.CALL:
            return f"{SUIT_NAMES[action.arg or 'S']} are your strongest suit"
        if verb == FumblarooVerb.DISCARD:
            return "it is your weakest card outside trump"
        if action.card is None or state.trump < 0:
            return ""
        card = CARD_ID[action.card]
        if not state.trick:
            if EFFECTIVE[state.trump][card] == state.trump:
                return "a trump lead draws out the others' trumps"
            return "an Ace is a strong lead" if action.card.rank == 14 else "you lead low"
        strength = STRENGTH[state.trump][EFFECTIVE[state.trump][state.trick[0]]]
        if strength[card] > max(strength[c] for c in state.trick):
            return "it wins the trick as cheaply as you can"
        return "you cannot win this trick, so away with your lowest card"

    def from_game(self, game: Game[Any]) -> FumblarooState:
        assert isinstance(game, Fumblaroo)
        return FumblarooState.from_game(game)


def _place_up(hand: Hand, dealer: int, dealer_size: int, discard_size: int) -> str:
    """Where the up-card the dealer took is: in their hand, unless they have discarded
    and hold no card now or play showed them out of trump (then it was the discard)."""
    if discard_size and (dealer_size == 0 or (dealer, hand.trump) in voids(hand)):
        return "discard"
    return "hand"


def _dearest_winner(state: FumblarooState) -> int:
    """The strongest card that wins the trick so far (a human's waste), or -1."""
    strength = STRENGTH[state.trump][EFFECTIVE[state.trump][state.trick[0]]]
    best = max(strength[c] for c in state.trick)
    winners = [c for c in state.moves() if strength[c] > best]
    return max(winners, key=lambda c: strength[c]) if winners else -1


def up_card(p: Perspective) -> int:
    """The current hand's up-card: up, taken up or turned down (-1 between hands)."""
    up = p.view.zone("up-card").cards or p.view.zone("turned down").cards
    if up:
        return CARD_ID[up[0]]
    taken = _taken_up(p)
    return -1 if taken is None else CARD_ID[taken]


def _taken_up(p: Perspective) -> Card | None:
    for name, value in p.view.facts:
        if name == "Taken up":
            return Fumblaroo.card_labelled(value)
    return None


def _taken_up_suit(p: Perspective) -> int:
    card = _taken_up(p)
    assert card is not None, "an order or a pick names the up-card in the facts"
    return SUITS.index(card.suit)


def _turned_down(p: Perspective) -> Card:
    cards = p.view.zone("turned down").cards or ()
    assert cards, "a turned-down up-card stays face up"
    return cards[0]


KNOWLEDGE = register_knowledge(FumblarooKnowledge())

__all__ = ["BUDGET", "HIDDEN_DISCARD", "KNOWLEDGE", "FumblarooKnowledge", "Unseen", "deal_unseen",
           "hand_entries", "rebuild", "table_state", "unseen", "up_card", "voids", "world"]
