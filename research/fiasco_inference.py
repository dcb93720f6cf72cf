"""How much Fiasco's card-location inference knows about the hidden hands, in bits.

    python -m research.fiasco_inference [--positions 60] [--pool 400] [--seed 0]

Positions come from seeded games of four easy players (the play the inference models):
one per game, a seat to play with at least three plays of the current batch behind it.
At each, a pool of ``--pool`` uniform worlds (the other hands and the stock dealt from
the unseen cards) is weighed by each model of the other players' plays, and the
posterior is read off the weights: for every suit card an opponent really holds, the
chance that opponent holds it, and for every opponent the chance of their real number
of Kings and of Fiascos. The *gain* is the mean of log2(posterior / prior) over those
cards (bits per card) and over the King and Fiasco counts (bits per hand): 0 for a
model that learns nothing, higher for one that puts weight on the true hands. *ESS* is
the pool's effective sample size (the worlds a search draws from, in effect).

Models: ``uniform`` (no weights), ``current`` (:func:`games.fiasco.computer.inference.weight`:
``exp(-gap / 0.15)`` with a 2 % floor), ``softmax`` (the same, normalised over the
hand's cards), ``exact`` (the easy level's own choice: the best score after a uniform
blur of width ``EASY_NOISE`` on each card, with the floor), and ``current T=0.3``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Sequence

from games.fiasco.computer.bits import (
    CARD_ID,
    FIASCO_SHIFT,
    HAND_BIT,
    KING_ID,
    KING_SHIFT,
    hand_int,
)
from games.fiasco.computer.inference import CARELESS, TEMPERATURE, Clue
from games.fiasco.computer.knowledge import Worlds, claims_of
from games.fiasco.computer.thumb import EASY_NOISE, scores
from games.fiasco.game import Fiasco
from games.players import decide, perspective

Rows = Sequence[tuple[int, float, float, float]]


def current(rows: Rows, played: int, temperature: float = TEMPERATURE) -> float:
    best = max(r[1] for r in rows)
    mine = next(r[1] for r in rows if r[0] == played)
    return CARELESS + (1 - CARELESS) * math.exp((mine - best) / temperature)


def softmax(rows: Rows, played: int) -> float:
    best = max(r[1] for r in rows)
    total = sum(math.exp((r[1] - best) / TEMPERATURE) for r in rows)
    mine = next(r[1] for r in rows if r[0] == played)
    return CARELESS / len(rows) + (1 - CARELESS) * math.exp((mine - best) / TEMPERATURE) / total


def exact(rows: Rows, played: int, steps: int = 24) -> float:
    """The chance the easy level plays ``played``: its score plus a blur beats every other's."""
    width = EASY_NOISE
    mine = next(r[1] for r in rows if r[0] == played)
    others = [r[1] for r in rows if r[0] != played]
    total = 0.0
    for k in range(steps):
        u = -width / 2 + (k + 0.5) * width / steps
        chance = 1.0
        for other in others:
            x = (mine - other + u + width / 2) / width
            if x <= 0:
                chance = 0.0
                break
            chance *= min(1.0, x)
        total += chance
    return CARELESS / len(rows) + (1 - CARELESS) * total / steps


MODELS: dict[str, Callable[[Rows, int], float] | None] = {
    "uniform": None, "current": current, "softmax": softmax, "exact": exact,
    "current T=0.3": lambda rows, played: current(rows, played, 0.3),
}


def weights(found: Sequence[Clue], hands: Sequence[Sequence[int]],
            model: Callable[[Rows, int], float] | None) -> list[float]:
    out = []
    for world in hands:
        total = 1.0
        if model is not None:
            for clue in found:
                rows = scores(clue.later + world[clue.seat], clue.pot, clue.top,
                              clue.top_mine, clue.after, clue.coll, clue.collects)
                total *= model(rows, clue.card)
        out.append(total)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--pool", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cards: dict[str, list[float]] = {m: [] for m in MODELS}
    counts: dict[str, list[float]] = {m: [] for m in MODELS}
    sizes: dict[str, list[float]] = {m: [] for m in MODELS}
    index = 0
    while len(cards["uniform"]) < args.positions:
        game = Fiasco.new(4, {}, seed=1000 + args.seed * 10_000 + index)
        rng = random.Random(index)
        index += 1
        while not game.over:
            seat = game.to_act
            assert seat is not None
            p = perspective(game, seat)
            if p.legal[0].verb == "play":
                w = Worlds(p, claims_of(p))
                if len(w.clues) >= 3 and rng.random() < 0.25:
                    own = random.Random(index * 31)
                    pool = [w.uniform(own).hands for _ in range(args.pool)]
                    truth = {q: hand_int(game.hands[q]) for q in range(4) if q != seat}
                    for name, model in MODELS.items():
                        ws = weights(w.clues, pool, model)
                        total = sum(ws)
                        sizes[name].append(total * total / sum(x * x for x in ws))
                        bits, hand_bits = [], []
                        for q, held in truth.items():
                            for card in game.hands[q]:
                                c = CARD_ID[card]
                                if c >= KING_ID:
                                    continue
                                post = sum(x for x, h in zip(ws, pool, strict=True)
                                           if h[q] & HAND_BIT[c]) / total
                                bits.append(math.log2(max(post, 1e-4) * len(w.unseen)
                                                      / w.hidden[q]))
                            for shift in (KING_SHIFT, FIASCO_SHIFT):
                                real = held >> shift & 7
                                post = sum(x for x, h in zip(ws, pool, strict=True)
                                           if h[q] >> shift & 7 == real) / total
                                prior = sum(1 for h in pool if h[q] >> shift & 7 == real)
                                hand_bits.append(math.log2(max(post, 1e-4)
                                                           / max(prior / len(pool), 1e-4)))
                        cards[name].append(statistics.fmean(bits) if bits else 0.0)
                        counts[name].append(statistics.fmean(hand_bits))
                    break
            game.apply(seat, decide("easy", p, random.Random(len(game.history))).action)
    print(f"{args.positions} positions, pools of {args.pool} uniform worlds")
    for name in MODELS:
        se = statistics.stdev(cards[name]) / math.sqrt(len(cards[name]))
        print(f"  {name:<14} suit cards {statistics.fmean(cards[name]):+.4f} bits/card "
              f"(se {se:.4f}); King and Fiasco counts "
              f"{statistics.fmean(counts[name]):+.4f} bits/hand; "
              f"ESS median {statistics.median(sizes[name]):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
