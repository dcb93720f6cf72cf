"""``python -m games play`` with variants of the hard level as seats, to compare ideas.

    .venv/bin/python -m bench.variants fizzbin --seats hard@cards=2,easy,easy,easy \\
        --games 200 --rotate --duplicate --json --options '{"hands": 1}'

A seat ``hard@key=value@...`` is the hard level with its settings changed: ``budget``,
``halving``, ``per_world`` and ``engine`` go to :class:`~games.players.hard.HardPlayer`,
every other key to the game's advice class (``games/<game>/computer/advice.py``), e.g.
``cards`` and ``targets`` in Fizzbin; ``hard@plain`` searches with the knowledge alone
(every legal move, the knowledge's worlds). Values are JSON (``2``, ``0.5``, ``false``).
Every other argument is ``play``'s (``--budget`` applies to the variants too). The
variants exist in this process only, so ``--workers`` must stay 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from games.cli import play
from games.players.advice import Advice, KnowledgeOnly, advice_for
from games.players.hard import HardPlayer
from games.players.levels import Player, register_level

PLAYER_KEYS = frozenset({"budget", "halving", "per_world", "engine"})


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
    return HardPlayer(**mine, advice=advice)


def main(argv: list[str]) -> int:
    game = argv[0] if argv else ""
    seats = argv[argv.index("--seats") + 1] if "--seats" in argv else ""
    budget = argv[argv.index("--budget") + 1] if "--budget" in argv else None
    for spec in {s.strip() for s in seats.split(",") if "@" in s}:
        made = variant(game, spec if budget is None or "@budget=" in spec
                       else f"{spec}@budget={budget}")
        register_level(spec, lambda made=made: made)  # type: ignore[misc]
    return play.main(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
