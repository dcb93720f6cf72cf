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
level's slip, :meth:`FazesKnowledge.easy`), with a floor (``FLOOR``) for players who
follow other rules (people, searching computers). A world's weight is the product
over the clues. Only the seat's perspective is read: the history of the faze and the
seat's own view.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.fazes.cards import hand_size
from games.fazes.computer.bits import COLOUR_OF, colour_mask
from games.fazes.computer.knowledge import EASY_NOISE, trick_state
from games.fazes.computer.thumb import choose, legal_mask
from games.fazes.scoring import has_trump
from games.players.base import Perspective

#: The easy level's chance of a slip (its ``EASY_NOISE``), as the model reads plays.
NOISE = EASY_NOISE
#: No play makes a world less likely than this, per clue: people and searching
#: computers do not play the rules of thumb.
FLOOR = 0.02


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
    clue's play, floored at :data:`FLOOR`."""
    best, _ = choose(hand, faze=faze, led=clue.led, win=clue.win, win_trump=clue.win_trump,
                     played=clue.played, players=players, tricks_left=clue.tricks_left,
                     opening=clue.opening)
    legal = legal_mask(hand, clue.led, trump=has_trump(faze), opening=clue.opening)
    alike = legal & colour_mask(COLOUR_OF[best])
    chance = NOISE / alike.bit_count() if alike >> clue.card & 1 else 0.0
    if best == clue.card:
        chance += 1 - NOISE
    return max(chance, FLOOR)


def weight(found: tuple[Clue, ...], hands: list[int], faze: int) -> float:
    """How well the world dealing ``hands`` (the cards each seat holds now) explains the
    clues: the product of their likelihoods."""
    players = len(hands)
    w = 1.0
    for clue in found:
        w *= likelihood(clue, hands[clue.seat] | clue.later | 1 << clue.card, faze, players)
    return w


__all__ = ["FLOOR", "NOISE", "Clue", "clues", "likelihood", "weight"]
