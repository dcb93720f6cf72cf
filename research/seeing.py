"""How far better worlds could take the hard level: hard seeing every card, against easy.

    python -m research.seeing fazes --options '{"fazes": [1]}' --games 400 \\
        --workers 2 [--seed 1] [--budget N] [--against bench/strength-results.json.games] \\
        [--stages "bidding,dealer's choice"]

Plays the strength report's hard-against-easy match (``bench.strength``: the same
seats, seeds, rotation and so the same deals) with one change: every world the hard
seat's search draws is the true one, every hidden card where it really lies. That is a
ceiling for any card-location inference, the issue's first lever: if a search that
sees every card cannot reach a goal, better worlds alone will not either, and the gap
is in the search or in the luck of the deal. ``--stages`` shows the cards only in some
stages of the game (Fumblaroo's bidding, say, not its tricks; elsewhere the hard level
draws the knowledge's own worlds, unweighed): how the ceiling splits between them.

Prints one JSON object: the games, the seeing hard player's wins and share with its
95 % Wilson interval, the fair share, its decision times, and with ``--against`` (a
``bench.strength`` games file holding the same match) the same deals as the hard level
played them: its wins there and the games won by one and lost by the other.

Only for games whose hard level draws its worlds from the game's knowledge
(``Knowledge.sample``): Fazes, Fibonachos and Fumblaroo. Fiasco's and Fizzbin's advice
draw their own. A benchmark: the seeing player exists in this process (and its
workers) only, never in the bot.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any

import games
from bench.strength import SHORTEST, Measured, group_wins, matches, wilson
from games.core.game import Game
from games.players import knowledge_for
from games.players.advice import advice_for
from games.players.base import Knowledge, Perspective, SearchState
from games.players.match import GameResult, Match, play_game, processes, summarize

#: The games whose hard level's worlds all come from ``Knowledge.sample``.
SEEING = ("fazes", "fibonachos", "fumblaroo")

def stage_of(game: Game[Any]) -> str | None:
    """The name of the stage ``game`` is in (its ``stage``, an enumeration), or None."""
    stage = getattr(game, "stage", None)
    return str(stage.value) if isinstance(stage, Enum) else None


def stage_names(game: Game[Any]) -> frozenset[str]:
    """The names of ``game``'s stages (its ``stage``, an enumeration), or none."""
    stage = getattr(game, "stage", None)
    if not isinstance(stage, Enum):
        return frozenset()
    return frozenset(str(s.value) for s in type(stage))


@contextmanager
def seeing(name: str, stages: frozenset[str] | None = None) -> Iterator[None]:
    """Within it, every world ``name``'s knowledge samples is the live game's true state
    (the game :func:`games.new_game` made last); both are put back on the way out. With
    ``stages``, only while the live game is in one of them (:func:`stage_names`); in the
    others the knowledge samples as it does, unweighed."""
    if name not in SEEING:
        raise ValueError(f"{name}'s hard level draws its own worlds; this measures "
                         f"{', '.join(SEEING)}")
    know = knowledge_for(name)
    assert know is not None, f"{name} has no knowledge"
    cls = type(know)
    own = cls.__dict__.get("sample")
    make = games.new_game
    # An advice that weighs its worlds itself (Fazes' and Fumblaroo's pools) draws them
    # from the knowledge inside the context: every one is the true world, with nothing
    # left to weigh.
    advice: Any = advice_for(name)
    pool = getattr(advice, "pool", None)
    live: list[Game[Any]] = []

    def new_game(*args: Any, **kwargs: Any) -> Game[Any]:
        game = make(*args, **kwargs)
        live[:] = [game]
        return game

    unseeing = cls.sample

    def sample(self: Knowledge, p: Perspective, rng: random.Random) -> SearchState:
        game = live[0]
        if stages is None or stage_of(game) in stages:
            return self.from_game(game)
        return unseeing(self, p, rng)

    games.new_game = new_game
    cls.sample = sample  # type: ignore[method-assign]
    if pool is not None:
        advice.pool = 0
    try:
        yield
    finally:
        games.new_game = make
        if pool is not None:
            advice.pool = pool
        if own is None:
            del cls.sample
        else:
            cls.sample = own  # type: ignore[method-assign]


def _play(job: tuple[Match, int, frozenset[str] | None]) -> GameResult:
    match, index, stages = job
    with seeing(match.game, stages):
        return play_game(match, index)


def play(measured: Measured, workers: int,
         stages: frozenset[str] | None = None) -> list[GameResult]:
    """Every game of ``measured`` with its hard seat seeing every card (in ``stages``
    only, if given), in order."""
    jobs = [(measured.match, g, stages) for g in range(measured.match.games)]
    if workers <= 1:
        return [_play(job) for job in jobs]
    with processes(workers) as pool:
        return list(pool.map(_play, jobs))


def reported_games(saved: Path, head: str) -> int | None:
    """How many games the report shows for ``head`` (``game:match``): the count in the
    report's JSON beside the games file ``saved`` (``X.json`` for ``X.json.games``), or
    None when there is no such report or match."""
    report = saved.with_name(saved.name.removesuffix(".games"))
    if report == saved or not report.is_file():
        return None
    game, _, name = head.partition(":")
    entry = json.loads(report.read_text(encoding="utf-8")).get("games", {}).get(game, {})
    count = entry.get(name, {}).get("games") if isinstance(entry, dict) else None
    return count if isinstance(count, int) else None


def paired(results: Sequence[GameResult], saved: Path, match: str) -> dict[str, Any]:
    """The same deals as ``saved`` holds them for ``match`` (a key of
    ``bench.strength``'s games file without its game count): the hard level's wins there,
    and the games the seeing player won that it lost, and back. The saved match is the one
    the report shows (its game count in the report's JSON beside ``saved``; an older,
    longer match of the same name may be of a hard level since changed), else the longest;
    of that count, the last row saved for each game."""
    head, _, budget = match.rpartition(":")
    found: dict[int, dict[int, list[bool]]] = {}
    for line in saved.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        prefix, _, rest = row["key"].rpartition(":")
        name, _, count = prefix.rpartition(":")
        if name == head and rest == budget:
            found.setdefault(int(count), {})[row["index"]] = row["won"]
    shown = reported_games(saved, head)
    if shown is not None and shown in found:
        rows = found[shown]
    else:
        rows = found[max(found)] if found else {}
    if any(g not in rows for g in range(len(results))):
        raise SystemExit(f"{saved} does not hold the first {len(results)} games of "
                         f"{head!r} at budget {budget}")
    seeing = [r.won[0] for r in results]
    hard = [rows[g][0] for g in range(len(results))]
    return {"hard_wins": sum(hard),
            "seeing_only": sum(s and not h for s, h in zip(seeing, hard, strict=True)),
            "hard_only": sum(h and not s for s, h in zip(seeing, hard, strict=True))}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.seeing", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("game", choices=SEEING)
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--games", type=int, default=48, help="games (rounded up to rotations)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", type=int, default=None, help="hard's budget (a smoke run)")
    parser.add_argument("--against", type=Path, default=None,
                        help="a bench.strength games file with the same match")
    parser.add_argument("--stages", default=None,
                        help="see only in these stages of the game, comma-separated "
                             "(Fumblaroo's: bidding, dealer's choice, dealer discards, "
                             "calling trump, playing)")
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        parser.error(f"--options is not JSON: {exc}")
    if not isinstance(options, dict):
        parser.error("--options must be a JSON object")
    (label, measured), = matches(args.game, args.games, args.seed, which=("hard-easy",),
                                 options=options).items()
    if args.budget is not None:
        measured = Measured(dataclasses.replace(measured.match, budget=args.budget),
                            measured.group)
    stages = None
    if args.stages is not None:
        stages = frozenset(s.strip() for s in args.stages.split(",") if s.strip())
        known = stage_names(games.new_game(args.game, measured.match.players, options, seed=0))
        if not stages or not stages <= known:
            parser.error(f"--stages names {args.game}'s stages: "
                         f"{', '.join(sorted(known)) or 'it has none'}")
    results = play(measured, args.workers, stages)
    summary = summarize(measured.match, results)
    seen = "every card" if stages is None else f"every card in {', '.join(sorted(stages))}"
    out: dict[str, Any] = {"game": args.game, "options": options,
                           "match": f"{label} (hard seeing {seen})",
                           "games": len(results), "seed": args.seed,
                           **group_wins(measured, results)}
    low, high = wilson(out["group_wins"], len(results))
    out["share"] = round(out["group_wins"] / len(results), 4)
    out["wilson"] = [round(low, 4), round(high, 4)]
    out["decision_ms"] = summary["decision_ms"]
    if args.against is not None:
        kind = "" if options == {} else (
            ", shortest options" if options == SHORTEST[args.game] else None)
        if kind is None:
            parser.error("--against pairs the default or the shortest options only")
        out["paired"] = paired(results, args.against, f"{args.game}:{label}{kind}:{args.budget}")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
