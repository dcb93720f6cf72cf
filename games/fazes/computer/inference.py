"""Where the hidden Fazes cards lie, read from how the other players played them.

Every card is played face up, and the knowledge already deals the unseen cards so
that no seat holds a colour it failed to follow. The plays say more: a player who
ducks under the winning card with the 9 holds nothing between the 9 and it; a player
who leads low leads their lowest card of a pointless colour; a player who cannot
follow dumps their most dangerous card. A world (a deal of the unseen cards) that
gives a player a card their play says they lack is less likely.

Each play by another seat in the faze under way is a :class:`Clue`: the card, the
trick as it stood, and the cards that seat played later in the faze. In a world, the
seat's hand at that play is the cards the world gives it now, plus its later plays,
plus the card itself; the likelihood of the play is what the easy rules of thumb
would have done with that hand: their card with chance ``1 - NOISE``, and with chance
``NOISE`` a card of the same colour drawn uniformly among the legal ones (the easy
level's slip, :meth:`FazesKnowledge.easy`). A seat may follow other rules (a person,
a searching computer): each seat is read as a rules-of-thumb player or as one who
makes any legal play alike, not knowing which
(:class:`~games.players.weighed.Readings`, ``prior`` apart), and a world's weight is
the chance of every seat's plays in it. Only the seat's perspective is read: the
history of the faze and the seat's own view.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.fazes.cards import hand_size
from games.fazes.computer.bits import COLOUR_OF, colour_mask
from games.fazes.computer.knowledge import EASY_NOISE, trick_state
from games.fazes.computer.thumb import choose, legal_mask
from games.fazes.scoring import has_trump
from games.players.base import Perspective
from games.players.weighed import RULES_PRIOR, Readings

#: The easy level's chance of a slip (its ``EASY_NOISE``), as the model reads plays.
NOISE = EASY_NOISE


@dataclass(frozen=True, slots=True)
class Clue:
    """One play by another seat in the faze under way, and the trick it was made into."""

    seat: int
    card: int
    later: int  # the cards the seat played later in the faze, as a mask
    led: int  # the led colour, -1 when the play led
    win: int  # the card winning the trick so far, -1 when the play led
    win_trump: bool
    played: int  # cards already in the trick
    tricks_left: int  # this trick included
    opening: bool


def clues(p: Perspective, faze: int, plays: list[tuple[int, int]]) -> tuple[Clue, ...]:
    """The clues of ``plays`` (the faze's plays so far, (seat, card) in order) for ``p``'s
    seat: every play but its own."""
    n = p.players
    out: list[Clue] = []
    trick: list[tuple[int, int]] = []
    tricks_left = hand_size(n)
    for i, (seat, card) in enumerate(plays):
        if seat != p.seat:
            later = 0
            for other, c in plays[i + 1:]:
                if other == seat:
                    later |= 1 << c
            led, win, win_trump = trick_state(trick, faze)
            out.append(Clue(seat, card, later, led, win, win_trump, len(trick), tricks_left,
                            opening=i == 0))
        trick.append((seat, card))
        if len(trick) == n:
            trick = []
            tricks_left -= 1
    return tuple(out)


def likelihood(clue: Clue, hand: int, faze: int, players: int) -> float:
    """The chance that an easy player holding ``hand`` (before the play) makes the
    clue's play."""
    return _chance(clue, hand, faze, players,
                   legal_mask(hand, clue.led, trump=has_trump(faze), opening=clue.opening))


def _chance(clue: Clue, hand: int, faze: int, players: int, legal: int) -> float:
    """:func:`likelihood`, given the plays ``legal`` from ``hand``."""
    best, _ = choose(hand, faze=faze, led=clue.led, win=clue.win, win_trump=clue.win_trump,
                     played=clue.played, players=players, tricks_left=clue.tricks_left,
                     opening=clue.opening)
    alike = legal & colour_mask(COLOUR_OF[best])
    chance = NOISE / alike.bit_count() if alike >> clue.card & 1 else 0.0
    if best == clue.card:
        chance += 1 - NOISE
    return chance


def readings(found: tuple[Clue, ...], hands: list[int], faze: int) -> Readings:
    """Every clue read in the world dealing ``hands`` (the cards each seat holds now):
    its chance under the rules of thumb, and how many legal plays its seat had."""
    players = len(hands)
    trump = has_trump(faze)
    read = Readings(players)
    for clue in found:
        hand = hands[clue.seat] | clue.later | 1 << clue.card
        legal = legal_mask(hand, clue.led, trump=trump, opening=clue.opening)
        read.read(clue.seat, _chance(clue, hand, faze, players, legal), legal.bit_count())
    return read


def weight(found: tuple[Clue, ...], hands: list[int], faze: int,
           prior: float = RULES_PRIOR) -> float:
    """How well the world dealing ``hands`` explains the clues, each seat playing by the
    rules of thumb with chance ``prior`` before they are read (:func:`readings`)."""
    return readings(found, hands, faze).weight(prior)


__all__ = ["NOISE", "Clue", "clues", "likelihood", "readings", "weight"]
