"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012), to compare.

The alternative to :mod:`games.players.search` that the issue asks to measure: one
tree over the moves of every seat, each iteration on a freshly sampled world,
children chosen by UCB among the moves available in that world (counting how
often each was available), a rollout with the rollout policy below the tree, and
the result backed up for the seat that moved into each node. The root's most
visited action is chosen. The budget counts simulated moves, as the flat search's.

It is not the hard level (``bench.allocation`` and the head-to-head in
``docs/computer-players.md`` say why); ``HardPlayer(engine="ismcts")`` plays it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from games.core.actions import Action
from games.players.base import SearchState

#: UCB's exploration constant for values in [0, 1].
EXPLORATION = 0.7


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move led here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


def ismcts(
    seat: int,
    candidates: Sequence[Action],
    sample: Callable[[], SearchState],
    rng: random.Random,
    *,
    budget: int,
) -> tuple[int, int]:
    """The index of the candidate ISMCTS chooses for ``seat``, and the worlds it sampled."""
    root = _Node(-1)
    first = sample()
    moves = [first.move(action) for action in candidates]
    spent = worlds = 0
    world: SearchState | None = first
    while spent < budget or worlds == 0:
        state = world if world is not None else sample()
        world = None
        worlds += 1
        spent += _iterate(root, state, rng)
    visits = [root.children[m].visits if m in root.children else 0 for m in moves]
    best = min(range(len(candidates)), key=lambda i: (-visits[i], i))
    return best, worlds


def _iterate(root: _Node, state: SearchState, rng: random.Random) -> int:
    """One iteration on ``state``: select, expand one node, roll out, back up; moves spent."""
    path = [root]
    node = root
    spent = 0
    while not state.done():
        mover = state.to_act()
        moves = state.moves()
        untried = [m for m in moves if m not in node.children]
        for m in moves:
            child = node.children.get(m)
            if child is not None:
                child.available += 1
        if untried:
            move = untried[rng.randrange(len(untried))]
            child = _Node(mover)
            child.available = 1
            node.children[move] = child
            node = child
            state.play(move)
            spent += 1
            path.append(node)
            break
        move, node = _select(node, moves)
        state.play(move)
        spent += 1
        path.append(node)
    while not state.done():
        state.play(state.rollout_move(rng))
        spent += 1
    values = state.values()
    for visited in path[1:]:
        visited.visits += 1
        visited.total += values[visited.mover]
    return max(spent, 1)


def _select(node: _Node, moves: Sequence[int]) -> tuple[int, _Node]:
    """The available child with the best UCB score (availability counts, not parent visits)."""
    best_move, best_score = moves[0], -1.0
    for m in moves:
        child = node.children[m]
        score = child.total / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if score > best_score:
            best_move, best_score = m, score
    return best_move, node.children[best_move]


__all__ = ["EXPLORATION", "ismcts"]
