"""Stacked Fizzbin deals for tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from games.fizzbin import Fizzbin
from games.fizzbin.cards import DECK


def deal(hands: list[str], stack_top: str = "", *, night: bool | None = None,
         stack_bottom: str = "") -> dict[str, Any]:
    """A deal with these hands (by player, space-separated cards): the stack is
    ``stack_top``, the rest of the deck in deck order, then ``stack_bottom``."""
    hand_cards = [h.split() for h in hands]
    top, bottom = stack_top.split(), stack_bottom.split()
    rest = Counter(c.text for c in DECK.cards)
    rest.subtract(c for h in hand_cards for c in h)
    rest.subtract(top + bottom)
    assert all(v >= 0 for v in rest.values()), +(-rest)
    middle = [c.text for c in DECK.cards if rest[c.text] > 0]
    out: dict[str, Any] = {"hands": hand_cards, "stack": top + middle + bottom}
    if night is not None:
        out["night"] = night
    return out


def game(player_hands: list[str], stack_top: str = "", /, *, dealer: int = 0,
         night: bool | None = None, stack_bottom: str = "",
         more: Sequence[dict[str, Any]] = (), is_night: Callable[[], bool] | None = None,
         **options: Any) -> Fizzbin:
    """A Fizzbin game whose first deal is stacked (``more``: the following deals)."""
    d = deal(player_hands, stack_top, night=night, stack_bottom=stack_bottom)
    g = Fizzbin.new(len(player_hands), options, seed=1, dealer=dealer,
                    deals=[d, *more], is_night=is_night)
    return g


def act(g: Fizzbin, *actions: str) -> None:
    """Apply ``"<player> <action>"`` lines in order."""
    for line in actions:
        player, _, text = line.partition(" ")
        g.apply(int(player), text)


def legal(g: Fizzbin) -> set[str]:
    """The legal actions of the player to act, as text."""
    return {str(a) for a in g.legal_actions()}


def hand_of(g: Fizzbin, player: int) -> set[str]:
    """Every card ``player`` holds (face-up one included), as text."""
    return {c.text for c in g.holding(player)}


def draw_and_discard_stack(g: Fizzbin, turns: int) -> None:
    """For ``turns`` turns, the player to act draws the stack and discards that card onto
    their own pile (the stack cards must be neither special nor forced)."""
    for _ in range(turns):
        p = g.to_act
        assert p is not None
        before = set(hand_of(g, p))
        g.apply(p, "draw stack")
        (new,) = hand_of(g, p) - before
        g.apply(p, f"discard {new} {p}")


# Six players, dealer 0: every rank once by day (the shared vector day_all_ranks_swap).
DAY_ALL_RANKS = [
    "KD 2H 7S 7H 2D 4C QS",  # full
    "KS 2S AS AH JS JH KH",  # royal
    "3H 5D 6H 8D 9H TD",  # three-quarters (red)
    "AC AD KC QH 4S 9S",  # half
    "2C QD 4H 7C JC 8S",  # nothing
    "QC 4D 3S 3C 3D 5S",  # shronk
]
DAY_ALL_RANKS_STACK = "6S TS 5H 8H TH 6D 7D 9D JD 5C 6C 8C 9C TC"

# Six players, dealer 0: every rank once by night; all Q, 4, K, 2 are in the hands.
NIGHT_ALL_RANKS = [
    "QD 4H 7S 7H 2D KC 2S",  # full: Q, 4 and a pair of sevens
    "QS 4S AS AH JS JH KH",  # royal
    "3S 5C 6S 8C 9S TC",  # three-quarters (black)
    "AC AD KS 2H 9H 4C",  # half: aces, a 4 but no Q
    "2C QH 7C JC 4D KD",  # nothing: Q and 4 but no pair
    "QC 3C 3D 3H 5S 6D",  # shronk
]
