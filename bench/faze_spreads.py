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

Without ``--out`` it prints the table; with it, it writes the Python module the hard
level reads (``games/fazes/computer/spreads.py``), which must be exactly what this
command makes (``tests/games/fazes/test_spreads.py`` remakes a cell).

``--calibrate GAMES`` asks how well such curves tell the chance of finishing first:
it plays GAMES whole games of six fazes by the rules of thumb and, after each of the
first five fazes, finds the width whose curve (the standing's own: each seat's margin
over the best of the others, ties counting ``TIE`` more) best predicts which seats won
(maximum likelihood), beside the width the level guesses and the one the table gives;
and the same for the shares of the chance of finishing first (``first_shares``, a
softmax of the totals): the scale that fits best and the table's spread. With the mean
log loss of each (the lower, the better it predicts) and that of giving every seat the
same chance, whatever the totals. Prints one JSON object.
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
from games.fazes.game import Fazes
from games.players.standing import DEAL_SPREAD, LAST_WIDTH, first_shares, spread

PLAYERS = range(3, 9)
FAZES = range(1, 7)
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


def log_loss(width: float, rows: Sequence[tuple[int, bool]]) -> float:
    """The mean log loss of the standing's curve of ``width`` on (margin, won) ``rows``."""
    total = 0.0
    for margin, won in rows:
        z = (margin + TIE) / width
        chance = min(max(1.0 / (1.0 + math.exp(-z)) if z > -40 else 0.0, 1e-12), 1 - 1e-12)
        total -= math.log(chance if won else 1 - chance)
    return total / len(rows)


def shares_loss(scale: float, games_: Sequence[tuple[list[int], list[bool]]]) -> float:
    """The mean log loss, per seat, of :func:`~games.players.standing.first_shares` of
    ``scale`` on (totals, won) ``games_``."""
    total = 0.0
    seats = 0
    for totals, won in games_:
        for chance, w in zip(first_shares(totals, scale=scale, lower_is_better=True), won,
                             strict=True):
            chance = min(max(chance, 1e-12), 1 - 1e-12)
            total -= math.log(chance if w else 1 - chance)
            seats += 1
    return total / seats


def least(loss: Callable[[float], float]) -> float:
    """The width (or scale) of least ``loss``, between 1 and 1,000 points."""
    low, high = 1.0, 1000.0
    for _ in range(80):  # a ternary search: the loss has one minimum in the width
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if loss(a) < loss(b):
            high = b
        else:
            low = a
    return (low + high) / 2


def calibrate(games_: int, *, players: int = 4, seed: int = DEFAULT_SEED,
              scales: dict[tuple[int, int], float] | None = None) -> dict[str, object]:
    """After each of the first five fazes of ``games_`` games of six played by the rules of
    thumb: the best-fitting width, the guessed one and the table's, with their log loss."""
    if scales is None:
        from games.fazes.computer.spreads import SCALES
        scales = SCALES
    fazes = list(FAZES)
    rows: list[list[tuple[int, bool]]] = [[] for _ in fazes[:-1]]
    boards: list[list[tuple[list[int], list[bool]]]] = [[] for _ in fazes[:-1]]
    for g in range(seed, seed + games_):
        totals = [0] * players
        after: list[list[int]] = []
        for i, faze in enumerate(fazes):
            totals = [t + p for t, p in zip(totals, played(players, faze, g * 10 + i), strict=True)]
            after.append(totals)
        best = min(totals)
        for k, seen in enumerate(after[:-1]):
            boards[k].append((seen, [t == best for t in totals]))
            for q in range(players):
                others = min(seen[j] for j in range(players) if j != q)
                rows[k].append((others - seen[q], totals[q] == best))
    out = []
    for k, found in enumerate(rows):
        span = LAST_WIDTH * _RULES[(players, fazes[k])].span
        to_come = fazes[k + 1:]
        widths = {"fitted": least(partial(log_loss, rows=found)),
                  "guessed": span + spread([DEAL_SPREAD * _RULES[(players, f)].span
                                            for f in to_come]),
                  "measured": span + spread([scales[(players, f)] for f in to_come])}
        rate = sum(won for _, won in found) / len(found)  # one in ``players``, ties aside
        base = -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate)) if 0 < rate < 1 else 0.0
        scales_ = {"shares_fitted": least(partial(shares_loss, games_=boards[k])),
                   "shares_measured": spread([scales[(players, f)] for f in to_come])}
        out.append({"after_faze": fazes[k], **{
            name: {"width": round(w, 1), "log_loss": round(log_loss(w, found), 4)}
            for name, w in widths.items()}, **{
            name: {"scale": round(w, 1), "log_loss": round(shares_loss(w, boards[k]), 4)}
            for name, w in scales_.items()}, "every_seat_alike_log_loss": round(base, 4)})
    return {"players": players, "games": games_, "seed": seed, "after": out}


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
the fazes still to play.
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
                        help="players in the --calibrate games")
    args = parser.parse_args(argv)
    if args.fazes < 2:
        parser.error("--fazes must be at least 2 (a spread needs two fazes)")
    if args.calibrate is not None:
        if args.calibrate < 1:
            parser.error("--calibrate needs at least 1 game")
        print(json.dumps(calibrate(args.calibrate, players=args.players, seed=args.seed),
                         indent=1))
        return 0
    scales = table(fazes=args.fazes, seed=args.seed)
    if args.out is None:
        for (n, f), v in sorted(scales.items()):
            print(f"{n} players, faze {f}: {v}")
    else:
        args.out.write_text(module_text(scales, fazes=args.fazes, seed=args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
