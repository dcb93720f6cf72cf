"""Fibonachos' rules in brief, for ``/rules``: the summary, and the scoring for its first
page."""

from games.fibonachos.cards import SPICY_EMOJI, SUIT_EMOJI, SUIT_NAMES, SUITS

_SUITS = ", ".join(f"{SUIT_NAMES[s]} {SUIT_EMOJI[s]}" for s in SUITS)

SUMMARY = f"""\
**Fibonachos** (2-5 players, three rounds). 51 Nacho cards: {_SUITS}, each 1, 1, 2 ... \
16. **Fibonachos** are 1, 2, 3, 5, 8 and 13. A Spicy deck {SPICY_EMOJI} of fifteen \
cards worth 1, 2 or 3: the face-up one is the prize of the trick.
- All cards are dealt (3: 17 each, 4: 12, 5: 10; the rest set aside). The dealer's left leads.
- **Follow the lead suit** if you can; if you cannot, play anything.
- **Trump:** if a trick holds two or more Fibonachos (any suits, the lead included), \
the highest Fibonacho wins, even off-suit; equal ones: the one played last wins. \
Otherwise the highest lead-suit card wins; off-suit non-Fibonachos never win.
- The winner takes the prize, turns up the next Spicy card and leads. When the Spicy \
deck is gone, tricks carry no prize.
- **Two players:** hands of 9 and a private deck of 11 each. A trick is four cards \
(leader, other, leader, other); after each play you draw from your own deck. 8 tricks a round.
"""

SCORING = """\
each round, on the sum S of your Spicy cards: no Spicy card at all scores **34**, the \
most there is; S = 1, 2, 3, 5, 8, 13 or 21 scores the next Fibonacci number (2, 3, 5, 8, \
13, 21, 34); any other S scores S.\
"""
