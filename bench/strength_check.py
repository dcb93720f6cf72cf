"""Whether the strength report's results still describe the computer players at hand.

    .venv/bin/python -m bench.strength_check bench/strength-results.json [--workers 2]
        [--replays 1] [--only fazes,fiasco] [--pin]

Every row of ``docs/computer-players.md`` comes from a match saved in the results file
(``bench.strength --json``) and its games file beside it (``PATH.games``, one JSON line
per game). The report's rows were played over several days, while the levels' code kept
changing; a row is evidence about today's players only if today's players would have
played the same games. For every match saved in the results this checks two things:

- *the row is its games*: the row's figures (wins, the measured players' wins and fair
  share, mean places and scores, the longest game, each level's decision times to a
  hundredth of a millisecond) are what its saved games add up to, and the hard level's
  budget the results name is the level's own today (unless the match was played with
  ``--budget``);
- *the games are today's*: ``--replays`` of its games played again now, with the same
  match, come out exactly as saved: every player's win, place and score, the number of
  actions, each level's number of decisions and, where the games file holds it, the
  digest of every action in order (``moves``; :func:`games.players.match.moves_digest`).
  The games replayed are those with a digest first, then the shortest in which the
  measured level decides at least :data:`DECISIONS` times. A game depends on its match
  and its index alone (a decision on the budget of simulated moves, never on a clock),
  so a change to a level that changes its play shows here: in the digest at the first
  decision it changes, in the outcome only if it changes that.

Games saved before the digest was recorded have none; ``--pin`` adds it for the games
this check replays, once their outcome is found as saved (the saved line again, with the
digest, appended to the games file, whose last line for a game is the one read), so that
later checks compare every action of them.

Prints one line per match and exits 0 when every match holds, 1 when one does not
(naming it and what differed; the match must be played again, into a fresh file, and
merged), 2 when the files cannot be read. CI runs it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import games
from bench.strength import Measured, Played, group_wins, match_tag, save_game
from games.players.hard import budget_for
from games.players.match import GameResult, Match, play_game, processes, summarize

#: A replayed game is the shortest in which the measured level made this many decisions.
DECISIONS = 10
#: How far a saved time may lie from the row's: the games file keeps a hundredth of a ms.
TIME_SLACK = 0.01


@dataclass(frozen=True, slots=True)
class Saved:
    """One match of the results: its game and label, the match, and its saved games."""

    name: str
    label: str
    tag: str
    measured: Measured
    row: Mapping[str, Any]
    games: Mapping[int, GameResult]
    budget: int  # the hard level's budget the results name for this game


@dataclass(frozen=True, slots=True)
class Checked:
    """What the check found for one match: the games replayed and every difference."""

    name: str
    label: str
    replayed: tuple[int, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        games = ", ".join(str(g) for g in self.replayed) or "none"
        head = f"{self.name}, {self.label}: "
        if self.ok:
            return head + f"holds (game {games} replayed identically)"
        return head + "DOES NOT HOLD: " + "; ".join(self.problems)


def saved_matches(results: Path, only: Sequence[str] = ()) -> list[Saved]:
    """Every match in ``results`` (of the games ``only`` names, if any) with the games saved
    for it (the last run of its key)."""
    raw = json.loads(results.read_text(encoding="utf-8"))
    played = Played(results, raw["seed"])
    out = []
    for name, entry in raw["games"].items():
        if not entry or (only and name not in only):
            continue
        for label, row in entry.items():
            if not isinstance(row, dict):
                continue
            budget = _budget(played, name, label, row["games"], entry["budget"])
            match = Match(name, tuple(row["seats"]), row["games"], row["seed"], rotate=True,
                          duplicate=True, options=dict(row.get("options", {})), budget=budget)
            tag = match_tag(name, label, row["games"], budget)
            measured = Measured(match, tuple(row.get("group", (0,))))
            out.append(Saved(name, label, tag, measured, row, played.of(tag),
                             entry["budget"]))
    return out


def _budget(played: Played, name: str, label: str, games: int, budget: int) -> int | None:
    """The budget a match was played with: none (each level's own) unless its games were
    saved under the entry's budget, as a run with ``--budget`` saves them."""
    if played.of(match_tag(name, label, games, budget)) and not played.of(
            match_tag(name, label, games, None)):
        return budget
    return None


def row_problems(saved: Saved) -> list[str]:
    """How the row differs from what its saved games add up to (nothing when it is them)."""
    row, match = saved.row, saved.measured.match
    missing = [g for g in range(match.games) if g not in saved.games]
    if missing:
        return [f"{len(missing)} of its {match.games} games are not in the games file "
                f"(the first: game {missing[0]})"]
    if match.budget is None and saved.budget != budget_for(saved.name):
        return [f"the results name the hard level's budget {saved.budget:,}, but it is "
                f"{budget_for(saved.name):,} now"]
    ordered = [saved.games[g] for g in range(match.games)]
    again = dict(summarize(match, ordered), **group_wins(saved.measured, ordered))
    problems = [f"{key} is {row.get(key)!r} in the row, {again[key]!r} from its games"
                for key in ("games", "wins", "group_wins", "fair", "mean_place",
                            "mean_score", "longest_game")
                if row.get(key) != again[key]]
    for level, times in again["decision_ms"].items():
        shown = row.get("decision_ms", {}).get(level, {})
        for what in ("median", "p99"):
            if not math.isclose(shown.get(what, math.nan), times[what], abs_tol=TIME_SLACK):
                problems.append(f"{level}'s {what} decision time is {shown.get(what)} ms "
                                f"in the row, {times[what]} from its games")
    return problems


def chosen(saved: Saved, replays: int) -> list[int]:
    """The games to play again: ``replays`` of them, those with a digest of their moves
    first, then the shortest in which the measured level (the first seat's) decided at
    least :data:`DECISIONS` times (the shortest of all if none did)."""
    level = saved.measured.match.seats[0]

    def decisions(g: int) -> int:
        return sum(1 for who, _ in saved.games[g].decision_ms if who == level)

    pool = [g for g in saved.games if decisions(g) >= DECISIONS] or list(saved.games)
    return sorted(pool, key=lambda g: (not saved.games[g].moves, saved.games[g].actions,
                                       g))[:replays]


FIELDS = ("wins", "places", "scores", "actions", "decisions per level", "moves")


def fingerprint(result: GameResult) -> tuple[object, ...]:
    """What a game's replay must repeat (:data:`FIELDS`): outcome, length, decisions made
    per level and the digest of its moves."""
    counts: dict[str, int] = {}
    for level, _ in result.decision_ms:
        counts[level] = counts.get(level, 0) + 1
    return (result.won, result.places, result.scores, result.actions,
            sorted(counts.items()), result.moves)


def game_problem(index: int, before: GameResult, now: GameResult) -> str | None:
    """What differs between a saved game and its replay, in words, or None (a saved game
    without a digest of its moves is compared on the rest)."""
    then, again = fingerprint(before), fingerprint(now)
    if not before.moves:
        then, again = then[:-1], again[:-1]
    if then == again:
        return None
    differ = [f"{what} {a} then, {b} now"
              for what, a, b in zip(FIELDS, then, again, strict=False) if a != b]
    return f"game {index} replays differently ({'; '.join(differ)})"


def check(results: Path, workers: int = 2, replays: int = 1, only: Sequence[str] = (),
          *, pin: bool = False) -> list[Checked]:
    """Check every match saved in ``results`` (of the games ``only`` names, if any; see the
    module docstring); with ``pin``, record the digest of each game replayed as saved
    that has none."""
    matches = saved_matches(results, only)
    jobs = [(i, g) for i, saved in enumerate(matches) for g in chosen(saved, replays)]
    replayed = _play([(matches[i].measured.match, g) for i, g in jobs], workers)
    found: list[list[str]] = [row_problems(saved) for saved in matches]
    done: list[list[int]] = [[] for _ in matches]
    pinned: list[tuple[Saved, int, GameResult]] = []
    for (i, g), now in zip(jobs, replayed, strict=True):
        done[i].append(g)
        before = matches[i].games[g]
        problem = game_problem(g, before, now)
        if problem:
            found[i].append(problem)
        elif pin and not before.moves:
            pinned.append((matches[i], g, replace(before, moves=now.moves)))
    games_file = results.with_name(results.name + ".games")
    for saved, g, result in pinned:
        save_game(games_file, saved.measured.match.seed, saved.tag, g, result)
    return [Checked(s.name, s.label, tuple(d), tuple(p))
            for s, d, p in zip(matches, done, found, strict=True)]


def _play(jobs: Sequence[tuple[Match, int]], workers: int) -> list[GameResult]:
    if workers <= 1 or len(jobs) <= 1:
        return [play_game(match, g) for match, g in jobs]
    with processes(workers) as pool:
        return list(pool.map(play_game, *zip(*jobs, strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="raw results saved by bench.strength --json")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--replays", type=int, default=1,
                        help="games of each match to play again (default %(default)s)")
    parser.add_argument("--only", help="these games only, comma-separated (default: all)")
    parser.add_argument("--pin", action="store_true",
                        help="record the digest of the moves of each game replayed as saved "
                        "that has none (appended to the games file)")
    args = parser.parse_args(argv)
    if args.replays < 0:
        parser.error("--replays: a number of games, 0 or more")
    only = args.only.split(",") if args.only else []
    if not set(only) <= set(games.names()):
        parser.error(f"--only: games are {', '.join(games.names())}")
    try:
        checked = check(args.results, args.workers, args.replays, only, pin=args.pin)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"bench.strength_check: cannot read {args.results}: {exc!r}", file=sys.stderr)
        return 2
    for one in checked:
        print(one.line())
    bad = [one for one in checked if not one.ok]
    print(f"{len(checked) - len(bad)} of {len(checked)} matches hold.")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
