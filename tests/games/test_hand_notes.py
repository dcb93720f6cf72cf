"""What matters in a player's own cards is said to them (``Game.hand_notes``): Fibonachos
held, Fumblaroo's trump order, Fizzbin's special cards, the hand held and the card drawn."""

from __future__ import annotations

import games
from games.fibonachos.cards import is_fibonacho
from games.fumblaroo.game import Fumblaroo
from tests.games.fizzbin.helpers import act, game


def test_fibonachos_names_the_fibonachos_in_the_hand():
    g = games.new_game("fibonachos", 3, seed=2)
    for seat in range(3):
        held = [c for c in g.sorted_hand(g.hands[seat]) if is_fibonacho(c)]  # type: ignore[attr-defined]
        assert held
        assert g.hand_notes(seat) == [f"Fibonachos in your hand: {g.cards_label(held)}."]


def test_fumblaroo_gives_the_trump_order_highest_first_and_the_trumps_held():
    g = Fumblaroo.new(3, seed=1)
    g.trump = "D"
    [note] = g.hand_notes(0)
    assert note.startswith("Trump, highest first: ♦️2 ♥️2 ♦️A ♦️K ♦️Q ♦️J ♦️10 ♦️9.")
    trumps = [c for c in g.trump_order("D") if c in g.hands[0]]
    assert note.endswith(f"You hold {g.cards_label(trumps)}." if trumps else "You hold none.")
    bidding = Fumblaroo.new(3, seed=1)
    assert bidding.up_card is not None
    assert bidding.hand_notes(0)[0].startswith("If ")  # the up-card's suit, if ordered


PLAIN4 = ["3S 5S 6S 8S 9S TS JS", "3H 5H 6H 8H 9H TH JH", "3D 5D 6D 8D TD JD",
          "3C 5C 6C 8C 9C TC"]


def test_fizzbin_names_the_card_drawn_to_the_drawer_alone_until_the_turn_ends():
    g = game(PLAIN4, "JC 9D 7S", time="day")
    drawer = g.to_act
    others = [p for p in range(4) if p != drawer]
    before = {p: g.hand_notes(p) for p in others}
    events = g.apply(drawer, "draw stack")
    drawn = next(c for c in g.holding(drawer) if c.text == "JC")
    assert f"You drew {g.card_label(drawn)}." in g.hand_notes(drawer)
    assert all(g.hand_notes(p) == before[p] for p in others)
    assert g.card_label(drawn) not in " ".join(map(str, events))  # the table says "a card"
    assert g.card_label(drawn) not in " ".join(v for _, v in g.view_for(None).facts)
    act(g, f"{drawer} discard JC {drawer}")
    assert not any(n.startswith("You drew") for n in g.hand_notes(drawer))


def test_fizzbin_says_the_hand_held_and_the_special_cards():
    g = game(["AS AH 3S 5S 6S KC 9S", "3H 5C 6H 8C 9H TC JH", "3D 5D 6D 8D TD JD",
              "3C 5H 6C 8H 9C TH"], "9D", time="day")
    notes = g.hand_notes(0)
    assert "You hold a Half Fizzbin." in notes and "Special by day: ♣️K." in notes
    assert g.hand_notes(1)[-1].startswith("You hold nothing yet")
    assert g.hand_notes(3)[-1] == "You hold nothing yet: a pair of Aces, Jacks or 7s is a " \
        "Half Fizzbin."

