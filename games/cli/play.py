"""``python -m games play GAME``: play against computer players, watch them, or measure them.

    python -m games play fiasco --seats human,hard,easy
    python -m games play fazes --players 4 --seats hard,easy,easy,easy \\
        --games 100 --seed 1 --rotate --json [--workers 2]

With a ``human`` seat it is a terminal table (:mod:`games.cli.terminal`) reading
standard input line by line; without one and without ``--json`` it shows the
computers' games in words; with ``--json`` it plays the games and prints one
JSON object (:func:`games.players.match.summarize`). Without ``--seed`` every run deals
new games from a fresh seed, which the table prints first and the JSON object holds,
so that a game can be played again. Bad arguments: one line on standard error and exit
status 2.
"""

from __future__ import annotations

import argparse
import getpass
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

import games
from games.cli.common import OneLineParser, UsageError, emit
from games.cli.terminal import HUMAN, Table
from games.core.errors import SetupError
from games.core.game import make_options
from games.core.seats import players_text
from games.players.levels import Level, levels
from games.players.match import EndlessGame, Match, play_match


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="python -m games play", description=__doc__.splitlines()[0])
    p.add_argument("game", help=f"one of {', '.join(games.names())}")
    p.add_argument("--players", type=int, help="how many players (default: the seats given)")
    p.add_argument(
        "--seats",
        help=f"a level per player, comma-separated: {HUMAN}, {', '.join(levels())} "
        f"(default: {HUMAN} and hard for the others)",
    )
    p.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    p.add_argument("--seed", type=int,
                   help="the seed of every deal and choice (default: a fresh one, printed, "
                        "so that a game can be played again)")
    p.add_argument("--name", default=default_name(),
                   help="the name you play under at the terminal table (default: your login)")
    p.add_argument("--json", action="store_true", help="print one JSON object of statistics")
    p.add_argument("--rotate", action="store_true", help="player i sits at (i + g) mod N")
    p.add_argument(
        "--duplicate", action="store_true", help="with --rotate: every deal once per position"
    )
    p.add_argument("--options", default="{}", help="the game's options as a JSON object")
    p.add_argument("--workers", type=int, default=1, help="processes for --json (default 1)")
    p.add_argument("--budget", type=int, help="the hard level's simulated moves per decision")
    return p


def build_match(args: argparse.Namespace) -> Match:
    """The match the arguments ask for; :class:`UsageError` saying what is wrong."""
    try:
        cls = games.get(args.game)
    except SetupError as exc:
        raise UsageError(exc.message) from None
    seats = _seats(args.seats, args.players, cls.min_players, cls.max_players, cls.title)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.budget is not None and args.budget < 1:
        raise UsageError(f"--budget must be at least 1, not {args.budget}")
    if args.duplicate and not args.rotate:
        raise UsageError("--duplicate needs --rotate")
    if args.json and HUMAN in seats:
        raise UsageError(f"--json plays computers only; a seat is {HUMAN}")
    seed = args.seed if args.seed is not None else fresh_seed()
    options = _options(args.options)
    try:
        make_options(cls, len(seats), options)
    except SetupError as exc:
        raise UsageError(exc.message) from None
    return Match(
        game=cls.name,
        seats=seats,
        games=args.games,
        seed=seed,
        rotate=args.rotate,
        duplicate=args.duplicate,
        options=options,
        budget=args.budget,
    )


def fresh_seed() -> int:
    """A new seed for a game nobody asked to repeat: from the system, small enough to type."""
    return random.SystemRandom().randrange(1, 1_000_000)


def default_name() -> str:
    """The person's login name, for the terminal table; "Player" when there is none."""
    try:
        return getpass.getuser() or "Player"
    except (KeyError, OSError):  # no such user in the password file, no USER variable
        return "Player"


def _seats(text: str | None, players: int | None, low: int, high: int,
           title: str) -> tuple[str, ...]:
    wrong = f"{title} is for {players_text(low, high, dash=' to ')}"
    if players is not None and not low <= players <= high:
        raise UsageError(f"{wrong}, not {players}")
    if text is None:
        count = players if players is not None else max(low, min(4, high))
        return (HUMAN, *[Level.HARD] * (count - 1))
    seats = tuple(part.strip().lower() for part in text.split(","))
    known = {HUMAN, *levels()}
    for seat in seats:
        if seat not in known:
            raise UsageError(f"unknown seat {seat!r} (seats are {', '.join(sorted(known))})")
    if players is not None and players != len(seats):
        raise UsageError(f"--players is {players} but --seats names {len(seats)}")
    if not low <= len(seats) <= high:
        raise UsageError(f"{wrong}, not {len(seats)}")
    return seats


def _options(text: str) -> dict[str, Any]:
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--options is not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise UsageError("--options must be a JSON object")
    return options


def main(argv: Sequence[str]) -> int:
    """Run the play command on ``argv`` (the words after ``play``); the exit status."""
    try:
        args = parser().parse_args(argv)
        match = build_match(args)
    except UsageError as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 2
    if not args.json:
        return Table(match, sys.stdin, sys.stdout, person=args.name).run()
    try:
        result = play_match(match, workers=args.workers)
    except EndlessGame as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 1
    emit(json.dumps(result))
    return 0


__all__ = ["build_match", "main", "parser"]
