"""Stacked Fumblaroo deals for tests."""

from __future__ import annotations

from typing import Any

from games.fumblaroo import Fumblaroo
from games.fumblaroo.cards import DECK

# A deal to follow a stacked one, so that a test never needs the seed: 9D turned up.
NEXT_DEAL: dict[str, Any] = {
    "hands": [["2S", "9S", "TS", "JS", "QS"], ["KS", "AS", "2H", "9H", "TH"],
              ["JH", "QH", "KH", "AH", "2D"]],
    "kingdom": ["9D", "TD", "JD", "QD", "KD", "AD", "2C", "9C", "TC", "JC", "QC", "AC"],
}
# The same cards with the 2 of clubs on top of the Kingdom: a void hand.
FORFEIT_DEAL: dict[str, Any] = {
    "hands": NEXT_DEAL["hands"],
    "kingdom": ["2C", "9D", "TD", "JD", "QD", "KD", "AD", "9C", "TC", "JC", "QC", "AC"],
}


def deal(hands: list[str], kingdom_top: str) -> dict[str, Any]:
    """A deal with these hands (space-separated), the Kingdom ``kingdom_top`` first.

    The rest of the Kingdom is every card not named, in deck order.
    """
    hand_cards = [h.split() for h in hands]
    top = kingdom_top.split()
    named = [c for h in hand_cards for c in h] + top
    assert len(set(named)) == len(named), named
    rest = [c.text for c in DECK.cards if c.text not in named]
    return {"hands": hand_cards, "kingdom": top + rest}


def seated(dealer: int, leader: str, third: str, dealer_hand: str) -> list[str]:
    """Hands by seat, given by role: the dealer's left (who leads), the third, the dealer."""
    hands = [""] * 3
    for offset, hand in enumerate((leader, third, dealer_hand)):
        hands[(dealer + 1 + offset) % 3] = hand
    return hands


def game(hands: list[str], up: str, *, dealer: int = 2, actions: tuple[str, ...] = (),
         more: tuple[dict[str, Any], ...] = (NEXT_DEAL,), **options: Any) -> Fumblaroo:
    """A game on a stacked first deal (``up`` turned up), then ``more`` deals, no seed."""
    g = Fumblaroo.new(3, options, dealer=dealer, deals=[deal(hands, up), *more])
    apply_all(g, *actions)
    return g


def apply_all(g: Fumblaroo, *actions: str) -> None:
    """Apply record-style actions (``"0 order"``)."""
    for line in actions:
        player, _, text = line.partition(" ")
        g.apply(int(player), text)


def play_tricks(g: Fumblaroo, *tricks: str) -> None:
    """Play whole tricks: each string holds the cards in play order, from whoever is to act."""
    for trick in tricks:
        for card in trick.split():
            assert g.to_act is not None
            g.apply(g.to_act, f"play {card}")


def legal(g: Fumblaroo) -> list[str]:
    """The legal actions as sorted strings, as the replay output lists them."""
    return sorted(str(a) for a in g.legal_actions())
