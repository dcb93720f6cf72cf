"""Stacked Fiasco deals for tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.fiasco import Fiasco
from games.fiasco.cards import FULL_DECK, four_suit_deck


def deal(
    hands: list[str], stock_top: str = "", *, suits: str = "", stock_bottom: str = ""
) -> dict[str, Any]:
    """A deal with these hands (space-separated cards): the stock is ``stock_top``, the
    rest of the deck, then ``stock_bottom``."""
    deck = four_suit_deck(suits) if suits else FULL_DECK
    hand_cards = [h.split() for h in hands]
    top, bottom = stock_top.split(), stock_bottom.split()
    rest = Counter(c.text for c in deck.cards)
    rest.subtract(c for h in hand_cards for c in h)
    rest.subtract(top + bottom)
    assert all(v >= 0 for v in rest.values()), rest
    return {"hands": hand_cards, "stock": top + sorted(rest.elements()) + bottom}


def game(players: int, hands: list[str], stock_top: str = "", *, claims: str = "",
         dealer: int | None = None, stock_bottom: str = "", **options: Any) -> Fiasco:
    """A Fiasco game on a stacked deal, suits already claimed in ``claims`` order.

    ``claims`` lists one suit letter per claim, in claiming order (dealer's left first).
    The dealer defaults to the last seat, so seat 0 claims first and leads.
    """
    dealer = players - 1 if dealer is None else dealer
    d = deal(hands, stock_top, suits=claims if options.get("suits") == "four" else "",
             stock_bottom=stock_bottom)
    g = Fiasco.new(players, options, seed=1, dealer=dealer, deals=[d])
    claims = claims or "SRBTMH"[: len(g.claim_order)]
    for suit in claims:
        assert g.to_act is not None
        g.apply(g.to_act, f"choose {suit}")
    return g


def play(g: Fiasco, *cards: str) -> None:
    """Each player to act plays the next card, in turn order."""
    for card in cards:
        assert g.to_act is not None
        g.apply(g.to_act, f"play {card}")


def batch_sizes(g: Fiasco) -> list[int]:
    """Play every turn's first legal card to the end; the hand size after each deal or batch.

    Also checks that each batch is led by the last pot's winner (or the tie's leader).
    """
    sizes = [len(g.hands[0])]
    while not g.over:
        assert g.to_act is not None
        events = g.apply(g.to_act, g.legal_actions()[0])
        if any(e.kind == "batch" for e in events):
            sizes.append(len(g.hands[0]))
            assert g.to_act == g.leader
            if not g.pot:
                assert g.to_act == g.tricks[-1]
    return sizes
