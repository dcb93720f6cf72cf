"""Fiasco's rules in brief, for ``/rules``: the summary, and the scoring for its first page."""

from games.fiasco.cards import FIASCO, KING, SUITS, card_label, suit_words

_SUITS = ", ".join(suit_words(s) for s in SUITS)

SUMMARY = f"""\
**Fiasco** (2-6 players, teams at 4 or 6). 54 cards: six suits ({_SUITS}) of 1, 2, 3, \
4, 6, 7, 8; six Kings {card_label(KING)} (rank 9, the highest) and six Fiascos \
{card_label(FIASCO)} (rank 5).
- **Claim a suit** each, from the dealer's left. You keep it all game.
- Six cards each. Everyone plays one card into the pot; there is no suit to follow. \
**Highest rank wins the pot**: the winner keeps every card of their own suit and every \
King on their collection pile; the rest goes to the waste.
- **Fiasco penalty:** for each Fiasco in the pot, the winner loses the top card of \
their collection pile.
- **Tie for high:** the pot stays and everyone plays again, the same leader leading; \
the newest cards decide, and the winner takes the whole pot.
- When hands are empty, more cards are dealt (up to six each) while the stock lasts.
"""

SCORING = """\
**Counting Round:** 2 points per card of your suit (all seven: 20), 1 per King (all \
six: 10). Quick game: the highest total after one Counting Round wins. Extended: first \
to 42.\
"""
