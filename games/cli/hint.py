"""``python -m games hint RECORD [--level hard|easy|random] [--seed N]``: what would a computer do?

Replays the record (a file, or ``-`` for standard input) and prints, on its first
line, the action the level would take for the player to act, in the game's
notation without the player number (``play S4``), and on the second line the hint
as the bot's Hint button says it (``Play 🗡️4: it takes the pot with your cheapest
winning card.``).

The choice sees only that player's perspective, and its randomness comes from
``--seed`` alone (default 0), never from the record's seed, which fixes every
future deal. Exit status: 0 with a hint; 1 when the game is over or an action of
the record cannot be applied (the message says which); 2 for bad arguments or a
malformed record (one line on standard error).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import NoReturn

from games.cli.common import (
    MalformedRecord,
    OneLineParser,
    Unreadable,
    UsageError,
    emit,
    replay_source,
)
from games.players.base import hint_words, perspective
from games.players.levels import Level, decide, levels
from games.players.match import make_player


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="python -m games hint", description=__doc__.splitlines()[0])
    p.add_argument("record", help="path to a record JSON file, or - for standard input")
    # Choices as plain words: argparse names a bad one among their reprs.
    p.add_argument("--level", default=Level.HARD.value, choices=[str(lv) for lv in levels()],
                   help="default hard")
    p.add_argument("--seed", type=int, default=0, help="the hint's own seed (default 0)")
    p.add_argument("--budget", type=int, help="the hard level's simulated moves per decision")
    return p


def hint_rng(seed: int) -> random.Random:
    """The generator of a hint: from ``--seed`` alone, so the same view gets the same hint."""
    return random.Random(f"fivefold-hint:{seed}")


class _Stop(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _fail(status: int, message: str) -> NoReturn:
    raise _Stop(status, message)


def main(argv: Sequence[str]) -> int:
    """Run the hint command on ``argv`` (the words after ``hint``); the exit status."""
    try:
        args = parser().parse_args(argv)
        if args.budget is not None and args.budget < 1:
            raise UsageError(f"--budget must be at least 1, not {args.budget}")
        line_one, line_two = _hint(args.record, args.level, args.seed, args.budget)
    except UsageError as exc:
        print(f"hint: {exc}", file=sys.stderr)
        return 2
    except _Stop as stop:
        print(f"hint: {stop.message}", file=sys.stderr)
        return stop.status
    emit(f"{line_one}\n{line_two}")
    return 0


def _hint(source: str, level: Level | str, seed: int, budget: int | None) -> tuple[str, str]:
    try:
        result = replay_source(source)
    except Unreadable as exc:
        _fail(2, str(exc).replace("\n", " "))
    except MalformedRecord as exc:
        _fail(2, str(exc))
    if result.error is not None:
        failure = result.error
        _fail(1, f"action {failure.index} ({failure.action!r}) cannot be applied: "
                 f"{failure.message}")
    game = result.game
    if game.over or game.to_act is None:
        _fail(1, "the game is over")
    view = perspective(game, game.to_act)
    rng = hint_rng(seed)
    if budget is not None:
        decision = make_player(level, budget).decide(view, rng)
    else:
        decision = decide(level, view, rng)
    return str(decision.action), hint_words(game.action_label(decision.action), decision.reason)


__all__ = ["hint_rng", "main", "parser"]
