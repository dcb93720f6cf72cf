"""Fiasco's rules of thumb, on the fast path's ints: what a decent casual player plays.

One function serves both the easy level (through the knowledge, from a perspective)
and the search's rollouts (from a :class:`~games.fiasco.computer.fast.FiascoState`), so the two
cannot drift apart. It reads only what the seat to act sees: its hand, the pot, the
best card of the pot's current round, who is still to play, and its collection.

Each card in hand is given a score, the casual player's sense of it:

* **win**: the chance that the card takes the pot (certain when it tops the pot and
  nobody is left to play; a tie only re-plays), times what winning nets: the pot's
  cards of one's suits (2) and Kings (1), less what its Fiascos knock off the top of
  the collection;
* **lose**: a card that does not win feeds the winner: a Fiasco hurts an opponent
  (good) or a partner (bad), a King is a gift;
* **keep**: high cards are the power to win later pots and one's own high cards are
  points still to win, so spending them costs something; low cards of other suits
  are the cards to throw.

The best score is played. A little noise (``noise``) blurs close calls, so the easy
player sometimes spends a card too early or throws the wrong one, as people do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.fiasco.computer.bits import CARD_BIT, FIASCO_ID, KING_ID, RANK, WORTH, hand_ids

#: By rank (index 1 to 9): chance that one more player neither beats nor ties a card of this rank.
STAY = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.72, 0.85)
#: The winning power a card of this rank keeps in hand.
POWER = (0.0, 0.0, 0.05, 0.1, 0.15, 0.5, 0.3, 0.45, 0.6, 0.9)
#: What one's own suit card in hand is still worth (two points times a rough chance).
OWN = (0.0, 0.1, 0.15, 0.2, 0.3, 0.0, 0.6, 0.8, 1.0, 0.0)
#: Share of a tied pot a player re-entering the re-play may count on.
TIE_SHARE = 0.3
#: What a Fiasco thrown under someone else's winning card is worth (to them: minus).
FIASCO_THROW = 1.0
#: What giving a King to the pot's winner costs.
KING_GIFT = 0.7
#: The easy level's noise (width of a uniform blur on each card's score).
EASY_NOISE = 0.6


@dataclass(frozen=True, slots=True)
class Assessment:
    """Why a card scores what it does (the hint button reads these)."""

    card: int
    score: float
    win: float  # the chance of taking the pot with it
    net: float  # what the pot nets if it does


def assess(
    *, hand: int, pot: Sequence[int], top: int, top_mine: bool, after: int, coll: int,
    collects: int,
) -> list[Assessment]:
    """Every distinct card of ``hand`` with its score (see the module docstring).

    ``top`` is the highest rank of the pot's current round (-1 when leading it),
    ``top_mine`` whether that card is one's own side's, ``after`` how many players
    still play after this one, ``coll`` the collection as a stack int and ``collects``
    the mask of card bits one keeps from a pot.
    """
    return [Assessment(*row) for row in scores(hand, pot, top, top_mine, after, coll,
                                                collects)]


def choose(
    *, hand: int, pot: Sequence[int], top: int, top_mine: bool, after: int, coll: int,
    collects: int, rng: random.Random, noise: float = EASY_NOISE,
) -> int:
    """The card id the rules of thumb play, close calls blurred by ``noise``."""
    best, best_score = -1, float("-inf")
    for card, score, _, _ in scores(hand, pot, top, top_mine, after, coll, collects):
        score += (rng.random() - 0.5) * noise
        if score > best_score:
            best, best_score = card, score
    return best


def scores(
    hand: int, pot: Sequence[int], top: int, top_mine: bool, after: int, coll: int,
    collects: int,
) -> list[tuple[int, float, float, float]]:
    """(card, score, chance to win the pot, what the pot then nets) per distinct card.

    One loop for both callers: the rollouts call this for every simulated move.
    """
    taken = [WORTH[c] for c in pot if CARD_BIT[c] & collects]
    fiascos = pot.count(FIASCO_ID)
    base = float(sum(taken)) if not fiascos else _net(taken, fiascos, coll)
    thrown = -FIASCO_THROW if top_mine else FIASCO_THROW
    out = []
    for card in hand_ids(hand):
        rank = RANK[card]
        own = CARD_BIT[card] & collects
        if rank > top:
            win = STAY[rank] ** after
        elif rank == top:
            win = TIE_SHARE * STAY[rank] ** after
        else:
            win = 0.0
        if card == FIASCO_ID:
            net, lose, keep = _net(taken, fiascos + 1, coll), thrown, POWER[rank]
        elif not own:
            net, lose, keep = base, -KING_GIFT if card == KING_ID else 0.0, POWER[rank]
        else:
            net = base + WORTH[card] if not fiascos else _net([*taken, WORTH[card]], fiascos,
                                                               coll)
            lose = -KING_GIFT if card == KING_ID else 0.0
            keep = POWER[rank] + (OWN[rank] if card != KING_ID else 0.0)
        out.append((card, win * net + (1.0 - win) * lose - keep, win, net))
    return out


def _net(taken: list[int], fiascos: int, coll: int) -> float:
    """Points a pot nets its winner: the worth of what it keeps, less what its Fiascos
    take off the top of the pile (the pot's own cards first, then older ones)."""
    if fiascos <= len(taken):
        return float(sum(taken[: len(taken) - fiascos]))
    lost = 0
    for _ in range(fiascos - len(taken)):
        if not coll:
            break
        lost += WORTH[(coll & 63) - 1]
        coll >>= 6
    return float(-lost)


__all__ = ["EASY_NOISE", "Assessment", "assess", "choose", "scores"]
