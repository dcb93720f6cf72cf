"""How fast the rules core plays, against OpenSpiel's Hearts in the same process.

    .venv/bin/python -m bench.rules [--quick] [--runs 5] [--seconds 0.25] [--json PATH]

Four measurements, each repeated ``--runs`` times in interleaved rounds (every case
once per round, the reference beside it), reported as the median with the min-max
spread:

* **playouts**: random legal actions from a state to the end of the game, for every
  game and player count, on the validating core. *dealt*: from a copy (``clone``) of
  a state just dealt; *deal*: each playout sets up a new game from its own seed, so the
  shuffle and deal are counted too. The reference is OpenSpiel's
  ``hearts(pass_cards=false)`` (the ``bench`` extra), dealt the same two ways; the
  ratio is the case's rate over the reference's in the same round.
* **fast playouts**: the same from a dealt state on each game's search fast path
  (``Knowledge.from_game``, ``copy``, ``moves``, ``play``) to its horizon, with the
  ratio to Hearts dealt; a game without a fast path says so.
* **per 300 ms**: random playouts on the fast path from mid-game (halfway through the
  first horizon at default options), what a computer player's search can afford.
* **calls**: the cost of one ``clone``, ``legal_actions``, ``apply``, ``view_for`` and
  ``record`` (the caller's own copy) of the validating core, and of ``copy``, ``moves``
  and ``play`` on the fast path, from that same mid-game state.

Figures depend on the machine (noted in the output, with the load average at the start
and the end) and on what else it runs; compare
them within one run. ``--quick`` takes a few seconds (one player count per game, short
rounds), for a smoke test of the output's shape.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import games
from games.core.game import Game
from games.players import knowledge_for
from games.players.base import SearchState

#: Options that keep one validating-core playout short (the game's first deal or round).
OPTIONS: dict[str, dict[str, Any]] = {
    "fiasco": {},
    "fibonachos": {"rounds": 1},
    "fizzbin": {"hands": 1, "time": "day"},
    "fazes": {"fazes": [1]},
    "fumblaroo": {"target": 5},
}
MID_GAME_PLAYERS = 4  # or the nearest count the game allows
REFERENCE = "hearts(pass_cards=false)"
UNAVAILABLE = "reference unavailable (pip install -e '.[bench]' for open-spiel)"
NO_FAST_PATH = "no fast path yet"


@dataclass
class Spread:
    """The median of repeated measurements and their range."""

    median: float
    min: float
    max: float

    @classmethod
    def of(cls, values: list[float]) -> Spread:
        return cls(statistics.median(values), min(values), max(values))

    def text(self, fmt: str = ",.0f") -> str:
        return f"{self.median:{fmt}} ({self.min:{fmt}}-{self.max:{fmt}})"


def side_by_side(kind: str, sides: dict[str, list[float]], this: str, reference: str,
                 names: tuple[str, str]) -> tuple[dict[str, Any], str]:
    """Two sides' µs a call for ``kind``, measured round by round: the figures for the JSON
    (``{this}_us``, ``{reference}_us``, ``{this}_over_{reference}``) and one line for the
    terminal, the sides called ``names``."""
    ours, theirs = sides[this], sides[reference]
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    figures = {f"{this}_us": asdict(Spread.of(ours)), f"{reference}_us": asdict(Spread.of(theirs)),
               f"{this}_over_{reference}": asdict(Spread.of(ratios))}
    saved = statistics.median(theirs) - statistics.median(ours)
    line = (f"  {kind}: {names[0]} {Spread.of(ours).text(',.1f')}, "
            f"{names[1]} {Spread.of(theirs).text(',.1f')}, "
            f"ratio {Spread.of(ratios).text('.2f')} (round by round), "
            f"{saved:,.1f} µs saved a call")
    return figures, line


def per_call_options(parser: argparse.ArgumentParser, kinds: Sequence[str], *, calls: int,
                     in_flight: int, picture_help: str) -> None:
    """The options of a bench of the bot's CPU a call, two ways side by side
    (``bench.rest``, ``bench.workers``)."""
    parser.add_argument("--kinds", default=",".join(kinds),
                        help=f"any of {', '.join(kinds)} (default all)")
    parser.add_argument("--calls", type=int, default=calls, help="calls a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--in-flight", type=int, default=in_flight, help="calls at once")
    parser.add_argument("--picture-bytes", type=int, default=40_000, help=picture_help)
    parser.add_argument("--json", type=Path, help="also write the figures here")


def chosen_kinds(parser: argparse.ArgumentParser, args: argparse.Namespace,
                 kinds: Sequence[str]) -> list[str]:
    """The kinds ``--kinds`` names (the parser's error if any is unknown or none is)."""
    chosen = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if not chosen or any(k not in kinds for k in chosen):
        parser.error(f"--kinds takes {', '.join(kinds)}")
    return chosen


def report_per_call(args: argparse.Namespace, figures: dict[str, dict[str, list[float]]], *,
                    loop: str, heading: str, this: str, reference: str,
                    names: tuple[str, str]) -> dict[str, Any]:
    """Print ``heading`` and each kind's two sides (:func:`side_by_side`), write them to
    ``--json`` if given; the result."""
    result: dict[str, Any] = {"machine": machine(), "loop": loop, "calls": args.calls,
                              "rounds": args.rounds, "in_flight": args.in_flight,
                              "picture_bytes": args.picture_bytes, "kinds": {}}
    print(heading)
    for kind, sides in figures.items():
        result["kinds"][kind], line = side_by_side(kind, sides, this, reference, names)
        print(line)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return result


@dataclass
class Case:
    """One measured thing: a rate per round, and its ratio to the reference per round."""

    rates: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)

    def add(self, rate: float, reference: float | None) -> None:
        self.rates.append(rate)
        if reference:
            self.ratios.append(rate / reference)

    def result(self) -> dict[str, Any]:
        return {
            "per_s": asdict(Spread.of(self.rates)),
            "ratio": asdict(Spread.of(self.ratios)) if self.ratios else None,
        }


def rate(playout: Callable[[random.Random], object], seconds: float, seed: int) -> float:
    """Playouts per second of ``playout`` over about ``seconds``."""
    rng = random.Random(seed)
    played = 0
    began = time.process_time()
    while (elapsed := time.process_time() - began) < seconds or played == 0:
        playout(rng)
        played += 1
    return played / elapsed


# --- the validating core ---------------------------------------------------------------


def play_to_end(game: Game[Any], rng: random.Random) -> int:
    """Random legal actions until ``game`` is over; how many."""
    count = 0
    while not game.over:
        actions = game.legal_actions()
        game.apply(game.to_act, actions[rng.randrange(len(actions))])  # type: ignore[arg-type]
        count += 1
    return count


def core_playouts(name: str, players: int, *, dealt: bool) -> Callable[[random.Random], object]:
    """A playout of ``name`` on the validating core, from a dealt copy or a new deal."""
    options = OPTIONS.get(name, {})
    if dealt:
        start = games.new_game(name, players, options, seed=12345)
        return lambda rng: play_to_end(start.clone(), rng)
    return lambda rng: play_to_end(
        games.new_game(name, players, options, seed=rng.randrange(1 << 30)), rng)


# --- the fast path ---------------------------------------------------------------------


def fast_playout(start: SearchState, rng: random.Random) -> None:
    """Random moves on a copy of ``start`` to its horizon."""
    state = start.copy()
    while not state.done():
        moves = state.moves()
        state.play(moves[rng.randrange(len(moves))])


def mid_game(name: str, players: int) -> Game[Any]:
    """A state halfway through the first horizon of a game at default options."""
    know = knowledge_for(name)
    assert know is not None
    game = games.new_game(name, players, seed=2024)
    probe = know.from_game(game)
    horizon = 0
    rng = random.Random(1)
    while not probe.done():
        moves = probe.moves()
        probe.play(moves[rng.randrange(len(moves))])
        horizon += 1
    rng = random.Random(2)
    for _ in range(horizon // 2):
        actions = game.legal_actions()
        game.apply(game.to_act, actions[rng.randrange(len(actions))])  # type: ignore[arg-type]
    return game


def per_300ms(start: SearchState, seed: int) -> float:
    """Random playouts from ``start`` in 300 ms."""
    return rate(lambda rng: fast_playout(start, rng), 0.3, seed) * 0.3


def call_costs(game: Game[Any], repeat: int) -> dict[str, float]:
    """Microseconds per call of the validating core's and the fast path's operations."""
    costs = {
        "clone": _per_call(game.clone, repeat),
        "legal_actions": _per_call(game.legal_actions, repeat),
        "view_for": _per_call(lambda: game.view_for(game.to_act), repeat),
        "record": _per_call(game.record, repeat),
    }
    action = game.legal_actions()[0]
    copies = [game.clone() for _ in range(repeat)]
    seat = game.to_act
    assert seat is not None
    began = time.process_time()
    for copy in copies:
        copy.apply(seat, action)
    costs["apply"] = (time.process_time() - began) / repeat * 1e6
    know = knowledge_for(game.name)
    if know is not None:
        state = know.from_game(game)
        costs["fast copy"] = _per_call(state.copy, repeat * 10)
        costs["fast moves"] = _per_call(state.moves, repeat * 10)
        move = state.moves()[0]
        states = [state.copy() for _ in range(repeat * 10)]
        began = time.process_time()
        for s in states:
            s.play(move)
        costs["fast play"] = (time.process_time() - began) / (repeat * 10) * 1e6
    return costs


def _per_call(fn: Callable[[], object], repeat: int) -> float:
    began = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - began) / repeat * 1e6


# --- the reference ---------------------------------------------------------------------


def hearts_playouts(*, dealt: bool) -> Callable[[random.Random], object] | None:
    """OpenSpiel Hearts random playouts (from a dealt state, or dealing each time), or
    ``None`` when open-spiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(REFERENCE)

    def deal(state: Any, rng: random.Random) -> Any:
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        return state

    def play(state: Any, rng: random.Random) -> None:
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])

    if dealt:
        start = deal(game.new_initial_state(), random.Random(12345))
        return lambda rng: play(start.clone(), rng)
    return lambda rng: play(deal(game.new_initial_state(), rng), rng)


# --- the run ---------------------------------------------------------------------------


def machine() -> dict[str, str]:
    """The CPU model and Python version the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "platform": platform.platform()}


def player_counts(name: str, quick: bool) -> list[int]:
    cls = games.get(name)
    counts = list(range(cls.min_players, cls.max_players + 1))
    return [mid_game_players(name)] if quick else counts


def mid_game_players(name: str) -> int:
    cls = games.get(name)
    return min(max(MID_GAME_PLAYERS, cls.min_players), cls.max_players)


def run(runs: int, seconds: float, quick: bool) -> dict[str, Any]:
    """Every measurement, interleaved round by round (see the module docstring)."""
    load_at_start = os.getloadavg()
    names = games.names()
    reference = {mode: hearts_playouts(dealt=mode == "dealt") for mode in ("dealt", "deal")}
    core: dict[tuple[str, int, str], Case] = {}
    fast: dict[str, Case] = {}
    fast_starts: dict[str, SearchState] = {}
    mids: dict[str, SearchState] = {}
    for name in names:
        know = knowledge_for(name)
        if know is not None:
            n = mid_game_players(name)
            fast_starts[name] = know.from_game(
                games.new_game(name, n, OPTIONS.get(name, {}), seed=12345))
            mids[name] = know.from_game(mid_game(name, n))
    hearts: dict[str, Case] = {"dealt": Case(), "deal": Case()}
    windows: dict[str, list[float]] = {name: [] for name in mids}
    for round_ in range(runs):
        ref: dict[str, float | None] = {}
        for mode, playout in reference.items():
            ref[mode] = rate(playout, seconds, round_) if playout else None
            if ref[mode]:
                hearts[mode].add(ref[mode] or 0.0, None)
        for name in names:
            for players in player_counts(name, quick):
                for mode in ("dealt", "deal"):
                    case = core.setdefault((name, players, mode), Case())
                    case.add(rate(core_playouts(name, players, dealt=mode == "dealt"),
                                  seconds, round_), ref[mode])
            if name in fast_starts:
                start = fast_starts[name]
                fast.setdefault(name, Case()).add(
                    rate(lambda rng, s=start: fast_playout(s, rng), seconds, round_),
                    ref["dealt"])
                windows[name].append(per_300ms(mids[name], round_))
    calls = {}
    for name in names:
        repeat = 50 if quick else 2000
        samples = [call_costs(_mid_or_dealt(name), repeat) for _ in range(min(runs, 3))]
        calls[name] = {k: asdict(Spread.of([s[k] for s in samples])) for k in samples[0]}
    return {
        "machine": machine(),
        # 1, 5 and 15 minutes, at the start and the end: how busy the machine was.
        "load_average": {"start": load_at_start, "end": os.getloadavg()},
        "settings": {"runs": runs, "seconds": seconds, "quick": quick, "reference": REFERENCE},
        "reference": {
            "available": all(reference.values()),
            "note": None if all(reference.values()) else UNAVAILABLE,
            **{mode: asdict(Spread.of(c.rates)) if c.rates else None
               for mode, c in hearts.items()},
        },
        "playouts": [
            {"game": name, "players": players, "mode": mode,
             "options": OPTIONS.get(name, {}), **case.result()}
            for (name, players, mode), case in core.items()
        ],
        "fast": [
            {"game": name, "players": mid_game_players(name),
             "options": OPTIONS.get(name, {}),
             **({"status": "ok", **fast[name].result(),
                 "mid_game_per_300ms": asdict(Spread.of(windows[name]))}
                if name in fast else
                {"status": NO_FAST_PATH, "per_s": None, "ratio": None,
                 "mid_game_per_300ms": None})}
            for name in names
        ],
        "calls_us": calls,
    }


def _mid_or_dealt(name: str) -> Game[Any]:
    """The mid-game state of a game with a fast path, else a state a few actions in."""
    n = mid_game_players(name)
    if knowledge_for(name) is not None:
        return mid_game(name, n)
    game = games.new_game(name, n, OPTIONS.get(name, {}), seed=2024)
    rng = random.Random(2)
    for _ in range(2 * n):
        actions = game.legal_actions()
        if game.over or not actions:
            break
        game.apply(game.to_act, actions[rng.randrange(len(actions))])  # type: ignore[arg-type]
    return game


def print_table(result: dict[str, Any]) -> None:
    m = result["machine"]
    s = result["settings"]
    load = result["load_average"]
    print(f"{m['cpu']}, {m['implementation']} {m['python']}; median (min-max) of {s['runs']} "
          f"rounds of {s['seconds']} s; load average {load['start'][0]:.1f} at the start, "
          f"{load['end'][0]:.1f} at the end")
    ref = result["reference"]
    if ref["available"]:
        print(f"reference OpenSpiel {REFERENCE}: dealt {Spread(**ref['dealt']).text()}/s, "
              f"deal {Spread(**ref['deal']).text()}/s")
    else:
        print(ref["note"])
    print(f"\n{'game':<11}{'players':>8} {'mode':<6}{'playouts/s':>26}{'x Hearts':>20}")
    for row in result["playouts"]:
        ratio = Spread(**row["ratio"]).text(".2f") if row["ratio"] else "-"
        print(f"{row['game']:<11}{row['players']:>8} {row['mode']:<6}"
              f"{Spread(**row['per_s']).text():>26}{ratio:>20}")
    print(f"\nfast path{'':<13}{'dealt playouts/s':>26}{'x Hearts dealt':>20}"
          f"{'per 300 ms mid-game':>26}")
    for row in result["fast"]:
        if row["status"] != "ok":
            print(f"{row['game']:<11}{row['players']:>8}  {row['status']}")
            continue
        ratio = Spread(**row["ratio"]).text(".2f") if row["ratio"] else "-"
        print(f"{row['game']:<11}{row['players']:>8}   {Spread(**row['per_s']).text():>26}"
              f"{ratio:>20}{Spread(**row['mid_game_per_300ms']).text():>26}")
    print("\ncost per call, microseconds (mid-game)")
    for name, costs in result["calls_us"].items():
        parts = ", ".join(f"{k} {Spread(**v).text('.2f')}" for k, v in costs.items())
        print(f"{name:<11}{parts}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, for a smoke test")
    parser.add_argument("--runs", type=int, default=None, help="rounds (default 5; quick 2)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds per case per round (default 0.25; quick 0.02)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    runs = args.runs if args.runs is not None else (2 if args.quick else 5)
    seconds = args.seconds if args.seconds is not None else (0.02 if args.quick else 0.25)
    if runs < 1 or seconds <= 0:
        parser.error("--runs must be at least 1 and --seconds positive")
    result = run(runs, seconds, args.quick)
    print_table(result)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
