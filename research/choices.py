"""How good the choices of hard's variants are on real positions, judged with the true cards.

    python -m research.choices fiasco --levels hard-2026-12,hard,hard@budget=60000
        [--positions 200] [--playouts 400] [--seed 1] [--options JSON]

Win shares need hundreds of games to tell two players apart; their choices can be
compared on the same positions instead. Positions come from seeded games of one
``hard-2026-12`` player against easy ones (four players, Fumblaroo three), at the
decisions of a seat with three or more legal actions (any seat, so the history is the
kind the hard player meets). Each level decides each position from its perspective;
each action chosen by any level is then valued on the **true** state
(``Knowledge.from_game``: every hand, the stock in its real order) by ``--playouts``
playouts in which every seat plays as the easy level does (the rollout policy, with the
easy level's slips where the rollout policy has none: Fizzbin, Fibonachos): the value
the seat can expect from that choice in that very game against easy players. A level's score is its
mean value over the positions; the difference from the first level, position by position,
is given with its standard error (positive: better than the first level). The positions,
the playouts and the generators are the same for every level.

Levels are ``play``'s, or hard variants as ``research.variants`` writes them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import games
from games.core.game import Game
from games.players import Perspective, knowledge_for, perspective
from games.players.frozen import LEVEL as FROZEN
from games.players.levels import Player, player
from research.variants import variant


def positions(name: str, count: int, seed: int, options: dict[str, Any]
              ) -> list[tuple[Game[Any], Perspective]]:
    """``count`` (game, perspective) pairs with three or more legal actions."""
    cls = games.get(name)
    players = max(cls.min_players, min(4, cls.max_players))
    rng = random.Random(seed)
    frozen, easy = player(FROZEN), player("easy")
    found: list[tuple[Game[Any], Perspective]] = []
    index = 0
    while len(found) < count:
        game = games.new_game(name, players, options, seed=seed * 1000 + index)
        hard_seat = index % players
        index += 1
        while not game.over and len(found) < count:
            seat = game.to_act
            assert seat is not None
            view = perspective(game, seat)
            if len(view.legal) >= 3 and rng.random() < 0.2:
                found.append((game.clone(), view))
            who = frozen if seat == hard_seat else easy
            game.apply(seat, who.decide(view, random.Random(rng.random())).action)
    return found


def fizzbin_easy(state: Any, rng: random.Random) -> int:
    """The easy level's move on Fizzbin's fast path: the rules of thumb with its slips."""
    from games.fizzbin.computer.knowledge import SLIP

    me = state.turn
    return int(state._tactics.move(
        state.holding[me], state.piles, me, state.step, state.taken, state.pile_turn[me],
        bool(state.stack), overlook=rng.random() < SLIP, second=rng.random() < SLIP,
        no_bury=rng.random() < SLIP))


def fibonachos_easy(state: Any, rng: random.Random) -> int:
    """The easy level's move on Fibonachos' fast path: now and then it forgets trump."""
    from games.fibonachos.computer.knowledge import FORGETS_TRUMP
    from games.fibonachos.computer.thumb import choose

    seat, trick = state.turn, state.trick
    return choose(state.hands[seat], trick, after=state.size - len(trick) - 1,
                  spicy_sum=state.won[seat], prize=state.prize,
                  naive=rng.random() < FORGETS_TRUMP)


#: Games whose rollout policy has no noise, and the easy level on their fast path.
EASY: dict[str, Callable[[Any, random.Random], int]] = {
    "fizzbin": fizzbin_easy, "fibonachos": fibonachos_easy,
}


def true_value(game: Game[Any], view: Perspective, action_index: int, playouts: int) -> float:
    """The seat's mean value after the action, on the true state, by easy playouts."""
    know = knowledge_for(game.name)
    assert know is not None
    rng = random.Random(f"choices:{view.history}:{action_index}")
    start = know.from_game(game)
    easy = EASY.get(game.name)
    total = 0.0
    for _ in range(playouts):
        state = start.copy()
        state.play(state.move(view.legal[action_index]))
        while not state.done():
            state.play(easy(state, rng) if easy else state.rollout_move(rng))
        total += state.values()[view.seat]
    return total / playouts


def make(name: str, level: str) -> Player:
    return variant(name, level) if "@" in level else player(level)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--levels", default=f"{FROZEN},hard")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}")
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    players = {level: make(args.game, level) for level in levels}
    found = positions(args.game, args.positions, args.seed, json.loads(args.options))
    values: dict[str, list[float]] = {level: [] for level in levels}
    times: dict[str, list[float]] = {level: [] for level in levels}
    for n, (game, view) in enumerate(found):
        cache: dict[int, float] = {}
        for level in levels:
            began = time.process_time()
            action = players[level].decide(view, random.Random(f"choices:{n}")).action
            times[level].append(time.process_time() - began)
            chosen = view.legal.index(action)
            if chosen not in cache:
                cache[chosen] = true_value(game, view, chosen, args.playouts)
            values[level].append(cache[chosen])
    base = values[levels[0]]
    print(f"{args.game}: {len(found)} positions, {args.playouts} playouts per chosen action, "
          f"options {args.options}")
    for level in levels:
        diffs = [a - b for a, b in zip(values[level], base, strict=True)]
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        print(f"  {level:<32} mean value {statistics.fmean(values[level]):.4f}  "
              f"vs {levels[0]}: {statistics.fmean(diffs):+.4f} (se {se:.4f})  "
              f"median {statistics.median(times[level]) * 1000:.0f} ms", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
