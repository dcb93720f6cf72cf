"""Scoring a hand by its split of tricks, and the end of the game
(``rules/fumblaroo.md``, "Scoring per hand" and "End").

>>> hand_points([5, 0, 0], caller=1)
[5, 0, 0]
>>> hand_points([1, 4, 0], caller=0)
[0, 2, 0]
>>> hand_points([3, 1, 1], caller=1), hand_points([2, 0, 3], caller=0)
([1, 0, 0], [0, 0, 1])
>>> hand_points([2, 2, 1], caller=0), hand_points([2, 2, 1], caller=2)
([0, 2, 0], [2, 2, 0])
>>> game_winner([10, 10, 3], target=10), game_winner([11, 10, 3], target=10)
(None, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

TRICKS_PER_HAND = 5
# Points to the player who took the most tricks, by how many they took.
TOP_POINTS = {5: 5, 4: 2, 3: 1}
SPLIT_POINTS = 2  # 2-2-1: to each player on 2 who did not call trump


def hand_points(taken: Sequence[int], *, caller: int) -> list[int]:
    """What each player scores for a hand in which they took ``taken`` tricks."""
    if sum(taken) != TRICKS_PER_HAND:
        raise ValueError(f"a hand has {TRICKS_PER_HAND} tricks, not {sum(taken)}")
    top = max(taken)
    if top in TOP_POINTS:
        return [TOP_POINTS[top] if t == top else 0 for t in taken]
    # 2-2-1, the only split left.
    return [SPLIT_POINTS if t == 2 and p != caller else 0 for p, t in enumerate(taken)]


def game_winner(scores: Sequence[int], *, target: int) -> int | None:
    """The winner: the one player holding the highest total, if it is at least ``target``."""
    top = max(scores)
    if top < target or scores.count(top) != 1:
        return None
    return scores.index(top)
