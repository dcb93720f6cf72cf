"""How far each faze moves the margin between two seats, measured in self-play (issue 22).

    .venv/bin/python -m bench.faze_spreads [--fazes 10000] [--seed 1] [--out FILE]
    .venv/bin/python -m bench.faze_spreads --calibrate 5000 [--players 4] [--seed 1]

The hard level values the end of a faze by the game's standing: a logistic curve of the
seat's margin over the best of the others, as wide as the fazes still to play can move
it (``games.fazes.computer.advice.standing_of``). How far one faze moves a margin is
measured here, not guessed: for every number of players (3 to 8) and every faze (1 to
6), ``--fazes`` fazes dealt from seeds ``seed``, ``seed + 1``, ... are played out by the
rules of thumb (the search's own rollout policy, ``FastFazes.rollout_move``), and the
standard deviation of the difference between the first two seats' points is turned into
the scale of a logistic curve with that spread (times sqrt(3) / pi).

Without ``--out`` it prints the table; with it, it writes the Python module that the hard
level's options ``measured`` and ``shares`` read (``games/fazes/computer/spreads.py``),
which must be exactly what this command makes (``tests/games/fazes/test_spreads.py``
remakes two cells).

``--calibrate GAMES`` asks how well such curves tell the chance of finishing first:
it plays GAMES whole games of six fazes by the rules of thumb (dealt from seeds of their
own, none the table's) and, after each of the first five fazes, finds the width whose
curve (the standing's own: each seat's margin over the best of the others, ties counting
``TIE`` more) best predicts which seats won (maximum likelihood), beside the width the
level guesses and the one the table gives; and the same for the shares of the chance of
finishing first (``first_shares``, a softmax of the totals): the scale that fits best and
the table's spread. With the mean log loss of each (the lower, the better it predicts)
and that of giving every seat the same chance, whatever the totals. Prints one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import games
from games.fazes.computer.advice import TIE
from games.fazes.computer.fast import _RULES, FastFazes
from games.fazes.computer.spreads import SCALES
from games.fazes.game import Fazes
from games.players.standing import DEAL_SPREAD, LAST_WIDTH, first_shares, place_values, spread

PLAYERS = range(3, 9)
FAZES = (1, 2, 3, 4, 5, 6)
DEFAULT_FAZES = 10_000
DEFAULT_SEED = 1


def played(players: int, faze: int, seed: int) -> list[int]:
    """Each seat's points in ``faze`` dealt from ``seed``, played out by the rules of thumb."""
    game = games.new_game("fazes", players, {"fazes": [faze]}, seed=seed)
    assert isinstance(game, Fazes)
    state = FastFazes.from_game(game)
    rng = random.Random(seed)
    while not state.done():
        state.play(state.rollout_move(rng))
    return state.points()


def scale(players: int, faze: int, *, fazes: int = DEFAULT_FAZES,
          seed: int = DEFAULT_SEED) -> float:
    """The logistic scale of the first two seats' difference of points in ``faze`` with
    ``players``, over ``fazes`` fazes played by the rules of thumb (rounded to 0.1)."""
    differences = [p[0] - p[1] for p in (played(players, faze, s)
                                         for s in range(seed, seed + fazes))]
    return round(statistics.pstdev(differences) * math.sqrt(3) / math.pi, 1)


#: Where ``--calibrate`` deals its games from: far past the table's seeds, so that no
#: deal of the calibration is one the table was measured on.
CALIBRATION_SEEDS = 1_000_000_000

Board = tuple[list[int], list[bool]]  # each seat's total after a faze, and who won the game


def log_loss(place: Callable[[list[int]], list[float]], boards: Sequence[Board]) -> float:
    """The mean log loss, per seat, of the chances ``place`` gives the seats of finishing
    first, on ``boards`` (the lower, the better it predicts)."""
    total = 0.0
    seats = 0
    for totals, won in boards:
        for chance, w in zip(place(totals), won, strict=True):
            chance = min(max(chance, 1e-12), 1 - 1e-12)
            total -= math.log(chance if w else 1 - chance)
            seats += 1
    return total / seats


def curve(width: float) -> Callable[[list[int]], list[float]]:
    """The level's curve of the margin over the best of the others, ``width`` wide."""
    return partial(place_values, width=width, lower_is_better=True, tie=TIE)


def shares(scale: float) -> Callable[[list[int]], list[float]]:
    """Each seat's share of the chance of finishing first, of ``scale``."""
    return partial(first_shares, scale=scale, lower_is_better=True)


def best_fit(place: Callable[[float], Callable[[list[int]], list[float]]],
             boards: Sequence[Board]) -> float:
    """The width (or scale), between 1 and 1,000 points, whose ``place`` has the least
    :func:`log_loss` on ``boards``."""
    low, high = 1.0, 1000.0
    for _ in range(80):  # a ternary search: the loss has one minimum in the width
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if log_loss(place(a), boards) < log_loss(place(b), boards):
            high = b
        else:
            low = a
    return (low + high) / 2


def alike(boards: Sequence[Board]) -> float:
    """The log loss of giving every seat the same chance, the share of seats that won."""
    rate = sum(sum(won) for _, won in boards) / sum(len(won) for _, won in boards)
    return log_loss(lambda totals: [rate] * len(totals), boards)


def boards_after(game_count: int, *, players: int, seed: int) -> list[list[Board]]:
    """``game_count`` games of six fazes played by the rules of thumb: after each of the
    first five fazes, every game's totals and who won it."""
    found: list[list[Board]] = [[] for _ in FAZES[:-1]]
    for g in range(seed, seed + game_count):
        totals = [0] * players
        after: list[list[int]] = []
        for i, faze in enumerate(FAZES):
            deal = CALIBRATION_SEEDS + 10 * g + i
            totals = [t + p for t, p in zip(totals, played(players, faze, deal), strict=True)]
            after.append(totals)
        won = [t == min(totals) for t in totals]
        for k, seen in enumerate(after[:-1]):
            found[k].append((seen, won))
    return found


def calibrate(game_count: int, *, players: int = 4, seed: int = DEFAULT_SEED,
              scales: dict[tuple[int, int], float] | None = None) -> dict[str, object]:
    """After each of the first five fazes of ``game_count`` games of six played by the
    rules of thumb: the widths of the level's curve (best-fitting, guessed, measured) and
    the scales of the shares of first place (best-fitting, measured), with the log loss
    of each, and that of the same chance for every seat."""
    table_ = SCALES if scales is None else scales
    out = []
    for k, boards in enumerate(boards_after(game_count, players=players, seed=seed)):
        sliver = LAST_WIDTH * _RULES[(players, FAZES[k])].span
        to_come = FAZES[k + 1:]
        measured = spread([table_[(players, f)] for f in to_come])
        widths = {"fitted": best_fit(curve, boards),
                  "guessed": sliver + spread([DEAL_SPREAD * _RULES[(players, f)].span
                                              for f in to_come]),
                  "measured": sliver + measured}
        share_scales = {"shares_fitted": best_fit(shares, boards), "shares_measured": measured}
        row: dict[str, object] = {"after_faze": FAZES[k]}
        for name, w in widths.items():
            row[name] = {"width": round(w, 1), "log_loss": round(log_loss(curve(w), boards), 4)}
        for name, w in share_scales.items():
            row[name] = {"scale": round(w, 1), "log_loss": round(log_loss(shares(w), boards), 4)}
        row["every_seat_alike_log_loss"] = round(alike(boards), 4)
        out.append(row)
    return {"players": players, "games": game_count, "seed": seed, "after": out}


def table(*, fazes: int = DEFAULT_FAZES, seed: int = DEFAULT_SEED) -> dict[tuple[int, int], float]:
    """:func:`scale` for every number of players and every faze."""
    return {(n, f): scale(n, f, fazes=fazes, seed=seed) for n in PLAYERS for f in FAZES}


def module_text(scales: dict[tuple[int, int], float], *, fazes: int, seed: int) -> str:
    """The source of ``games/fazes/computer/spreads.py`` holding ``scales``."""
    rows = "\n".join(f"    ({n}, {f}): {v}," for (n, f), v in sorted(scales.items()))
    command = "python -m bench.faze_spreads --out games/fazes/computer/spreads.py"
    if fazes != DEFAULT_FAZES or seed != DEFAULT_SEED:
        command += f" --fazes {fazes} --seed {seed}"
    head = ('"""How far one faze moves the margin between two seats: '
            "a logistic curve's scale, in points.\n")
    return head + f'''
Made by ``{command}``
(do not edit): for each (players, faze), {fazes} fazes from seed {seed} played out by the rules
of thumb, the standard deviation of two seats' difference of points times sqrt(3) / pi.
The hard level's standing (:func:`games.fazes.computer.advice.standing_of`) adds those of
the fazes still to play with its options ``measured`` or ``shares`` (both off by default).
"""

FAZES_PLAYED = {fazes}
SEED = {seed}

#: (players, faze) -> the scale of the margin one faze adds, in points.
SCALES: dict[tuple[int, int], float] = {{
{rows}
}}
'''


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faze_spreads")
    parser.add_argument("--fazes", type=int, default=DEFAULT_FAZES,
                        help="fazes played for each number of players and faze")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, help="write the module here")
    parser.add_argument("--calibrate", type=int, metavar="GAMES",
                        help="fit the standing's widths to GAMES whole games instead")
    parser.add_argument("--players", type=int, choices=PLAYERS, default=4,
                        help="players in the --calibrate games (4 unless said)")
    args = parser.parse_args(argv)
    if args.calibrate is not None:
        if args.calibrate < 1:
            parser.error("--calibrate needs at least 1 game")
        print(json.dumps(calibrate(args.calibrate, players=args.players, seed=args.seed),
                         indent=1))
        return 0
    if args.fazes < 2:
        parser.error("--fazes must be at least 2 (a spread needs two fazes)")
    scales = table(fazes=args.fazes, seed=args.seed)
    if args.out is None:
        for (n, f), v in sorted(scales.items()):
            print(f"{n} players, faze {f}: {v}")
    else:
        args.out.write_text(module_text(scales, fazes=args.fazes, seed=args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
