"""The strength report: hard vs easy and easy vs random in every game, from ``play --json``.

    .venv/bin/python -m bench.strength --out docs/computer-players.md [--workers 2]
        [--games fazes=40,fiasco=80 | --games 40] [--seed 1] [--json PATH]
    .venv/bin/python -m bench.strength --render PATH --out docs/computer-players.md

For every registered game (at its default options, four players or the nearest
count the game allows) it plays two matches with rotated seats and duplicate deals
(each deal once per position): one hard player against easy ones, and one easy
player against random ones. Each is :func:`games.players.match.play_match`, the
object ``python -m games play --json`` prints. From them it writes the report:
the first player's win share with a 95 % Wilson interval, mean scores and places,
decision times and the longest game, and whether each goal is met.
A game without computer-player knowledge is reported as "not yet".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import platform
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import games
from games.players import knowledge_for
from games.players.hard import budget_for
from games.players.match import Match, play_match

#: Games played per match when --games does not say: a multiple of every player count.
DEFAULT_GAMES = 48
#: Hard's goal against all-easy opponents: the 95 % lower bound of its win share.
HARD_GOAL = {"fazes": 0.50, "fumblaroo": 0.50}
HARD_GOAL_OTHERS = 0.40
Z95 = 1.959964
#: Hand-written notes on the goals (what stands in the way), appended to the report.
NOTES = Path(__file__).with_name("strength-notes.md")


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share of ``wins`` in ``n`` (95 % by default).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def players_for(name: str) -> int:
    """Four players, or the nearest count the game allows (Fumblaroo: three)."""
    cls = games.get(name)
    return max(cls.min_players, min(4, cls.max_players))


def round_up(count: int, multiple: int) -> int:
    """``count`` rounded up to a whole number of rotations."""
    return -(-count // multiple) * multiple


def matches(name: str, count: int, seed: int) -> dict[str, Match]:
    """The report's two matches of ``name``: hard vs easy, easy vs random."""
    players = players_for(name)
    count = round_up(count, players)
    return {
        "hard vs easy": Match(name, ("hard",) + ("easy",) * (players - 1), count, seed,
                              rotate=True, duplicate=True),
        "easy vs random": Match(name, ("easy",) + ("random",) * (players - 1), count, seed,
                                rotate=True, duplicate=True),
    }


def run(
    counts: Mapping[str, int],
    seed: int,
    workers: int,
    budget: int | None = None,
    names: Sequence[str] | None = None,
    saved: Path | None = None,
) -> dict[str, Any]:
    """Play every game's matches; the raw results (the ``play --json`` objects and timings).

    With ``saved``, the results are written there after every match, and a match
    already there with the same seed, game count and budget is not played again: an
    interrupted run goes on where it stopped, and ``--only`` adds games to a report.
    """
    before = _load(saved, seed)
    # Games this run does not play keep their saved results.
    out: dict[str, Any] = {"seed": seed, "workers": workers, "machine": machine(),
                           "games": dict(before)}
    for name in names or games.names():
        if knowledge_for(name) is None:
            out["games"][name] = None
            print(f"{name}: not yet (no knowledge)", file=sys.stderr)
            continue
        entry: dict[str, Any] = {"budget": budget or budget_for(name)}
        out["games"][name] = entry
        old = before.get(name) or {}
        for label, match in matches(name, counts.get(name, DEFAULT_GAMES), seed).items():
            match = dataclasses.replace(match, budget=budget)
            done = old.get(label)
            if old.get("budget") == entry["budget"] and done and done["games"] == match.games:
                entry[label] = done
                continue
            began = time.perf_counter()
            result = play_match(match, workers=workers)
            result["seconds"] = round(time.perf_counter() - began, 1)
            entry[label] = result
            print(f"{name} {label}: wins {result['wins']} of {result['games']} "
                  f"in {result['seconds']} s", file=sys.stderr)
            if saved is not None:
                saved.write_text(json.dumps(out, indent=1) + "\n")
    return out


def _load(saved: Path | None, seed: int) -> dict[str, Any]:
    """The games of an earlier run saved at ``saved`` with the same seed, if any."""
    if saved is None or not saved.is_file():
        return {}
    earlier = json.loads(saved.read_text())
    return earlier["games"] if earlier.get("seed") == seed else {}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, Python {platform.python_version()}"


def share(result: Mapping[str, Any]) -> tuple[float, float, float]:
    """The first player's win share and its 95 % interval."""
    wins, n = result["wins"][0], result["games"]
    low, high = wilson(wins, n)
    return wins / n, low, high


def goal_for(name: str, label: str, players: int) -> float:
    """The lower bound the first player's win share must clear."""
    if label == "hard vs easy":
        return HARD_GOAL.get(name, HARD_GOAL_OTHERS)
    return 1 / players  # easy clearly beats random: above a fair share


def render(raw: Mapping[str, Any], command: str, notes: str = "") -> str:
    """The report in Markdown; ``notes`` (what stands in the way of a goal) go at the end."""
    lines = [
        "# Computer players",
        "",
        "Fivefold's computer players come in three levels (see the README's *Computer",
        "players*): `random` (a uniformly random legal action, the first wave's player),",
        "`easy` (each game's rules of thumb with a little seeded noise) and `hard`",
        "(determinized Monte Carlo search with successive halving: it samples deals",
        "consistent with everything its seat has seen, plays each candidate out with the",
        "easy rules and keeps the better half of the candidates after each round).",
        "",
        "## How this report is made",
        "",
        "```sh",
        command,
        "```",
        "",
        "Every game at its default options, four players (Fumblaroo: three). Two matches",
        "per game: one hard player against easy ones, one easy player against random ones.",
        "Seats rotate (player *i* sits at position (*i* + *g*) mod *N* in game *g*) and",
        "deals are duplicated (each deal is played once per position), so every player",
        "holds every position's cards. *Win share* is the games the first player won",
        "(ties count for every winner) with its 95 % Wilson interval; a fair share is",
        "1/*N*. Mean scores are the game's own points (in a game marked *lowest wins*,",
        "lower is better). Decision times are the CPU time of each decision of that",
        "level, median and 99th percentile, each game on one core (the games run in",
        "parallel worker processes).",
        f"Seed {raw['seed']}, {raw['workers']} worker processes; machine: {raw['machine']}.",
        "",
        "## Results",
        "",
        "| game | match | games | win share [95 % CI] | goal (lower bound) | mean score "
        "(first / others) | mean place (first / others) | ms per decision, median / p99 "
        "| longest game (actions) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    verdicts: list[str] = []
    for name, entry in raw["games"].items():
        if entry is None:
            lines.append(f"| {name} | not yet: no computer-player knowledge | | | | | | | |")
            verdicts.append(f"- **{name}**: not yet measured (its knowledge has not landed).")
            continue
        for label in ("hard vs easy", "easy vs random"):
            if label not in entry:
                lines.append(f"| {name} | {label} | not measured | | | | | | |")
                verdicts.append(f"- {name}, {label}: not measured (the run stopped first).")
                continue
            lines.append(_row(name, label, entry[label]))
            verdicts.append(_verdict(name, label, entry[label]))
    lines += ["", "## Goals", "", *verdicts, ""]
    budgets = ", ".join(
        f"{name} {entry['budget']:,}" for name, entry in raw["games"].items() if entry
    )
    if budgets:
        lines += [f"Hard's budget (simulated moves per decision): {budgets}.", ""]
    if notes.strip():
        lines += [notes.strip(), ""]
    return "\n".join(lines)


def _row(name: str, label: str, result: Mapping[str, Any]) -> str:
    players = result["players"]
    won, low, high = share(result)
    goal = goal_for(name, label, players)
    others = range(1, players)
    score_others = sum(result["mean_score"][i] for i in others) / (players - 1)
    place_others = sum(result["mean_place"][i] for i in others) / (players - 1)
    times = "; ".join(
        f"{level} {t['median']:.1f} / {t['p99']:.1f}"
        for level, t in result["decision_ms"].items()
        if level != "random"
    )
    title = f"{name} (lowest wins)" if games.get(name).lower_is_better else name
    return (
        f"| {title} | {label} | {result['games']} | {won:.0%} [{low:.0%}, {high:.0%}] "
        f"| {goal:.0%} | {result['mean_score'][0]:.1f} / {score_others:.1f} "
        f"| {result['mean_place'][0]:.2f} / {place_others:.2f} | {times} "
        f"| {result['longest_game']} |"
    )


def _verdict(name: str, label: str, result: Mapping[str, Any]) -> str:
    players = result["players"]
    won, low, _ = share(result)
    goal = goal_for(name, label, players)
    first, rest = label.split(" vs ")
    met = "met" if low > goal else "**not met**"
    return (
        f"- {name}, {first} against {rest}: {met} (lower bound {low:.1%}, goal above "
        f"{goal:.0%}, share {won:.1%} over {result['games']} games)."
    )


def parse_counts(text: str | None) -> dict[str, int]:
    """``40`` (every game) or ``fazes=40,fiasco=80``; ValueError if it does not read."""
    if not text:
        return {}
    if text.isdigit():
        return {name: int(text) for name in games.names()}
    counts = {}
    for part in text.split(","):
        name, _, number = part.partition("=")
        if name not in games.names() or not number.isdigit() or int(number) < 1:
            raise ValueError(f"--games: {part!r} is not GAME=COUNT")
        counts[name] = int(number)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the Markdown report here")
    parser.add_argument("--games", help=f"games per match: N, or GAME=N,... (default "
                        f"{DEFAULT_GAMES}, rounded up to whole rotations)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the raw results here (and "
                        "after every match; a run stopped midway goes on from them)")
    parser.add_argument("--render", type=Path, help="render raw results saved with --json")
    parser.add_argument("--notes", type=Path, default=NOTES,
                        help="hand-written notes on the goals, appended (default %(default)s)")
    parser.add_argument("--budget", type=int, help="override hard's budget (for a smoke run)")
    parser.add_argument("--only", help="these games only, comma-separated (default: all)")
    args = parser.parse_args(argv)
    try:
        counts = parse_counts(args.games)
    except ValueError as exc:
        parser.error(str(exc))
    words = ["python -m bench.strength", *(argv if argv is not None else sys.argv[1:])]
    if args.render:
        raw = json.loads(args.render.read_text())
        command = raw.get("command", " ".join(words))
    else:
        only = args.only.split(",") if args.only else None
        if only and not set(only) <= set(games.names()):
            parser.error(f"--only: games are {', '.join(games.names())}")
        raw = run(counts, args.seed, args.workers, args.budget, only, args.json)
        command = " ".join(words)
        raw["command"] = command
        if args.json:
            args.json.write_text(json.dumps(raw, indent=1) + "\n")
    notes = args.notes.read_text() if args.notes.is_file() else ""
    report = render(raw, command, notes)
    if args.out:
        args.out.write_text(report)
    else:
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
