"""Games between computer players, start to finish, and what they add up to.

The engine of ``python -m games play --json`` and of the strength report: a
:class:`Match` names the game, the players' levels and how many games to play;
:func:`play_match` plays them (in worker processes if asked) and :func:`summarize`
turns the per-game results into the command's JSON object.

Everything is derived from the match's seed: game ``g`` is dealt from
:func:`game_seed`, and every decision draws from :func:`decision_rng` (for the
``random`` level exactly the bot's first-wave generator, so its choices are those
of today's computer seats bit for bit). Playing a match twice, in one process or
many, gives the same games.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import games
from games.players.base import perspective
from games.players.frozen import LEVEL as FROZEN
from games.players.frozen import FrozenHardPlayer
from games.players.hard import HardPlayer
from games.players.levels import Level, Player, player

#: A game between computers that runs this long has a rule that lets it go on for ever.
MAX_ACTIONS = 100_000


class EndlessGame(RuntimeError):
    """A game between computers did not end within :data:`MAX_ACTIONS` actions."""


@dataclass(frozen=True, slots=True)
class Match:
    """``games`` games of ``game`` between players of the levels ``seats`` (one per player).

    A seat is a :class:`~games.players.levels.Level`'s name (or, at a terminal table,
    ``human``).

    With ``rotate``, player ``i`` sits at position ``(i + g) % players`` in game ``g``;
    with ``duplicate`` as well, each deal is played ``players`` times in a row, so
    every player holds every position's cards once. ``budget`` overrides the searching
    levels' per-game budgets.
    """

    game: str
    seats: tuple[str, ...]
    games: int
    seed: int
    rotate: bool = False
    duplicate: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    budget: int | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def position(self, player_index: int, game_index: int) -> int:
        """Where player ``player_index`` sits in game ``game_index``."""
        shift = game_index if self.rotate else 0
        return (player_index + shift) % self.players

    def deal_index(self, game_index: int) -> int:
        """Which deal game ``game_index`` plays (duplicate deals repeat one per rotation)."""
        return game_index // self.players if self.duplicate else game_index


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, per player (index in the match's seats, not position)."""

    won: tuple[bool, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int
    # (level, milliseconds) per decision: CPU time of the deciding process, so that other
    # work on a shared machine does not count against the player.
    decision_ms: tuple[tuple[str, float], ...]
    # A digest of every action in order (:func:`moves_digest`): two plays of a game are the
    # same game when their digests are equal ("" where it was not recorded).
    moves: str = ""


def game_seed(match_seed: int, deal_index: int) -> int:
    """The record seed of deal ``deal_index`` of a match seeded ``match_seed``.

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
    """
    return random.Random(f"fivefold-play:{match_seed}:{deal_index}").getrandbits(48)


def decision_rng(level: str, seed: int | None, actions: int, seat: int) -> random.Random:
    """The generator of one computer decision in a game seeded ``seed``.

    ``random`` gets the bot's first-wave generator (seeded by ``bot/tables/computers.py``'s
    ``move_seed``) unchanged; other levels mix in the level and the seat.
    """
    if level == Level.RANDOM:
        return random.Random(f"fivefold-computer:{seed}:{actions}")
    return random.Random(f"fivefold-computer:{seed}:{actions}:{level}:{seat}")


def make_player(level: Level | str, budget: int | None = None) -> Player:
    """A player of ``level`` (a :class:`Level`, or a name registered beside them with
    :func:`~games.players.levels.register_level`); ``budget`` applies to the searching levels
    only (``hard`` and the frozen ``hard-2026-12``)."""
    if budget is not None and level == Level.HARD:
        return HardPlayer(budget=budget)
    if budget is not None and level == FROZEN:
        return FrozenHardPlayer(budget=budget)
    return player(level)


def play_game(match: Match, game_index: int) -> GameResult:
    """Play game ``game_index`` of ``match`` to the end; :class:`EndlessGame` if it never ends."""
    count = match.players
    at = [0] * count  # player index sitting at each position
    for index in range(count):
        at[match.position(index, game_index)] = index
    seed = game_seed(match.seed, match.deal_index(game_index))
    game = games.new_game(match.game, count, dict(match.options), seed=seed)
    players = {name: make_player(name, match.budget) for name in sorted(set(match.seats))}
    timings: list[tuple[str, float]] = []
    while game.to_act is not None and not game.over:
        if len(game.history) >= MAX_ACTIONS:
            raise EndlessGame(
                f"{match.game} game {game_index} did not end after {MAX_ACTIONS} actions"
            )
        seat = game.to_act
        level = match.seats[at[seat]]
        view = perspective(game, seat)
        rng = decision_rng(level, seed, len(game.history), seat)
        began = time.process_time()
        decision = players[level].decide(view, rng)
        timings.append((level, (time.process_time() - began) * 1000.0))
        game.apply(seat, decision.action)
    assert game.outcome is not None, f"{match.game} stopped with nobody to act"
    winners = set(game.outcome.winners)
    return GameResult(
        won=tuple(match.position(i, game_index) in winners for i in range(count)),
        places=tuple(game.outcome.places[match.position(i, game_index)] for i in range(count)),
        scores=tuple(game.scores[match.position(i, game_index)] for i in range(count)),
        actions=len(game.history),
        decision_ms=tuple(timings),
        moves=moves_digest(game.history),
    )


def moves_digest(history: Iterable[str]) -> str:
    """A short digest of a game's actions (``"seat action"`` each, in order).

    >>> moves_digest(["0 play 2S", "1 pass"]) == moves_digest(["0 play 2S", "1 pass"])
    True
    >>> moves_digest(["0 play 2S", "1 pass"]) == moves_digest(["1 pass", "0 play 2S"])
    False
    """
    return hashlib.sha256("\n".join(history).encode()).hexdigest()[:16]


def _play_indexed(job: tuple[Match, int]) -> GameResult:
    return play_game(*job)


def processes(workers: int, initializer: Callable[..., object] | None = None,
              initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes to play games in, started by a fork server where
    there is one (spawn elsewhere), never forked from the caller: a caller that runs
    threads (a test runner, an event loop) may leave a forked child deadlocked on a lock
    one of them held, and Python 3.14 starts pools this way by default on Linux too. So a
    worker knows only what it imports: ``initializer(*initargs)`` runs in each as it
    starts (a caller that registers levels of its own registers them there)."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
        else "spawn"
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                               initializer=initializer, initargs=initargs)


def play_games(match: Match, workers: int = 1) -> Iterator[GameResult]:
    """Every game of ``match`` in order, played in ``workers`` processes when above 1."""
    jobs = [(match, g) for g in range(match.games)]
    if workers <= 1 or match.games <= 1:
        yield from map(_play_indexed, jobs)
        return
    with processes(workers) as pool:
        yield from pool.map(_play_indexed, jobs)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank), 0.0 for none.

    >>> percentile([5.0, 1.0, 3.0], 0.5), percentile(list(map(float, range(1, 101))), 0.99)
    (3.0, 99.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(round(len(ordered) * fraction, 9)))  # round: 0.99 * 200 is not 198
    return ordered[rank - 1]


def summarize(match: Match, results: Sequence[GameResult]) -> dict[str, Any]:
    """The ``play --json`` object for ``match`` from its games' results."""
    count = match.players
    played = len(results)
    by_level: dict[str, list[float]] = {level: [] for level in match.seats}
    for result in results:
        for level, ms in result.decision_ms:
            by_level.setdefault(level, []).append(ms)
    return {
        "game": match.game,
        "players": count,
        "seats": list(match.seats),
        "games": played,
        "seed": match.seed,  # a fresh one unless asked: the object says how to repeat it
        "wins": [sum(r.won[i] for r in results) for i in range(count)],
        "mean_place": [_mean([r.places[i] for r in results]) for i in range(count)],
        "mean_score": [_mean([r.scores[i] for r in results]) for i in range(count)],
        "decision_ms": {
            level: {
                "median": round(statistics.median(times), 3) if times else 0.0,
                "p99": round(percentile(times, 0.99), 3),
            }
            for level, times in sorted(by_level.items())
        },
        "longest_game": max((r.actions for r in results), default=0),
    }


def _mean(values: Sequence[int]) -> float:
    return round(statistics.fmean(values), 4) if values else 0.0


def play_match(match: Match, workers: int = 1) -> dict[str, Any]:
    """Play ``match`` and return the ``play --json`` object."""
    return summarize(match, list(play_games(match, workers)))


__all__ = [
    "MAX_ACTIONS",
    "EndlessGame",
    "GameResult",
    "Match",
    "decision_rng",
    "game_seed",
    "make_player",
    "moves_digest",
    "percentile",
    "play_game",
    "play_games",
    "play_match",
    "summarize",
]
