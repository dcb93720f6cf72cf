"""How far one faze moves the margin between two seats: a logistic curve's scale, in points.

Made by ``python -m bench.faze_spreads --out games/fazes/computer/spreads.py``
(do not edit): for each (players, faze), 10000 fazes from seed 1 played out by the rules
of thumb, the standard deviation of two seats' difference of points times sqrt(3) / pi.
The hard level's standing (:func:`games.fazes.computer.advice.standing_of`) adds those of
the fazes still to play with its options ``measured`` or ``shares`` (both off by default).
"""

FAZES_PLAYED = 10000
SEED = 1

#: (players, faze) -> the scale of the margin one faze adds, in points.
SCALES: dict[tuple[int, int], float] = {
    (3, 1): 11.2,
    (3, 2): 30.7,
    (3, 3): 37.4,
    (3, 4): 27.5,
    (3, 5): 22.6,
    (3, 6): 63.0,
    (4, 1): 10.5,
    (4, 2): 21.5,
    (4, 3): 31.5,
    (4, 4): 23.7,
    (4, 5): 19.6,
    (4, 6): 52.8,
    (5, 1): 10.0,
    (5, 2): 15.8,
    (5, 3): 27.6,
    (5, 4): 21.5,
    (5, 5): 17.2,
    (5, 6): 47.8,
    (6, 1): 9.5,
    (6, 2): 12.2,
    (6, 3): 24.6,
    (6, 4): 19.8,
    (6, 5): 15.8,
    (6, 6): 44.4,
    (7, 1): 9.1,
    (7, 2): 10.2,
    (7, 3): 23.0,
    (7, 4): 18.4,
    (7, 5): 14.6,
    (7, 6): 41.6,
    (8, 1): 8.7,
    (8, 2): 8.5,
    (8, 3): 21.5,
    (8, 4): 17.6,
    (8, 5): 13.7,
    (8, 6): 39.2,
}
