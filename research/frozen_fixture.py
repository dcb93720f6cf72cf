"""The positions and moves that pin the frozen level ``hard-2026-12`` to the hard of ``reorg``.

    python -m research.frozen_fixture [--rev reorg]
        [--out tests/games/players/frozen-hard.json]

Extracts the ``games`` package of git revision ``--rev`` (``git archive``, into a
temporary directory: no worktree, no checkout) and runs this file's :func:`positions`
there, in a child process whose ``games`` is that revision's. In every game (four
players, Fumblaroo three, default options) it plays two seeded games with easy
players, takes evenly spaced positions where the seat has a choice, and records the
revision's hard decision at each: most at a small budget (cheap to check), one per game
at the budget hard had in that game then (:data:`BUDGETS`). The test
``tests/games/players/test_frozen.py`` replays each position and asks ``hard-2026-12``.

Reads only the rules core and ``games.players``' public names, so it runs on either side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

#: The games and their player counts.
CASES = (("fazes", 4), ("fiasco", 4), ("fibonachos", 4), ("fizzbin", 4), ("fumblaroo", 3))
#: The budget of the cheap positions, and how many per game.
SMALL_BUDGET = 1_500
SMALL = 6
#: Hard's budget per game at the frozen revision (its knowledge modules' ``BUDGET``).
BUDGETS = {"fazes": 20_000, "fiasco": 20_000, "fibonachos": 20_000, "fizzbin": 26_000,
           "fumblaroo": 20_000}
SEEDS = (11, 12)
OUT = Path("tests/games/players/frozen-hard.json")


def positions() -> list[dict[str, Any]]:
    """Every fixture entry, decided by the ``games`` this process imports."""
    import random

    import games
    from games.players import decide, perspective
    from games.players.hard import HardPlayer

    print(f"games from {Path(games.__file__).parent}", file=sys.stderr)
    out: list[dict[str, Any]] = []
    for name, players in CASES:
        found: list[tuple[int, list[str]]] = []
        for seed in SEEDS:
            game = games.new_game(name, players, {}, seed=seed)
            while not game.over and game.to_act is not None:
                seat = game.to_act
                if len(game.legal_actions(seat)) > 1:
                    found.append((seed, list(game.history)))
                rng = random.Random(f"frozen-fixture:{name}:{seed}:{len(game.history)}")
                game.apply(seat, decide("easy", perspective(game, seat), rng).action)
        step = max(1, len(found) // (SMALL + 2))
        chosen = found[step::step][: SMALL + 1]
        for index, (seed, history) in enumerate(chosen):
            budget = BUDGETS[name] if index == SMALL else SMALL_BUDGET
            game = games.new_game(name, players, {}, seed=seed)
            for line in history:
                actor, _, text = line.partition(" ")
                game.apply(int(actor), text)
            assert game.to_act is not None
            rng = random.Random(f"frozen-fixture:{name}:{index}")
            decision = HardPlayer(budget=budget).decide(perspective(game, game.to_act), rng)
            out.append({"game": name, "players": players, "seed": seed, "history": history,
                        "budget": None if index == SMALL else budget,
                        "rng": f"frozen-fixture:{name}:{index}",
                        "action": str(decision.action)})
            print(f"{name} #{index}: {decision.action}", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="reorg", help="the revision whose hard is frozen")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--here", action="store_true",
                        help="decide with the games this process imports; print JSON")
    args = parser.parse_args(argv)
    if args.here:
        print(json.dumps(positions()))
        return 0
    commit = subprocess.run(["git", "rev-parse", args.rev], capture_output=True, text=True,
                            check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="frozen-fixture-") as tmp:
        archive = Path(tmp) / "games.tar"
        subprocess.run(["git", "archive", "-o", str(archive), commit, "games"], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        # Run this file by path (not -m), so that the working tree's games is not on the path.
        env = {**os.environ, "PYTHONPATH": tmp, "PYTHONHASHSEED": "0"}
        run = subprocess.run([sys.executable, __file__, "--here"], env=env, check=True,
                             stdout=subprocess.PIPE, text=True, cwd=tmp)
    entries = json.loads(run.stdout)
    fixture = {"made_by": f"python -m research.frozen_fixture --rev {args.rev}",
               "revision": commit, "entries": entries}
    args.out.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"{len(entries)} positions from {args.rev} ({commit[:10]}) in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
