"""What the other players' plays suggest about their hands, for the world sampler.

The rules reveal nothing about a hand (no suit to follow), but players do: someone
who threw a 1 under a pot full of their own suit probably held nothing that could
take it. Each play made from the current batch of cards is a decision taken with the
hand a world says that player held then (the cards they played later in the batch
plus the world's hand for them now). Under the rules of thumb
(:mod:`games.fiasco.computer.thumb`), a play scoring ``gap`` below that hand's best card is
``exp(-gap / TEMPERATURE)`` as likely, mixed with a floor (``CARELESS``) so that no
player, human or random, ever makes a world impossible. A world's weight is the
product over those plays; the sampler weighs a pool of uniform worlds and draws
from it in proportion to weight (sampling-importance-resampling).

Plays from earlier batches tell nothing about the hidden cards: every card of those
batches is in sight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.fiasco.computer.bits import CARD_ID, FIASCO_SHIFT, HAND_BIT
from games.fiasco.computer.fast import FiascoState
from games.fiasco.computer.thumb import scores
from games.fiasco.deal import HAND_SIZE

#: How sharply a play's score gap below the best card counts against a world.
TEMPERATURE = 0.15
#: The share of plays the model does not explain at all (a slip, another way of play).
CARELESS = 0.02


@dataclass(frozen=True, slots=True)
class Clue:
    """One play from the current batch: who, what, and the situation it was made in."""

    seat: int
    card: int
    later: int  # the hand int of the cards ``seat`` played from then on, this one included
    pot: tuple[int, ...]
    top: int
    top_mine: bool
    after: int
    coll: int
    collects: int


def batch_sizes(players: int, deck: int) -> list[int]:
    """Cards per player in each deal and batch (``rules/fiasco.md``, "Running out")."""
    sizes = [HAND_SIZE]
    left = deck - HAND_SIZE * players
    while left >= players:
        sizes.append(min(HAND_SIZE, left // players))
        left -= sizes[-1] * players
    return sizes


def clues(
    start: FiascoState, plays: Sequence[tuple[int, str]], *, seat: int, in_hand: int,
    deck: int,
) -> list[Clue]:
    """The clues in this deal's ``plays`` (actor, card text) about the other hands.

    ``start`` is the deal as it began, with no cards anywhere; ``in_hand`` is the number
    of cards ``seat`` holds now, which places the current batch.
    """
    n = start.players
    state = start.copy()
    ids = [(actor, _card_id(text)) for actor, text in plays]
    # Every hand holds the cards its player goes on to play, and a marker that keeps
    # it from ever running empty: the replay must not deal or end the deal.
    state.hands = [_MARKER] * n
    for actor, card in ids:
        state.hands[actor] += HAND_BIT[card]
    mine = sum(1 for actor, _ in ids if actor == seat) + in_hand
    batch_start = max(c for c in _cumulative(batch_sizes(n, deck)) if c < mine)
    made = [0] * n
    out = []
    for actor, card in ids:
        if actor != seat and made[actor] >= batch_start:
            top_player = state.top_player
            out.append(Clue(
                seat=actor, card=card, later=state.hands[actor] - _MARKER, pot=tuple(state.pot),
                top=state.top,
                top_mine=top_player >= 0 and state.team_of[top_player] == state.team_of[actor],
                after=n - state.played - 1, coll=state.colls[actor],
                collects=state.collects[actor],
            ))
        made[actor] += 1
        state.turn = actor
        state.play(card)
    return out


def weight(found: Sequence[Clue], hands: Sequence[int]) -> float:
    """How well a world with these hidden ``hands`` explains the clues (relative)."""
    total = 1.0
    for clue in found:
        rows = scores(clue.later + hands[clue.seat], clue.pot, clue.top, clue.top_mine,
                      clue.after, clue.coll, clue.collects)
        best = max(row[1] for row in rows)
        played = next(row[1] for row in rows if row[0] == clue.card)
        total *= CARELESS + (1.0 - CARELESS) * math.exp((played - best) / TEMPERATURE)
    return total


def _cumulative(sizes: Sequence[int]) -> list[int]:
    out = [0]
    for k in sizes:
        out.append(out[-1] + k)
    return out


def _card_id(text: str) -> int:
    return _BY_TEXT[text.upper()]


_MARKER = 8 << FIASCO_SHIFT  # beyond any real count of Fiascos
_BY_TEXT = {card.text.upper(): i for card, i in CARD_ID.items()}

__all__ = ["CARELESS", "TEMPERATURE", "Clue", "batch_sizes", "clues", "weight"]
