"""Where the hidden Fumblaroo cards lie, read from how the other players bid and played.

The knowledge deals the unseen cards so that nobody holds a suit they failed to
follow. Bids and plays say much more: a player who passed on the up-card's suit holds
little of it, a player forced to call named their strongest suit, the dealer threw
their weakest card, a caller leads trump while they hold two, a follower wins as
cheaply as they can. A world (a deal of the unseen cards) that gives a player a hand
their bid or play does not fit is less likely.

Each bid, call, discard and play of another seat in the current hand is a clue. In a
world, the seat's hand when it bid is the cards the world gives it now plus every card
it played in the hand (for a dealer who took the up-card: plus the discard, less the
up-card); its hand at a play is the cards it holds now plus that play and its later
ones. The likelihood of the clue is what the easy rules of thumb
(:mod:`games.fumblaroo.computer.thumb`, :meth:`FumblarooKnowledge.easy`) make of it: a
bid is made when the hand's weight plus a Gaussian waver (``WAVER``) reaches the bar,
so ordering with weight *w* is Φ((w - bar) / WAVER) likely; a follower plays the card
that wins most cheaply, or with chance ``OVERPLAYS`` the dearest winner; the call,
the discard and the lead are the rules' own. A seat may follow other rules (a person,
a searching computer): each seat is read as a rules-of-thumb player or as one who
bids, calls, throws and plays any legal option alike, not knowing which
(:class:`~games.players.weighed.Readings`, ``prior`` apart), and a world's weight is
the chance of every seat's clues in it. Only the seat's perspective is read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.fumblaroo.computer import thumb
from games.fumblaroo.computer.bits import CARD_ID, EFFECTIVE, FOLLOWS, STRENGTH, SUIT, cards_of
from games.fumblaroo.computer.fast import PLAYERS
from games.fumblaroo.computer.knowledge import (
    OVERPLAYS,
    WAVER,
    Unseen,
    hand_entries,
    up_card,
)
from games.fumblaroo.game import FumblarooVerb
from games.players.base import Perspective
from games.players.weighed import RULES_PRIOR, Readings

#: The choices of a bid (take or let go), a forced call (the three other suits) and the
#: dealer's discard (six cards), for a seat that makes any alike.
BID_CHOICES, CALL_CHOICES, DISCARD_CHOICES = 2, 3, 6


@dataclass(frozen=True, slots=True)
class Bid:
    """A seat took the up-card (order, pick) or let it go (pass, turn)."""

    seat: int
    took: bool
    dealer: bool  # the dealer's pick or turn, after both others passed


@dataclass(frozen=True, slots=True)
class Call:
    """A seat named trump after the up-card was turned down."""

    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class Play:
    """A seat played ``card`` into ``trick`` (the cards before it, in order)."""

    seat: int
    card: int
    later: int  # the cards the seat played later in the hand, as a mask
    trick: tuple[int, ...]


Clue = Bid | Call | Play


@dataclass(frozen=True, slots=True)
class Clues:
    """The clues of the hand under way for one seat, and what they are read against."""

    found: tuple[Clue, ...]
    up: int  # the up-card of the hand
    turned: int  # the suit turned down, else -1
    trump: int  # -1 until made
    caller: int
    dealer: int
    taken_up: bool  # the up-card went into the dealer's hand
    discarded: bool  # the dealer has discarded (a clue when the seat is not the dealer)
    played: tuple[int, ...]  # per seat, every card it played this hand, as a mask


def clues(p: Perspective, u: Unseen) -> Clues:
    """The clues of the current hand for ``p``'s seat (every bid and play but its own);
    ``u`` is what its worlds share (:func:`~games.fumblaroo.computer.knowledge.unseen`)."""
    seat, dealer = u.seat, u.table.dealer
    found: list[Clue] = []
    played = [0] * PLAYERS
    plays = u.hand.plays
    taken_up = discarded = False
    for actor, action in hand_entries(p):
        verb = action.partition(" ")[0]
        if verb in (FumblarooVerb.ORDER, FumblarooVerb.PICK):
            taken_up = True
        elif verb == FumblarooVerb.DISCARD:
            discarded = True
        if actor == seat:
            continue
        if verb in (FumblarooVerb.ORDER, FumblarooVerb.PASS):
            found.append(Bid(actor, took=verb == FumblarooVerb.ORDER, dealer=False))
        elif verb in (FumblarooVerb.PICK, FumblarooVerb.TURN):
            found.append(Bid(actor, took=verb == FumblarooVerb.PICK, dealer=True))
        elif verb == FumblarooVerb.CALL:
            found.append(Call(actor, u.hand.trump))
    for i, (actor, card) in enumerate(plays):
        c = CARD_ID[card]
        played[actor] |= 1 << c
        if actor == seat:
            continue
        later = 0
        for other, d in plays[i + 1:]:
            if other == actor:
                later |= 1 << CARD_ID[d]
        start = i - i % PLAYERS
        found.append(Play(actor, c, later, tuple(CARD_ID[d] for _, d in plays[start:i])))
    return Clues(tuple(found), up_card(p), u.hand.turned, u.hand.trump, u.hand.caller, dealer,
                 taken_up, discarded and seat != dealer, tuple(played))


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def dealt_hand(c: Clues, seat: int, hands: list[int], discarded: int) -> int:
    """The five cards ``seat`` was dealt, in the world holding ``hands`` now and
    ``discarded`` in the dealer's discard."""
    hand = hands[seat] | c.played[seat]
    if seat == c.dealer and c.taken_up:
        hand = (hand | discarded) & ~(1 << c.up)
    return hand


def bid_likelihood(took: bool, dealt: int, up: int, *, dealer: bool) -> float:
    """The chance that an easy player dealt ``dealt`` takes (or lets go) the up-card."""
    suit = SUIT[up]
    if dealer:
        strength = thumb.hand_weight(thumb.after_pick(dealt, up), suit) - thumb.PICK_AT
    else:
        strength = thumb.hand_weight(dealt, suit) - thumb.ORDER_AT
    chance = _phi(strength / WAVER)
    return chance if took else 1.0 - chance


def play_choices(play: Play, hand: int, trump: int) -> int:
    """How many cards of ``hand`` (before the play) the rules let its seat play."""
    if not play.trick:
        return hand.bit_count()
    return (hand & FOLLOWS[trump][EFFECTIVE[trump][play.trick[0]]] or hand).bit_count()


def play_likelihood(play: Play, hand: int, trump: int, *, caller: bool) -> float:
    """The chance that an easy player holding ``hand`` (before the play) plays it."""
    if not play.trick:
        return 1.0 if thumb.lead(hand, trump, caller=caller) == play.card else 0.0
    led = EFFECTIVE[trump][play.trick[0]]
    legal = hand & FOLLOWS[trump][led] or hand
    moves = cards_of(legal)
    usual = thumb.follow(moves, play.trick, trump)
    strength = STRENGTH[trump][led]
    best = max(strength[c] for c in play.trick)
    winners = [c for c in moves if strength[c] > best]
    dear = max(winners, key=lambda c: strength[c]) if winners else usual
    return (1 - OVERPLAYS) * (usual == play.card) + OVERPLAYS * (dear == play.card)


def readings(c: Clues, dealt: list[int]) -> Readings:
    """Every clue read in the world ``dealt``
    (:func:`~games.fumblaroo.computer.knowledge.deal_unseen`: the hands now, then the
    dealer's discard): its chance under the rules of thumb, and its seat's options."""
    hands, discarded = dealt[:PLAYERS], dealt[PLAYERS]
    read = Readings(PLAYERS)
    for clue in c.found:
        if isinstance(clue, Play):
            held = hands[clue.seat] | clue.later | 1 << clue.card
            read.read(clue.seat, play_likelihood(clue, held, c.trump,
                                                 caller=clue.seat == c.caller),
                      play_choices(clue, held, c.trump))
            continue
        start = dealt_hand(c, clue.seat, hands, discarded)
        if isinstance(clue, Bid):
            read.read(clue.seat, bid_likelihood(clue.took, start, c.up, dealer=clue.dealer),
                      BID_CHOICES)
        else:
            read.read(clue.seat, float(thumb.best_call(start, c.turned) == clue.suit),
                      CALL_CHOICES)
    if c.discarded and discarded:
        six = dealt_hand(c, c.dealer, hands, discarded) | 1 << c.up
        read.read(c.dealer, float(thumb.discard(six, c.trump) == discarded.bit_length() - 1),
                  DISCARD_CHOICES)
    return read


def weight(c: Clues, dealt: list[int], prior: float = RULES_PRIOR) -> float:
    """How well the world ``dealt`` (as :func:`readings` reads it) explains the clues,
    each seat playing by the rules of thumb with chance ``prior`` before they are read."""
    return readings(c, dealt).weight(prior)


__all__ = ["BID_CHOICES", "CALL_CHOICES", "DISCARD_CHOICES", "Bid", "Call", "Clue", "Clues",
           "Play", "bid_likelihood", "clues", "dealt_hand", "play_choices", "play_likelihood",
           "readings", "weight"]
