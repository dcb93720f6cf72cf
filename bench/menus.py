"""What the bot spends drawing one hand menu and one table message, outside Discord.

``python -m bench.menus`` plays each game a seeded number of random moves in (4 players,
Fumblaroo 3; ``--states`` positions a game), then times, in CPU microseconds, what the
bot does for every seat's menu at each position (the snapshot, :func:`menu_of`, then
:func:`render_hand`, then its buttons written as the payload's components) and for the
table message (:func:`table_of`, then :func:`render_table`, then its components): the
rendering work that every click and every change of a table costs, without the rest of
discord.py's or aiohttp's part. The components are counted because where they are made
moved: discord.py made them from its items when sending, the bot's own static view makes
them now.

With ``--versus REV`` the same positions are timed with the code of git revision ``REV``
too (:mod:`bench.botcode` extracts it), each side in a process of its own, the two
alternating in short rounds (a shared machine's speed drifts over seconds, and the two
sides of a round see the same moment), and each round's ratio (this tree / ``REV``) is given;
``--this REV2`` times revision ``REV2`` in place of this tree (one change measured alone).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import asdict
from typing import Any

from bench.botcode import ROOT, CodeError, extract, scratch
from bench.rules import Spread, machine

SIDE = """\
import datetime as dt, json, random, sys, time
import games
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import menu_of, table_of
from cogs.render.hand import render_hand
from cogs.render.table import render_table

states, repeats = int(sys.argv[1]), int(sys.argv[2])
now = dt.datetime.now(dt.UTC)
sessions = []
for name in sorted(games.names()):
    cls = games.get(name)
    players = max(cls.min_players, min(4, cls.max_players))
    for seed in range(states):
        table = StoredTable(id=f"{name}{seed}", guild_id=1, channel_id=2, host_id=10,
                            game=name, status=TableStatus.PLAYING, version=1, created_at=now,
                            updated_at=now, pictures=False,
                            seats=[Seat(user_id=10 + n, name=f"Player {n}")
                                   for n in range(players)])
        game, rng = games.new_game(name, players, seed=seed), random.Random(seed)
        for _ in range(rng.randrange(4, 40)):
            if game.over:
                break
            actor = game.to_act
            game.apply(actor, rng.choice(game.legal_actions(actor)))
        sessions.append((name, Session(table, game), players))

def timed(work):
    start = time.process_time()
    count = 0
    for _ in range(repeats):
        for name, session, players in sessions:
            session.public = None  # each pass as after a change: the public view made anew
            count += work(session, players)
    return (time.process_time() - start) / count * 1e6

def menus(session, players):
    for seat in range(players):
        render_hand(menu_of(session, seat)).view.to_components()
    return players

def tables(session, players):
    shown = render_table(table_of(session))
    if shown.view is not None:
        shown.view.to_components()
    return 1

timed(menus), timed(tables)  # warm: imports, caches, the first view of each game
for line in sys.stdin:  # one round a line, until the bench closes the pipe
    print(json.dumps({"menu_us": timed(menus), "table_us": timed(tables),
                      "positions": len(sessions)}), flush=True)
"""
"""The timing, run in a process of its own from the code's folder (this tree or a revision):
a round each time the bench asks, so the two sides' rounds can alternate closely."""


class Side:
    """One side's process: the positions made once, then a round timed on each request."""

    def __init__(self, root: str, states: int, repeats: int) -> None:
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-c", SIDE, str(states), str(repeats)], cwd=root,
            env={**os.environ, "PYTHONPATH": root}, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def round(self) -> dict[str, float]:
        """CPU µs a menu and a table message, over one round."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write("round\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # it has died: said below
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            assert self.process.stderr is not None
            raise RuntimeError(f"the timing at {self.root} failed:\n"
                               f"{self.process.stderr.read().strip()}")
        result: dict[str, float] = json.loads(line)
        return result

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.menus", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=5, help="positions a game (default 5)")
    parser.add_argument("--repeats", type=int, default=2,
                        help="passes over every position a round (default 2)")
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--versus", metavar="REV", help="also time git revision REV")
    parser.add_argument("--this", metavar="REV",
                        help="with --versus: time revision REV as this side (default: this tree)")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    if args.states < 1 or args.repeats < 1 or args.rounds < 1:
        parser.error("--states, --repeats and --rounds take at least 1")
    if args.this and not args.versus:
        parser.error("--this goes with --versus")
    roots = {"this": str(ROOT)}
    try:
        if args.this:
            roots["this"] = str(extract(args.this, scratch()))
        if args.versus:
            roots["reference"] = str(extract(args.versus, scratch()))
    except CodeError as exc:
        parser.error(str(exc))
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in roots}
    sides = {name: Side(root, args.states, args.repeats) for name, root in roots.items()}
    try:
        for number in range(args.rounds):  # alternating, so a busier moment moves both alike
            order = list(roots) if number % 2 == 0 else list(reversed(roots))
            for name in order:
                rounds[name].append(sides[name].round())
    finally:
        for running in sides.values():
            running.close()
    result: dict[str, Any] = {"machine": machine(), "states": args.states,
                              "repeats": args.repeats, "rounds": args.rounds,
                              "this": args.this, "versus": args.versus,
                              "positions": rounds["this"][0]["positions"]}
    print(f"{result['positions']} positions, CPU µs each, median (min-max) of "
          f"{args.rounds} rounds of {args.repeats} passes:")
    for figure, words in (("menu_us", "a seat's hand menu (menu_of, render_hand, components)"),
                          ("table_us", "the table message (table_of, render_table, components)")):
        for name in roots:
            spread = Spread.of([r[figure] for r in rounds[name]])
            result[f"{name}_{figure}"] = asdict(spread)
            label = (args.this or "this tree") if name == "this" else args.versus
            print(f"  {words}, {label}: {spread.text(',.1f')}")
        if args.versus:
            ratios = [t[figure] / r[figure]
                      for t, r in zip(rounds["this"], rounds["reference"], strict=True)]
            result[f"{figure}_ratio"] = asdict(Spread.of(ratios))
            print(f"    {args.this or 'this'} / {args.versus}: "
                  f"{Spread.of(ratios).text('.2f')} (round by round)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
