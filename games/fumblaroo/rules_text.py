"""Fumblaroo's rules in brief, for ``/rules``: the summary, and the scoring for its first
page."""

SUMMARY = """\
**Fumblaroo** (exactly 3 players, Euchre-like). 27 cards: 2, 9, 10, J, Q, K, A in \
spades, hearts, diamonds and clubs, without the King of Clubs.
- Five cards each; the other twelve are the Kingdom, its top card turned up. \
**2 of clubs turned up:** the hand is void and the dealer scores 1.
- **Bidding:** the dealer's left, then the third player, may **order it up** or **pass**. \
If both pass, the dealer **picks it up** or **turns it down**. On an order or a pick the \
up-card's suit is trump: the dealer takes the card and discards one face down. Turned \
down: the dealer's left **must call** one of the other three suits.
- **Trump ranks** 9, 10, J, Q, K, A, then the 2 of the other suit of trump's colour, \
then the 2 of trump (highest). That other 2 is a trump only. Plain suits rank 2 (low) \
to A.
- **Tricks:** the dealer's left leads the first of five. Follow suit if you can, else \
play anything. Highest trump wins, else the highest card of the suit led.
"""

SCORING = """\
by the tricks of a hand: 5-0-0 gives 5, 4-1-0 gives 2, 3-1-1 or 3-2-0 gives 1 to the \
top player, whoever called. 2-2-1: 2 to each player on 2 tricks who did not call trump. \
The target is 10 by default; players level at the top play on.\
"""
