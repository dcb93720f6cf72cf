"""Determinized Monte Carlo search with successive halving over the root's moves.

The hard level's engine, apart from any game: given a way to draw worlds consistent
with what the seat has seen (``sample``) and the candidate actions, it plays every
candidate out on the same worlds with the rollout policy, in rounds. After each
round the worse half of the candidates is dropped (successive halving), so the
playouts go to the moves still in question instead of to the clearly bad ones.

The budget counts simulated moves (the candidate's own move included), never
seconds: a search is a pure function of its inputs and the generator. Each round
plays at least one world, so every candidate alive in a round is played out at
least once per round whatever the budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.core.actions import Action
from games.players.base import SearchState


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the chosen candidate and the evidence for it."""

    best: int  # index into the candidates
    means: tuple[float, ...]  # mean value of each candidate for the seat (0.0 if never played)
    playouts: tuple[int, ...]  # playouts of each candidate
    worlds: int  # worlds sampled
    spent: int  # simulated moves


def halving_rounds(candidates: int) -> int:
    """Rounds of successive halving that bring ``candidates`` down to one or two.

    >>> [halving_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9)]
    [1, 1, 2, 2, 3, 3, 4]
    """
    return max(1, math.ceil(math.log2(candidates)))


def search(
    seat: int,
    candidates: Sequence[Action],
    sample: Callable[[], SearchState],
    rng: random.Random,
    *,
    budget: int,
) -> SearchResult:
    """The candidate with the best mean value for ``seat`` over sampled worlds.

    ``sample()`` draws one world (from the same generator as the rollouts); every
    candidate alive is played out on it once, so candidates are compared on the same
    deals. Ties go to the earlier candidate, so the choice
    is deterministic.
    """
    count = len(candidates)
    totals = [0.0] * count
    playouts = [0] * count
    alive = list(range(count))
    rounds = halving_rounds(count)
    spent = worlds = 0
    for round_index in range(rounds):
        target = budget * (round_index + 1) // rounds
        while True:
            world = sample()
            worlds += 1
            spent += _play_world(world, seat, candidates, alive, totals, playouts, rng)
            if spent >= target:
                break
        if round_index < rounds - 1:
            alive = _better_half(alive, totals, playouts)
    means = tuple(totals[i] / playouts[i] if playouts[i] else 0.0 for i in range(count))
    best = min(alive, key=lambda i: (-means[i], i))
    return SearchResult(best, means, tuple(playouts), worlds, spent)


def _play_world(
    world: SearchState,
    seat: int,
    candidates: Sequence[Action],
    alive: Sequence[int],
    totals: list[float],
    playouts: list[int],
    rng: random.Random,
) -> int:
    """Play every alive candidate out once from ``world``; the simulated moves spent.

    The last candidate plays on ``world`` itself (one copy fewer).
    """
    spent = 0
    last = len(alive) - 1
    for position, index in enumerate(alive):
        state = world if position == last else world.copy()
        state.play(state.move(candidates[index]))
        spent += 1
        done, play, rollout_move = state.done, state.play, state.rollout_move
        while not done():
            play(rollout_move(rng))
            spent += 1
        totals[index] += state.values()[seat]
        playouts[index] += 1
    return spent


def _better_half(alive: list[int], totals: list[float], playouts: list[int]) -> list[int]:
    """The better half of ``alive`` (rounded up) by mean value, earlier first on ties."""
    ranked = sorted(alive, key=lambda i: (-totals[i] / playouts[i], i))
    keep = ranked[: (len(alive) + 1) // 2]
    return sorted(keep)


__all__ = ["SearchResult", "halving_rounds", "search"]
