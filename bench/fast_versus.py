"""A game's search fast path against an earlier version of itself, in one process.

    .venv/bin/python -m bench.fast_versus fizzbin [--rev main] [--runs 7] [--json PATH]

``games/<game>/computer/fast.py`` as it was at ``--rev`` (read with ``git show``, the rest of the
package as it is now) is loaded beside today's. Both start from the mid-game state of
``bench.rules`` (halfway through the first horizon, default options, 4 players or the
nearest count). First they must play the same games: from that state and from states
taken anywhere in a few seeded games, the same seeds give the same moves offered, the
same moves played and the same values, by uniformly random moves and by the rollout
policy; any difference stops the bench. Then random playouts per 300 ms from mid-game
(``bench.rules``' measure), the two versions interleaved round by round, with the ratio
in each round: the median and the min-max spread over ``--runs`` rounds.

Run it before merging a change to a fast path, to show that it is faster at the same
work; once the change is on ``--rev`` there is nothing left to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import types
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import games
from bench.rules import Spread, machine, mid_game, mid_game_players, per_300ms
from games.core.game import Game
from games.players import knowledge_for
from games.players.base import SearchState

#: Seeded games whose states (after a random number of random actions) are compared too.
SEEDS = 30
#: Playouts compared per state and seed.
TRACES = 10


#: Where the search's modules lived before each game's computer knowledge moved to
#: ``games/<game>/computer/``: an older revision's fast path imports these names.
BEFORE_COMPUTER_FOLDERS = {
    f"games.{game}.{old}": f"games.{game}.computer.{new}"
    for game, moves in {
        "fiasco": {"encoding": "bits", "tactics": "thumb", "inference": "inference"},
        "fizzbin": {"tactics": "thumb", "history": "history"},
        "fibonachos": {"bits": "bits", "thumb": "thumb"},
        "fazes": {"bits": "bits", "thumb": "thumb"},
        "fumblaroo": {"bits": "bits", "thumb": "thumb"},
    }.items()
    for old, new in moves.items()
}


def source_at(name: str, rev: str) -> str:
    """The text of ``games/<name>/computer/fast.py`` at git revision ``rev`` (or of
    ``games/<name>/fast.py``, where it was before, its imports named as today)."""
    for path in (f"games/{name}/computer/fast.py", f"games/{name}/fast.py"):
        shown = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True)
        if shown.returncode == 0:
            return re.sub(r"\bgames\.\w+\.\w+\b",
                          lambda m: BEFORE_COMPUTER_FOLDERS.get(m.group(0), m.group(0)),
                          shown.stdout)
    raise SystemExit(f"fast_versus: {rev} has no fast path for {name}")


def load_version(name: str, source: str, label: str) -> types.ModuleType:
    """``source`` (a version of ``games/<name>/computer/fast.py``) as a module of its own."""
    module = types.ModuleType(f"_fast_{name}_at_{label}")
    module.__file__ = f"games/{name}/computer/fast.py@{label}"
    sys.modules[module.__name__] = module  # dataclasses and typing look modules up by name
    exec(compile(source, module.__file__, "exec"), module.__dict__)  # our own code
    return module


def state_builder(module: types.ModuleType, today: SearchState) -> Callable[[Game[Any]], Any]:
    """How ``module`` builds its search state from a game: its ``from_game`` function,
    or the ``from_game`` of its class named as today's."""
    if callable(getattr(module, "from_game", None)):
        return module.from_game  # type: ignore[no-any-return]
    return getattr(module, type(today).__name__).from_game  # type: ignore[no-any-return]


def trace(start: Any, seed: int, *, rollout: bool) -> list[Any]:
    """Everything observable of one playout from a copy of ``start``."""
    rng = random.Random(seed)
    state = start.copy()
    out: list[Any] = []
    while not state.done():
        if rollout:
            move = state.rollout_move(rng)
        else:
            moves = list(state.moves())
            out.append(moves)
            move = moves[rng.randrange(len(moves))]
        out.append(move)
        state.play(move)
    return [*out, list(state.values()), state.to_act(), list(state.moves())]


def starts(name: str) -> list[Game[Any]]:
    """The mid-game state, and states anywhere in seeded games of every player count."""
    cls = games.get(name)
    out = [mid_game(name, mid_game_players(name))]
    for seed in range(SEEDS):
        game = games.new_game(name, cls.min_players + seed % (cls.max_players - cls.min_players
                                                             + 1), seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(100)):
            if game.over:
                break
            actions = game.legal_actions()
            game.apply(game.to_act, actions[rng.randrange(len(actions))])  # type: ignore[arg-type]
        if not game.over:
            out.append(game)
    return out


def same_games(name: str, old: Callable[[Game[Any]], Any]) -> int:
    """How many playouts agree move for move (raises AssertionError at the first that
    does not)."""
    know = knowledge_for(name)
    assert know is not None
    checked = 0
    for game in starts(name):
        a, b = old(game), know.from_game(game)
        for seed in range(TRACES):
            for rollout in (False, True):
                assert trace(a, seed, rollout=rollout) == trace(b, seed, rollout=rollout), (
                    f"the two versions part ways (seed {seed}, rollout {rollout})")
                checked += 1
    return checked


def run(name: str, rev: str, runs: int, source: str | None = None) -> dict[str, Any]:
    """Both checks and every measurement; ``source`` stands in for the file at ``rev``."""
    know = knowledge_for(name)
    if know is None:
        raise SystemExit(f"{name} has no search fast path")
    game = mid_game(name, mid_game_players(name))
    today = know.from_game(game)
    old = load_version(name, source if source is not None else source_at(name, rev), rev)
    old_state = state_builder(old, today)
    checked = same_games(name, old_state)
    before = old_state(game)
    old_rates, new_rates, ratios = [], [], []
    for round_ in range(runs):
        old_rates.append(per_300ms(before, round_))
        new_rates.append(per_300ms(today, round_))
        ratios.append(new_rates[-1] / old_rates[-1])
    return {
        "machine": machine(), "load_average": os.getloadavg(), "game": name, "rev": rev,
        "players": mid_game_players(name), "runs": runs, "same_playouts_checked": checked,
        "per_300ms_at_rev": asdict(Spread.of(old_rates)),
        "per_300ms_now": asdict(Spread.of(new_rates)),
        "ratio": asdict(Spread.of(ratios)),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=games.names())
    parser.add_argument("--rev", default="main", help="the git revision to compare against")
    parser.add_argument("--runs", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    result = run(args.game, args.rev, args.runs)
    print(f"{result['machine']['cpu']}, load average "
          f"{', '.join(f'{x:.1f}' for x in result['load_average'])}")
    print(f"{args.game}: {result['same_playouts_checked']} playouts the same move for move")
    print(f"random playouts per 300 ms from mid-game, median (min-max) of {args.runs} rounds:")
    print(f"  at {args.rev}: {Spread(**result['per_300ms_at_rev']).text()}")
    print(f"  now: {Spread(**result['per_300ms_now']).text()}")
    print(f"  ratio, round by round: {Spread(**result['ratio']).text('.2f')}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
