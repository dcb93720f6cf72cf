"""Fazes' rules in brief, for ``/rules``."""

SUMMARY = """\
**Fazes** (3-8 players). Points are bad: **lowest total wins**. 52 cards: Red R, \
Yellow Y, Green G and Black B, numbered 2 to 14. So the deck divides evenly, the \
first `52 % players` of B2 B3 G3 B4 are set aside; all the rest is dealt.
- Each faze, whoever holds **G2 leads it**. Play goes clockwise; follow the led \
colour if you can. The highest card of the led colour wins; the winner leads next.
- **Red is trump in fazes 1 and 6:** if you cannot follow you **must** play a red \
card if you have one, and the highest red in a trick wins it.
- **Scoring** (points in the tricks you win): 1 Red Trump: each red 5. \
2 Tricks 'R Pointr: each trick 10. 3 Yellow Pointers: each yellow 10. \
4 13's: each 13 is 25. 5 Last Trick: the last trick scores -50, nothing else. \
6 Madness: each trick 10, red 5, yellow 10, 13 25 (red 13 = 30, yellow 13 = 35), \
and the last trick also -50.
- **Shoot the moon:** take all of a faze's points (not in faze 5) and you score 0 \
for them while everyone else scores the faze's total.
"""
