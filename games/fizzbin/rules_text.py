"""Fizzbin's rules in brief, for ``/rules``: the summary, and the scoring for its first page."""

SUMMARY = """\
**Fizzbin** (2-6 players, 4 is best). A standard 52-card deck; a drawing game, no tricks.
- **Day or night** is fixed for each hand when it is dealt. **Special** ranks: K and 2 by \
day, Q and 4 by night. **Forced** ranks: Q and 4 by day, K and 2 by night.
- Six cards each; the dealer and the dealer's left get a seventh, and their **second card \
is face up** until it leaves the hand. The rest is the stack; everyone has a discard pile.
- The dealer's left plays first, then play goes **counter-clockwise**. On your turn **draw** \
the top of the stack or of any pile (yours too). A **special** card lets you draw again; a \
**forced** card goes straight onto your own pile and ends your drawing. Then **discard** one \
card onto any pile - not one you took from a pile this turn.
- The hand ends after the turn that empties the stack. Best to worst: **Royal Fizzbin** \
(K and 2 by day, Q and 4 by night, plus pairs of two of aces, jacks, sevens), **Full** (the \
same with one such pair), **Three-Quarters** (3 5 6 8 9 10, each in red by day, black by \
night), **Half** (one pair of aces, jacks or sevens - the lowest that wins), nothing. \
**Shronk** (three or four of a kind) always loses.
- The winner deals next; the one worst hand swaps seats with the player on the \
winner's left. No single winner: nobody moves.
"""

SCORING = """\
the one best hand of each hand, if it is at least a Half Fizzbin, scores 1; several \
best hands: nobody scores. A match is a set number of hands (5 by default).\
"""
