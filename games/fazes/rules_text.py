"""Fazes' rules in brief, for ``/rules``: the summary, and the scoring for its first page."""

from games.fazes.cards import (
    COLOUR_EMOJI,
    COLOUR_NAMES,
    COLOURS,
    GREEN_TWO,
    REMOVAL_ORDER,
    card_label,
)

_COLOURS = ", ".join(f"{COLOUR_NAMES[c]} {COLOUR_EMOJI[c]}" for c in COLOURS)
_SET_ASIDE = " ".join(map(card_label, REMOVAL_ORDER))

SUMMARY = f"""\
**Fazes** (3-8 players). 52 cards: {_COLOURS}, \
numbered 2 to 14. So the deck divides evenly, the first `52 % players` of {_SET_ASIDE} \
are set aside; all the rest is dealt.
- Each faze, whoever holds **{card_label(GREEN_TWO)} leads it**. Play goes clockwise; \
follow the led colour if you can. The highest card of the led colour wins; the winner \
leads next.
- **Red is trump in fazes 1 and 6:** if you cannot follow you **must** play a red \
card if you have one, and the highest red in a trick wins it.
- **Shoot the moon:** take all of a faze's points (not in faze 5) and you score 0 \
for them while everyone else scores the faze's total.
"""

SCORING = """\
the points in the tricks you win, faze by faze: 1 Red Trump: each red 5. 2 Tricks 'R \
Pointr: each trick 10. 3 Yellow Pointers: each yellow 10. 4 13's: each 13 is 25. \
5 Last Trick: the last trick scores -50, nothing else. 6 Madness: each trick 10, red 5, \
yellow 10, 13 25 (red 13 = 30, yellow 13 = 35), and the last trick also -50.\
"""
