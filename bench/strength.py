"""The strength report: hard vs easy, hard vs the frozen hard-2026-12, easy vs random.

    .venv/bin/python -m bench.strength --out docs/computer-players.md [--workers 2]
        [--games fazes=400,fiasco=400 | --games 400] [--seed 1] [--json PATH]
        [--sets default,shortest] [--matches hard-easy,new-old,easy-random]
    .venv/bin/python -m bench.strength --render PATH --out docs/computer-players.md
    .venv/bin/python -m bench.strength --json PATH --merge NEW [NEW ...] --out ...

For every registered game (four players or the nearest count the game allows:
Fumblaroo three), at its default options and/or its shortest ones (``--sets``), it
plays up to three matches with rotated seats and duplicate deals (each deal once per
position): one hard player against easy ones (``hard-easy``); two hard players
against two of the frozen ``hard-2026-12`` (``new-old``; three players: one against
two); one easy player against random ones (``easy-random``). Each is
:func:`games.players.match.play_games`, summarized as ``python -m games play --json``
prints it. From them it writes the report: the measured players' win share (the games
one of them won, ties counting for every winner) with a 95 % Wilson interval, the fair
share (what a player no better than the others would win, raised by ties), mean
scores and places, decision times and the longest game, and whether each goal is met.
A game without computer-player knowledge is reported as "not yet".

With ``--json PATH``, every game is also written as it ends to ``PATH.games`` (one JSON
line each), and a run started again with the same seed plays only the games missing:
on a shared machine a long report is made by runs of a few minutes each (``timeout
20m python -m bench.strength ...``, repeated until it writes the report). A match
already saved is never played again, so a changed hard level is measured into a fresh
file and folded into the report's results with ``--merge``, which replaces the same
matches and keeps every game. ``python -m bench.strength_check`` checks that the saved
results are still today's players' games.

The report is reference: what the levels are, how hard decides, the results and the goals,
and how to check them. The one hand-written part is ``bench/strength-in-the-way.md``, a
section *What stands in the way* with one entry per goal not met, shown under it at the
top (a goal missed without one says so); the account of what was tried is in git and in
``research/``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import platform
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from games.players import knowledge_for
from games.players.frozen import LEVEL as FROZEN
from games.players.hard import budget_for
from games.players.match import GameResult, Match, play_game, processes, summarize

#: Games played per match when --games does not say: a multiple of every player count.
DEFAULT_GAMES = 48
#: Hard's goal against all-easy opponents: the 95 % lower bound of its win share.
HARD_GOAL = {"fazes": 0.50, "fumblaroo": 0.50}
HARD_GOAL_OTHERS = 0.40
#: A decision's CPU time the hard level must keep: median and 99th percentile, in ms.
TIME_GOAL = (300.0, 1000.0)
Z95 = 1.959964
#: Hand-written notes on the goals not met (what stands in the way), shown under them.
NOTES = Path(__file__).with_name("strength-in-the-way.md")
#: The report's results, as committed (what ``bench.strength_check`` checks in CI).
RESULTS = "bench/strength-results.json"
#: Each game's shortest options (one faze, one round, one hand, target 5); none where the
#: defaults are the shortest (Fiasco's quick game is one Counting Round).
SHORTEST: dict[str, dict[str, Any]] = {
    "fazes": {"fazes": [1]}, "fiasco": {}, "fibonachos": {"rounds": 1},
    "fizzbin": {"hands": 1}, "fumblaroo": {"target": 5},
}
SETS = ("default", "shortest")
#: The matches: name -> (label, first seat, the others' level, how many seats measured).
MATCHES = {
    "hard-easy": ("hard vs easy", "hard", "easy"),
    "new-old": (f"hard vs {FROZEN}", "hard", FROZEN),
    "easy-random": ("easy vs random", "easy", "random"),
}


@dataclass(frozen=True, slots=True)
class Measured:
    """A match of the report and which of its players (indices into its seats) it measures."""

    match: Match
    group: tuple[int, ...]


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


def matches(name: str, count: int, seed: int, *, which: Sequence[str] = tuple(MATCHES),
            options: Mapping[str, Any] | None = None) -> dict[str, Measured]:
    """The report's matches of ``name`` (``which`` of :data:`MATCHES`), by label.

    Against the frozen level, two new players sit against two old ones, alternately
    (three players: one against two); elsewhere one player against the others.
    """
    players = players_for(name)
    count = round_up(count, players)
    out = {}
    for key in which:
        label, first, others = MATCHES[key]
        if key == "new-old" and players >= 4:
            seats = tuple(first if i % 2 == 0 else others for i in range(players))
        else:
            seats = (first,) + (others,) * (players - 1)
        group = tuple(i for i, level in enumerate(seats) if level == first)
        out[label] = Measured(Match(name, seats, count, seed, rotate=True, duplicate=True,
                                    options=dict(options or {})), group)
    return out


def measure(measured: Measured, workers: int, done: Mapping[int, GameResult] | None = None,
            record: Callable[[int, GameResult], None] | None = None) -> dict[str, Any]:
    """Play ``measured``: the ``play --json`` object, and what the report adds to it.

    Games in ``done`` (by index) are not played again; ``record`` is told of every game
    as it ends, so that a run stopped midway loses at most the games under way.
    """
    results = dict(done or {})
    todo = [g for g in range(measured.match.games) if g not in results]
    for index, result in zip(todo, _play(measured.match, todo, workers), strict=True):
        results[index] = result
        if record is not None:
            record(index, result)
    ordered = [results[g] for g in range(measured.match.games)]
    return dict(summarize(measured.match, ordered), **group_wins(measured, ordered))


def _play(match: Match, indices: Sequence[int], workers: int) -> Iterator[GameResult]:
    if workers <= 1 or len(indices) <= 1:
        for g in indices:
            yield play_game(match, g)
        return
    with processes(workers) as pool:
        yield from pool.map(play_game, [match] * len(indices), indices)


def match_tag(name: str, label: str, games: int, budget: int | None) -> str:
    """The key a match's games are saved under in the games file (``None``: each level's
    own budget).

    >>> match_tag("fazes", "hard vs easy", 400, None)
    'fazes:hard vs easy:400:None'
    """
    return f"{name}:{label}:{games}:{budget}"


class Played:
    """Every game played so far, one JSON line each beside the raw results (``PATH.games``),
    so that a run cut short (a time limit per run on a shared machine) goes on from them."""

    def __init__(self, saved: Path | None, seed: int) -> None:
        self.path = saved.with_name(saved.name + ".games") if saved is not None else None
        self.seed = seed
        self.games: dict[str, dict[int, GameResult]] = {}
        if self.path is None or not self.path.is_file():
            return
        for line in self.path.read_text().splitlines():
            row = json.loads(line)
            if row["seed"] == seed:
                self.games.setdefault(row["key"], {})[row["index"]] = GameResult(
                    tuple(row["won"]), tuple(row["places"]), tuple(row["scores"]),
                    row["actions"], tuple((level, ms) for level, ms in row["ms"]),
                    row.get("moves", ""))

    def of(self, key: str) -> dict[int, GameResult]:
        return self.games.get(key, {})

    def recorder(self, key: str) -> Callable[[int, GameResult], None]:
        def record(index: int, result: GameResult) -> None:
            if self.path is not None:
                save_game(self.path, self.seed, key, index, result)
        return record


def save_game(path: Path, seed: int, key: str, index: int, result: GameResult) -> None:
    """Append game ``index`` of the match ``key`` to the games file ``path`` (one JSON line;
    the last line of a game is the one :class:`Played` reads)."""
    row: dict[str, Any] = {
        "seed": seed, "key": key, "index": index, "won": result.won,
        "places": result.places, "scores": result.scores, "actions": result.actions,
        "ms": [[level, round(ms, 2)] for level, ms in result.decision_ms]}
    if result.moves:
        row["moves"] = result.moves
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")


def group_wins(measured: Measured, results: Sequence[GameResult]) -> dict[str, Any]:
    """The games one of the measured players won, and the fair share of such games.

    A player no better than the others holds each seat of a game with ``k`` winners with
    the same chance, so a group of ``m`` of the ``n`` players has one of them among the
    winners with chance ``1 - C(n - m, k) / C(n, k)``: the fair share is its mean over
    the games (``m / n`` when every game has one winner).

    >>> m = Measured(Match("fiasco", ("hard", "easy", "easy", "easy"), 2, 1), (0,))
    >>> won = lambda *w: GameResult(w, (1,) * 4, (0,) * 4, 1, ())
    >>> group_wins(m, [won(True, False, False, False), won(False, True, True, False)])
    {'group': [0], 'group_wins': 1, 'fair': 0.375}
    """
    n, m = measured.match.players, len(measured.group)
    wins, fair = 0, 0.0
    for result in results:
        wins += any(result.won[i] for i in measured.group)
        k = sum(result.won)
        fair += 1 - math.comb(n - m, k) / math.comb(n, k) if k else 0.0
    return {"group": list(measured.group), "group_wins": wins,
            "fair": round(fair / len(results), 4) if results else 0.0}


def run(
    counts: Mapping[str, int],
    seed: int,
    workers: int,
    budget: int | None = None,
    names: Sequence[str] | None = None,
    saved: Path | None = None,
    *,
    sets: Sequence[str] = ("default",),
    which: Sequence[str] = tuple(MATCHES),
) -> dict[str, Any]:
    """Play every game's matches; the raw results (the ``play --json`` objects and timings).

    With ``saved``, the results are written there after every match, and a match
    already there with the same seed, game count and budget is not played again: an
    interrupted run goes on where it stopped, and ``--only`` adds games to a report.
    """
    before = _load(saved, seed)
    played = Played(saved, seed)
    # Games this run does not play keep their saved results.
    out: dict[str, Any] = {"seed": seed, "workers": workers, "machine": machine(),
                           "games": dict(before)}
    for name in names or games.names():
        if knowledge_for(name) is None:
            out["games"][name] = None
            print(f"{name}: not yet (no knowledge)", file=sys.stderr)
            continue
        old = before.get(name) or {}
        entry: dict[str, Any] = {"budget": budget or budget_for(name)}
        if old.get("budget") == entry["budget"]:
            entry.update(old)
        out["games"][name] = entry
        for kind in sets:
            if kind == "shortest" and not SHORTEST.get(name):
                continue  # its default options are its shortest
            options = SHORTEST[name] if kind == "shortest" else {}
            count = counts.get(name, DEFAULT_GAMES)
            for label, measured in matches(name, count, seed, which=which,
                                           options=options).items():
                key = label if kind == "default" else f"{label}, {kind} options"
                match = dataclasses.replace(measured.match, budget=budget)
                measured = Measured(match, measured.group)
                done = entry.get(key)
                if done and done["games"] == match.games and "group" in done:
                    continue
                began = time.perf_counter()
                tag = match_tag(name, key, match.games, match.budget)
                result = measure(measured, workers, played.of(tag), played.recorder(tag))
                result["seconds"] = round(time.perf_counter() - began, 1)
                result["options"] = dict(match.options)
                entry[key] = result
                print(f"{name} {key}: wins {result['wins']} of {result['games']} "
                      f"in {result['seconds']} s", file=sys.stderr)
                if saved is not None:
                    saved.write_text(json.dumps(out, indent=1) + "\n")
    return out


def merge(into: Path, news: Sequence[Path]) -> dict[str, Any]:
    """Fold the matches saved in ``news`` (files written by ``--json``) into ``into``.

    A match of the same game and label is replaced (a hard level that changed is measured
    into a fresh file, since a saved match is never played again, then merged); every
    game ``news`` played is appended to ``into``'s games file, after the ones it replaces,
    so a run that goes on from ``into`` reads the newer ones. ``into`` keeps its command
    and machine. Returns the merged raw results (also written to ``into``).
    """
    raw: dict[str, Any] = json.loads(into.read_text())
    for path in news:
        new = json.loads(path.read_text())
        if new.get("seed") != raw.get("seed"):
            raise ValueError(f"{path}: seed {new.get('seed')}, not {raw.get('seed')} as {into}")
        for name, entry in new["games"].items():
            if entry is None:
                continue
            mine = raw["games"].setdefault(name, {"budget": entry["budget"]})
            if mine is None or mine.get("budget") != entry["budget"]:
                raise ValueError(f"{path}: {name} at budget {entry['budget']}, not "
                                 f"{(mine or {}).get('budget')} as {into}")
            mine.update((k, v) for k, v in entry.items() if isinstance(v, dict))
        played = path.with_name(path.name + ".games")
        if played.is_file():
            with into.with_name(into.name + ".games").open("a", encoding="utf-8") as f:
                f.write(played.read_text())
    into.write_text(json.dumps(raw, indent=1) + "\n")
    return raw


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
    """The measured players' win share and its 95 % interval."""
    wins, n = result.get("group_wins", result["wins"][0]), result["games"]
    low, high = wilson(wins, n)
    return wins / n, low, high


def fair(result: Mapping[str, Any]) -> float:
    """The fair share (see :func:`group_wins`); 1/N for results saved without it."""
    return float(result.get("fair", 1 / result["players"]))


def goal_for(name: str, label: str, players: int) -> float:
    """The lower bound the measured players' win share must clear (besides the fair share)."""
    if label.startswith("hard vs easy"):
        return HARD_GOAL.get(name, HARD_GOAL_OTHERS)
    return 0.0  # easy clearly beats random, new hard the old one: above a fair share


def bar(name: str, label: str, result: Mapping[str, Any]) -> float:
    """What the lower bound of a match's win share must clear: its goal or its fair share,
    whichever is higher."""
    return max(goal_for(name, label, result["players"]), fair(result))


def judged(raw: Mapping[str, Any]) -> tuple[list[str], list[Verdict]]:
    """The results table's rows and every goal's verdict, for the raw results ``raw``."""
    rows: list[str] = []
    verdicts: list[Verdict] = []
    for name, entry in raw["games"].items():
        if entry is None:
            rows.append(f"| {name} | not yet: no computer-player knowledge | | | | | | | | |")
            verdicts.append(Verdict(f"- **{name}**: not yet measured (its knowledge has not "
                                    "landed).", met=False, gap=f"{name}: not yet measured.",
                                    key=name))
            continue
        labels = [key for key in entry if isinstance(entry[key], dict)]
        for label in labels:
            rows.append(_row(name, label, entry[label]))
            verdicts.append(_verdict(name, label, entry[label]))
        verdicts += _time_verdicts(name, entry, labels)
    return rows, verdicts


def render(raw: Mapping[str, Any], command: str, notes: str = "") -> str:
    """The report in Markdown: the levels and how hard decides, the goals at a glance, the
    results and every goal's verdict, then how the matches are played and checked
    (``command`` wrote these results or renders them). ``notes`` hold the section *What
    stands in the way* alone (:func:`in_the_way`); its entries go under the goals they
    name, at the top."""
    obstacles, rest = in_the_way(notes)
    if rest.strip():
        raise ValueError(f"the notes hold {IN_THE_WAY} alone, not {rest.strip()[:60]!r}")
    rows, verdicts = judged(raw)
    budgets = ", ".join(
        f"{name} {entry['budget']:,}" for name, entry in raw["games"].items() if entry
    )
    lines = [
        "# Computer players",
        "",
        *_LEVELS,
        "",
        "## How the hard level decides",
        "",
        *_HARD,
    ]
    if budgets:
        lines += ["", f"Hard's budget (simulated moves per decision): {budgets}."]
    lines += [
        "",
        "## At a glance",
        "",
        *_glance(verdicts, obstacles),
        "",
        "## Results",
        "",
        "| game | match | games | win share [95 % CI] | fair share | goal (lower bound) "
        "| mean score (first / others) | mean place (first / others) "
        "| ms per decision, median / p99 | longest game (actions) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
        "## Goals",
        "",
        *(v.line for v in verdicts),
        "",
        "## How this report is made",
        "",
        "```sh",
        command,
        "```",
        "",
        *_METHOD,
        f"Seed {raw['seed']}, {raw['workers']} worker processes; machine: {raw['machine']}.",
        "",
        *_CHECK,
        "",
    ]
    return "\n".join(lines)


#: What the levels are, at the top of the report.
_LEVELS = [
    "Fivefold's computer players come in three levels, by the names the bot and",
    "`python -m games play --seats` use: `random` (a uniformly random legal move), `easy`",
    "(each game's rules of thumb, `games/<game>/computer/thumb.py`, with a little seeded",
    "noise) and `hard` (a search, below). The bot offers easy and hard. `hard-2026-12` is",
    "the hard level as it played in December 2026, frozen so that its moves never change",
    "(`games/players/frozen.py`): the yardstick the hard level is measured against below.",
    "`python -m games play --seats hard,hard-2026-12,...` plays it; the bot does not offer",
    "it. Every level decides from what its seat can see and a seeded generator alone, so",
    "the same game brings the same moves.",
]

#: How the hard level decides (``games/players/hard.py``).
_HARD = [
    "Determinized Monte Carlo search (`games/players/hard.py`, `games/players/search.py`):",
    "",
    "1. A move that is the only one left is played without a search.",
    "2. The candidates: every legal move, unless the game's advice",
    "   (`games/<game>/computer/advice.py`) narrows them. Fiasco does not search a claim",
    "   when its suits are alike; Fizzbin searches each card onto the pile the rules of",
    "   thumb would choose, not onto every pile.",
    "3. The worlds: deals of the cards the seat cannot see, consistent with everything it",
    "   has seen (the game's knowledge, `games/<game>/computer/knowledge.py`). In Fiasco,",
    "   Fazes and Fumblaroo a pool of 256 such worlds is weighed by how well each explains",
    "   the other players' plays (and bids), and worlds are drawn from it by weight.",
    "4. Each candidate is played out on the same worlds to the search's horizon (the end",
    "   of the deal; in Fizzbin one round of turns ahead), every seat playing by the easy",
    "   rules of thumb. In Fazes, Fibonachos and Fumblaroo the end of a deal is valued by",
    "   the game's standing (the seat's place on the totals it leaves, on a curve as wide as",
    "   the deals still to play can move it), blended with the deal's own points.",
    "5. Successive halving: after each round the worse half of the candidates is dropped,",
    "   so the playouts go to the moves still in question. The best mean value is chosen",
    "   (ties to the earlier candidate).",
    "",
    "The budget is a number of simulated moves per decision, never a clock, so a decision",
    "is a pure function of the position and the generator; the bot scales it with",
    "`COMPUTER_BUDGET`.",
]

#: How the matches are played and what the columns mean.
_METHOD = [
    "Four players (Fumblaroo: three), at each game's default options or its shortest",
    "(one faze, one round, one hand, target 5; Fiasco's default is its shortest). Per",
    "game: one hard player against easy ones; two hard players against two",
    f"`{FROZEN}` players, seated alternately (Fumblaroo: one against two); one easy",
    "player against random ones. Seats rotate (player *i* sits at position",
    "(*i* + *g*) mod *N* in game *g*) and deals are duplicated (each deal is played",
    "once per position), so every player holds every position's cards. *Win share*",
    "is the games one of the measured players (the first level named) won, ties",
    "counting for every winner, with its 95 % Wilson interval. The *fair share* is",
    "what players no better than the others would win at that table: 1/*N* for one",
    "player when every game has one winner, more where ties are common (a one-hand",
    "Fizzbin with no winner is a tie of all). Every goal asks the lower bound to",
    "clear the fair share; hard against easy must also clear its goal. Mean scores",
    "are the game's own points (in a game marked *lowest wins*, lower is better),",
    "first player against the mean of the others. Decision times are the CPU time",
    "of each decision of that level, median and 99th percentile.",
]

#: How the rows are checked and a match played again.
_CHECK = [
    "A row counts only if today's players would play its games. CI checks it:",
    "",
    "```sh",
    f"python -m bench.strength_check {RESULTS}",
    "```",
    "",
    "Each row must be what its saved games (`PATH.games` beside the results) add up to,",
    "and one game of each match, played again, must come out move for move as saved.",
    "When a change to a level makes it fail, the matches it names are played again, each",
    "into a fresh file, and folded into the results (a run stopped midway goes on from",
    "the games it saved):",
    "",
    "```sh",
    "python -m bench.strength --only fizzbin --sets shortest --matches new-old \\",
    "    --games fizzbin=400 --workers 2 --json NEW",
    f"python -m bench.strength --json {RESULTS} --merge NEW --out docs/computer-players.md",
    "```",
    "",
    f"`{NOTES.parent.name}/{NOTES.name}` says what stands in the way of each goal not met.",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One goal judged: its line in *Goals*, whether it is met, and if not by how much
    (a few words for *At a glance*)."""

    line: str
    met: bool
    gap: str
    key: str  # "game, match label" (or the game alone), as *What stands in the way* names it


#: The notes' section whose entries go under the goals they name, at the top.
IN_THE_WAY = "## What stands in the way"


def in_the_way(notes: str) -> tuple[dict[str, str], str]:
    """The entries of the notes' section :data:`IN_THE_WAY` (``- **game, match**: text``,
    the text running on over indented lines), by the goal they name; and the notes
    without that section.

    >>> entries, rest = in_the_way("Intro.\\n\\n## What stands in the way\\n\\n"
    ...     "- **fazes, hard vs easy**: the luck of\\n  the deal.\\n\\n## More\\nText.")
    >>> entries, rest
    ({'fazes, hard vs easy': 'the luck of the deal.'}, 'Intro.\\n\\n## More\\nText.')
    """
    lines = notes.splitlines()
    if IN_THE_WAY not in lines:
        return {}, notes
    start = lines.index(IN_THE_WAY)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    entries: dict[str, str] = {}
    key = ""
    for line in lines[start + 1:end]:
        if line.startswith("- **") and "**: " in line:
            key, _, text = line[4:].partition("**: ")
            if key in entries:
                raise ValueError(f"{IN_THE_WAY}: {key!r} is named twice")
            entries[key] = text.strip()
        elif line.startswith("  ") and key:
            entries[key] += " " + line.strip()
        elif line.strip():
            raise ValueError(f"{IN_THE_WAY}: not an entry (- **game, match**: text): {line!r}")
    before = "\n".join(lines[:start]).rstrip()
    after = "\n".join(lines[end:]).strip()
    return entries, "\n\n".join(part for part in (before, after) if part)


def _glance(verdicts: Sequence[Verdict], obstacles: Mapping[str, str] | None = None) -> list[str]:
    """How many goals are met, and each one that is not with its gap and what stands in its
    way (``obstacles``, by the verdict's key), for the top of the report."""
    missed = [v for v in verdicts if not v.met]
    out = [f"{len(verdicts) - len(missed)} of {len(verdicts)} goals met."]
    if missed:
        out[0] += " Not met:"
        out.append("")
        for v in missed:
            why = (obstacles or {}).get(v.key, f"not written yet ({IN_THE_WAY[3:]} in "
                                                f"{NOTES.parent.name}/{NOTES.name}).")
            out += [f"- {v.gap}", f"  *In the way:* {why}"]
    return out


def _row(name: str, label: str, result: Mapping[str, Any]) -> str:
    players = result["players"]
    won, low, high = share(result)
    goal = bar(name, label, result)
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
        f"| {title} | {label} | {result['games']} | {won:.1%} [{low:.1%}, {high:.1%}] "
        f"| {fair(result):.1%} | {goal:.1%} | {result['mean_score'][0]:.1f} / "
        f"{score_others:.1f} | {result['mean_place'][0]:.2f} / {place_others:.2f} "
        f"| {times} | {result['longest_game']} |"
    )


def _verdict(name: str, label: str, result: Mapping[str, Any]) -> Verdict:
    won, low, _ = share(result)
    goal = bar(name, label, result)
    first, _, rest = label.partition(" vs ")
    met = low > goal
    line = (
        f"- {name}, {first} against {rest}: {'met' if met else '**not met**'} (lower bound "
        f"{low:.1%}, goal above {goal:.1%}, share {won:.1%} over {result['games']} games)."
    )
    short = round(goal * 1000) - round(low * 1000)  # in tenths of a point, as they are shown
    gap = (f"{name}, {label}: lower bound {low:.1%} against {goal:.1%}, "
           f"{short / 10:.1f} points short (share {won:.1%} over {result['games']} games).")
    return Verdict(line, met, gap, key=f"{name}, {label}")


def _time_verdicts(name: str, entry: Mapping[str, Any], labels: Sequence[str]) -> list[Verdict]:
    """Whether hard's decisions kept :data:`TIME_GOAL`, in each match that timed them."""
    out = []
    for label in labels:
        timed = entry[label]["decision_ms"].get("hard")
        if timed is None:
            continue
        ok = timed["median"] <= TIME_GOAL[0] and timed["p99"] <= TIME_GOAL[1]
        times = (f"median {timed['median']:.0f} ms, p99 {timed['p99']:.0f} ms; goal at most "
                 f"{TIME_GOAL[0]:.0f} / {TIME_GOAL[1]:.0f} ms")
        out.append(Verdict(
            f"- {name}, hard's decision time in {label}: {'met' if ok else '**not met**'} "
            f"({times}).",
            ok, f"{name}, hard's decision time in {label}: {times}.",
            key=f"{name}, hard's decision time in {label}"))
    return out


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


def _words(text: str, known: Sequence[str], flag: str) -> list[str]:
    words = [w for w in text.split(",") if w]
    if not words or not set(words) <= set(known):
        raise ValueError(f"{flag}: a comma-separated list of {', '.join(known)}")
    return words


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
    parser.add_argument("--merge", type=Path, nargs="+", metavar="NEW",
                        help="fold the matches saved in these --json files into the --json "
                        "file (replacing the same matches), then render it")
    parser.add_argument("--notes", type=Path, default=NOTES,
                        help="what stands in the way of each goal not met (default "
                        "%(default)s)")
    parser.add_argument("--budget", type=int, help="override hard's budget (for a smoke run)")
    parser.add_argument("--only", help="these games only, comma-separated (default: all)")
    parser.add_argument("--sets", default="default",
                        help=f"option sets, comma-separated: {', '.join(SETS)} "
                        "(default: default)")
    parser.add_argument("--matches", default=",".join(MATCHES),
                        help=f"matches, comma-separated (default: {','.join(MATCHES)})")
    args = parser.parse_args(argv)
    try:
        counts = parse_counts(args.games)
        sets = _words(args.sets, SETS, "--sets")
        which = _words(args.matches, list(MATCHES), "--matches")
    except ValueError as exc:
        parser.error(str(exc))
    words = ["python -m bench.strength", *(argv if argv is not None else sys.argv[1:])]
    if args.merge:
        if not args.json or not args.json.is_file():
            parser.error("--merge: name the results to merge into with --json")
        try:
            raw = merge(args.json, args.merge)
        except ValueError as exc:
            parser.error(str(exc))
        command = raw.get("command", " ".join(words))
    elif args.render:
        raw = json.loads(args.render.read_text())
        command = raw.get("command", " ".join(words))
    else:
        only = args.only.split(",") if args.only else None
        if only and not set(only) <= set(games.names()):
            parser.error(f"--only: games are {', '.join(games.names())}")
        raw = run(counts, args.seed, args.workers, args.budget, only, args.json, sets=sets,
                  which=which)
        command = " ".join(words)
        raw["command"] = command
        if args.json:
            args.json.write_text(json.dumps(raw, indent=1) + "\n")
    notes = args.notes.read_text() if args.notes.is_file() else ""
    try:
        report = render(raw, command, notes)
    except ValueError as exc:  # the results are saved: mend the notes and --render them
        parser.error(f"--notes {args.notes}: {exc}")
    if args.out:
        args.out.write_text(report)
    else:
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
