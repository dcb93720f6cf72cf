"""``python -m games play`` with variants of the hard level as seats.

    python -m research.variants fizzbin --seats hard@cards=2,easy,easy,easy \\
        --games 200 --rotate --duplicate --json --options '{"hands": 1}'

A seat ``hard@key=value@...`` is the hard level with its settings changed: ``budget``
goes to :class:`~games.players.hard.HardPlayer`, every other key to the game's advice
class (``games/<game>/computer/advice.py``), e.g.
``cards`` and ``targets`` in Fizzbin; ``hard@plain`` searches with the knowledge alone
(every legal move, the knowledge's worlds). Values are JSON (``2``, ``0.5``, ``false``).
Every other argument is ``play``'s (``--budget`` applies to the variants too). The
variants are registered in this process and, with ``--workers`` above 1, in each
worker as it starts (the workers come from a fork server, which knows only the
registered levels).

``--against bench/strength-results.json.games`` pairs the match with the report's own
(``bench.strength``'s hard against easy, default or shortest options): seats
``VARIANT,easy,easy...`` with ``--seed 1 --rotate --duplicate`` deal the report's
deals, seat for seat (the variant's decisions draw on their own generators, its level
name mixed in, so even an unchanged variant differs from the report game by game). It
prints the ``play --json`` object with the variant's wins, their 95 % Wilson interval,
the fair share, and the games won only by the variant and only by the report's hard
(the longest such match saved, its first games), the difference in points of share
with its paired standard error. ``--record FILE`` appends each game as it ends, one
JSON line (its index and ``won``), so that a run cut short still has its games.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.strength import SHORTEST, Measured, group_wins, wilson
from games.cli import play
from games.players import match
from games.players.advice import Advice, KnowledgeOnly, advice_for
from games.players.hard import HardPlayer
from games.players.levels import Player, register_level
from research.seeing import paired

PLAYER_KEYS = frozenset({"budget"})


class Variant(HardPlayer):
    """The hard level searching with ``advice`` in its game (the game's own elsewhere)."""

    def __init__(self, budget: int | None = None, *, advice: Advice | None = None) -> None:
        super().__init__(budget)
        self.advice = advice

    def _advice(self, game: str) -> Advice:
        if self.advice is not None and self.advice.game == game:
            return self.advice
        return super()._advice(game)


def variant(game: str, spec: str) -> Player:
    """The hard player a seat ``hard@key=value@...`` names, in ``game``."""
    base, *parts = spec.split("@")
    if base != "hard":
        raise ValueError(f"{spec!r}: variants are of the hard level only")
    mine: dict[str, Any] = {}
    advised: dict[str, Any] = {}
    plain = False
    for part in parts:
        if part == "plain":
            plain = True
            continue
        key, _, value = part.partition("=")
        (mine if key in PLAYER_KEYS else advised)[key] = json.loads(value)
    advice: Advice | None = None
    if plain:
        advice = KnowledgeOnly(game)
    elif advised:
        registered = advice_for(game)
        if registered is None:
            raise ValueError(f"{game} has no advice to set {sorted(advised)} on")
        advice = type(registered)(**advised)
    return Variant(**mine, advice=advice)


def register(game: str, specs: Sequence[str], budget: str | None) -> None:
    """Register every seat of ``specs`` as a level (``budget``: ``--budget``'s value)."""
    for spec in specs:
        made = variant(game, spec if budget is None or "@budget=" in spec
                       else f"{spec}@budget={budget}")
        register_level(spec, lambda made=made: made)  # type: ignore[misc]


def main(argv: list[str]) -> int:
    game = argv[0] if argv else ""
    seats = argv[argv.index("--seats") + 1] if "--seats" in argv else ""
    budget = argv[argv.index("--budget") + 1] if "--budget" in argv else None
    specs = sorted({s.strip() for s in seats.split(",") if "@" in s})
    register(game, specs, budget)
    plain = match.processes

    def processes(workers: int) -> ProcessPoolExecutor:
        return plain(workers, register, (game, specs, budget))  # the variants in each worker

    match.processes = processes
    try:
        if "--against" in argv:
            return against(argv)
        return play.main(argv)
    finally:
        match.processes = plain


def _pop(argv: list[str], flag: str) -> str | None:
    if flag not in argv:
        return None
    at = argv.index(flag)
    value = argv[at + 1]
    del argv[at:at + 2]
    return value


def against(argv: list[str]) -> int:
    """The match of ``argv`` paired with the report's saved games (``--against``)."""
    argv = list(argv)
    saved = Path(str(_pop(argv, "--against")))
    record = _pop(argv, "--record")
    args = play.parser().parse_args(argv)
    made = play.build_match(args)
    if made.seats[1:] != ("easy",) * (made.players - 1) or not (made.rotate and made.duplicate):
        raise SystemExit("--against pairs a variant against easy players, "
                         "rotated and duplicated, as the report's match")
    if made.options == {}:
        kind = ""
    elif made.options == SHORTEST[made.game]:
        kind = ", shortest options"
    else:
        raise SystemExit("--against pairs the default or the shortest options only")
    results = []
    for index, result in enumerate(match.play_games(made, args.workers)):
        results.append(result)
        if record is not None:
            with open(record, "a", encoding="utf-8") as out:
                out.write(json.dumps({"index": index, "won": result.won}) + "\n")
    measured = Measured(made, (0,))
    n = len(results)
    out_: dict[str, Any] = {**match.summarize(made, results), **group_wins(measured, results)}
    low, high = wilson(out_["group_wins"], n)
    out_["share"] = round(out_["group_wins"] / n, 4)
    out_["wilson"] = [round(low, 4), round(high, 4)]
    pair = paired(results, saved, f"{made.game}:hard vs easy{kind}:{made.budget}")
    only, other = pair["seeing_only"], pair["hard_only"]
    spread = math.sqrt(max(0.0, only + other - (only - other) ** 2 / n))
    out_["paired"] = {
        "hard_wins": pair["hard_wins"], "variant_only": only, "hard_only": other,
        "points": round(100 * (only - other) / n, 2), "se_points": round(100 * spread / n, 2),
    }
    print(json.dumps(out_, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
