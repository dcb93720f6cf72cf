"""Stacked Fibonachos deals for tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.fibonachos import Fibonachos
from games.fibonachos.cards import NACHO_DECK

SPICY = [1, 2, 3] * 5  # the default Spicy deck of a stacked deal, top first
REST = "*"

# Three players, seat 0 leads (the dealer is seat 2). Seat 1 holds no Yellow, seat 2 no Red.
MIXED = [
    "R1 R3 R4 R5 R7 R8 R9 R11 R16 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8",
    "R1 R2 R6 R10 R12 R13 R14 R15 G1 G1 G2 G3 G4 G6 G7 G8 G14",
    REST,  # Y1 Y9-Y16, G5 G9-G13 G15 G16
]

# Three players, one suit each, to script whole rounds. Roles: A leads trick 1 and holds
# Red, B (on A's left) Yellow, C Green.
NON_FIBONACHOS = (4, 6, 7, 9, 10, 11, 12, 14, 15, 16)
ROUND_SCRIPT = [
    *(card for n in NON_FIBONACHOS for card in (f"R{n}", f"Y{n}", f"G{n}")),  # A wins 1-10
    "R13", "Y1", "G1",  # 11: trump, 13 wins: A
    "R8", "Y1", "G1",  # 12: A
    "R5", "Y2", "G2",  # 13: A
    "R3", "Y13", "G3",  # 14: B's off-suit 13: B
    "Y8", "G5", "R2",  # 15: B leads, 8 wins: B (the last Spicy card)
    "Y5", "G13", "R1",  # 16: C's 13 wins, no prize
    "G8", "R1", "Y3",  # 17: C leads and wins, no prize
]
WINNERS_BY_ROLE = ["A"] * 13 + ["B"] * 2 + ["C"] * 2
# A takes the first 13 Spicy cards (28 -> 28), B the last two (1 + 1 = 2 -> 3), C none (34).
SPICY_28_2 = [3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1]
# A takes 1+1+1+1+1+2+2+2+2+2+3+3+3 = 24 -> 24, B takes 3 + 3 = 6 -> 6, C none (34).
SPICY_24_6 = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3]


def one_suit_each(first: int, spicy: list[int]) -> dict[str, Any]:
    """The one-suit-each deal with role A (Red) at seat ``first``."""
    hands = [""] * 3
    for role, suit in enumerate("RYG"):
        hands[(first + role) % 3] = " ".join(c.text for c in NACHO_DECK.cards if c.suit == suit)
    return deal(hands, spicy=spicy)


def deal(
    hands: list[str],
    *,
    aside: str = "",
    decks: list[str] | None = None,
    spicy: list[int] | None = None,
) -> dict[str, Any]:
    """A deal with these hands (space-separated cards); one hand may be ``"*"``: it gets
    every Nacho card that no hand, deck or ``aside`` holds, in deck order."""
    piles = [h.split() for h in hands]
    deck_piles = [d.split() for d in decks] if decks is not None else []
    rest = Counter(c.text for c in NACHO_DECK.cards)
    rest.subtract(c for p in [*piles, *deck_piles] for c in p if c != REST)
    rest.subtract(aside.split())
    assert all(v >= 0 for v in rest.values()), +rest
    order = [c.text for c in NACHO_DECK.cards]
    leftover = sorted(rest.elements(), key=order.index)
    piles = [leftover if p == [REST] else p for p in piles]
    out: dict[str, Any] = {"hands": piles, "spicy": list(spicy or SPICY), "aside": aside.split()}
    if decks is not None:
        out["decks"] = deck_piles
    return out


def game(
    hands: list[str],
    *,
    dealer: int | None = None,
    aside: str = "",
    decks: list[str] | None = None,
    spicy: list[int] | None = None,
    more: tuple[dict[str, Any], ...] = (),
    **options: Any,
) -> Fibonachos:
    """A game whose first deal is stacked; the dealer defaults to the last seat, so
    seat 0 leads."""
    players = len(hands)
    first = deal(hands, aside=aside, decks=decks, spicy=spicy)
    g = Fibonachos.new(players, options, seed=1,
                       dealer=players - 1 if dealer is None else dealer, deals=[first, *more])
    return g


def play(g: Fibonachos, *cards: str) -> None:
    """Each player to act plays the next card, in turn order."""
    for card in cards:
        assert g.to_act is not None
        g.apply(g.to_act, f"play {card}")


def legal(g: Fibonachos) -> list[str]:
    """The legal actions' cards, sorted as in the replay output."""
    return sorted(str(a.card) for a in g.legal_actions())


def texts(cards: Any) -> list[str]:
    return [c.text for c in cards]
