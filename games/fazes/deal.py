"""Fazes' deal object: every card in play, an equal share to each hand (``rules/fazes.md``).

Record form: ``{"hands": [[cards] x players]}``. With ``n`` players the first ``52 % n``
of B2 B3 G3 B4 are out of play (:func:`games.fazes.cards.removed_for`).

>>> import random
>>> d = shuffle_deal(random.Random(1), players=5, dealer=0)
>>> [len(h) for h in d.hands]
[10, 10, 10, 10, 10]
>>> parse_deal(d.to_json(), "deal 1", players=5) == d
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.cards import Card
from games.core.dealing import Hands, deal_round_robin, hands_json, parse_hands
from games.core.errors import SetupError
from games.core.seats import left_of
from games.fazes.cards import FULL_DECK, deck_for_players, hand_size, removed_for


@dataclass(frozen=True, slots=True)
class FazesDeal:
    """One faze's deal: every card in play, an equal share to each hand."""

    hands: Hands

    def to_json(self) -> dict[str, Any]:
        """This deal in record form."""
        return {"hands": hands_json(self.hands)}


def parse_deal(raw: Mapping[str, Any], where: str, *, players: int) -> FazesDeal:
    """The deal written in a record; :class:`SetupError` naming what is wrong (and, when
    some cards are out of play with ``players``, which)."""
    if set(raw) != {"hands"}:
        raise SetupError(f"{where} must have exactly the key hands")
    # The full deck, so that a card out of play parses and is named as one too many.
    hands = parse_hands(raw["hands"], FULL_DECK, players, where)
    size = hand_size(players)
    if any(len(h) != size for h in hands):
        raise SetupError(f"{where}: every hand must hold {size} cards")
    try:
        deck_for_players(players).check_exactly([c for h in hands for c in h], where)
    except SetupError as exc:
        removed = removed_for(players)
        if not removed:
            raise
        out = " ".join(map(str, removed))
        raise SetupError(f"{exc.message} (with {players} players {out} are out of play)"
                         ) from None
    return FazesDeal(hands)


def shuffle_deal(rng: random.Random, *, players: int, dealer: int) -> FazesDeal:
    """The cards in play shuffled from ``rng``, dealt one at a time from the dealer's left."""
    cards = deck_for_players(players).shuffled(rng)
    hands: list[list[Card]] = [[] for _ in range(players)]
    deal_round_robin(cards, hands, count=hand_size(players), first=left_of(dealer, players))
    return FazesDeal(tuple(map(tuple, hands)))
