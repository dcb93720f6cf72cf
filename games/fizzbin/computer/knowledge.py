"""What Fizzbin teaches its computer players: rules of thumb, a world sampler, hints.

A seat sees its own cards, the face-up cards, every pile card for card, and how many
cards each player holds and the stack has left. From the public history it also knows
which pile cards each player took and still holds, and that a player who drew again
after a stack card drew a special one (:mod:`games.fizzbin.computer.history`). Nothing in
Fizzbin's notation names a hidden card (``draw stack`` does not say which; discards are
face up), so :meth:`FizzbinKnowledge.redact` changes nothing.

The easy level and the search's rollouts share :mod:`games.fizzbin.computer.thumb`; the
search state is :class:`games.fizzbin.computer.fast.FastFizzbin`, whose horizon is the end of
the hand under way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.core.actions import Action
from games.core.game import Game, View
from games.fizzbin.cards import special_ranks
from games.fizzbin.computer.fast import (
    CARD_ID,
    DISCARD,
    DRAW,
    DRAW_AGAIN,
    RANK,
    FastFizzbin,
    action_move,
    move_action,
)
from games.fizzbin.computer.history import Inferred, infer, split_hands, turn_flags
from games.fizzbin.computer.thumb import tactics_for
from games.fizzbin.deal import BIG_HAND
from games.fizzbin.game import FizzbinVerb
from games.players.base import Decision, Perspective, register_knowledge

#: Simulated moves per hard decision. 26,000 since the search got faster (issue 13): about
#: the CPU time that 20,000 took before (median 112 ms of one core, p99 285 ms, against
#: 123 / 158 ms for 20,000 before, on the loaded 2-core machine). Its strength and
#: decision times today: ``docs/computer-players.md``.
BUDGET = 26_000
#: The reason given when the rules of thumb misread the table (tests make sure they never do).
PLAYS_SAFE = "plays safe"
#: The share of the easy level's decisions that make a beginner's mistake.
SLIP = 0.12


@dataclass(frozen=True, slots=True)
class Table:
    """A perspective read into integer cards: what the seat sees and has worked out."""

    seat: int
    players: int
    night: bool
    holding: tuple[int, ...]  # the seat's own cards, face-up one included
    face_up: tuple[tuple[int, ...], ...]
    hidden_counts: tuple[int, ...]  # face-down cards per player
    piles: tuple[tuple[int, ...], ...]  # bottom first
    stack: int
    after: tuple[int, ...]  # the player on each player's right (the next to play)
    step: int
    taken: int
    pile_turn: tuple[bool, ...]
    drew_stack: bool
    inferred: Inferred


_last: list[tuple[Perspective, Table]] = []


def read_table(p: Perspective) -> Table:
    """Everything :class:`FizzbinKnowledge` needs from ``p``, as integers. The last one
    is kept: a search samples many worlds from one (immutable) perspective."""
    if _last and _last[0][0] is p:
        return _last[0][1]
    table = _read_table(p)
    _last[:] = [(p, table)]
    return table


def _read_table(p: Perspective) -> Table:
    view, n, seat = p.view, p.players, p.seat
    night = dict(view.facts).get("Time") == "night"
    seat_of = [_seat_number(note) for note in view.seat_notes]
    player_at = {s: q for q, s in enumerate(seat_of)}
    after = tuple(player_at[(seat_of[q] - 1) % n] for q in range(n))
    face_up = tuple(_ids(view, f"face_up:{q}") for q in range(n))
    holding = _ids(view, f"hand:{seat}") + face_up[seat]
    piles = tuple(tuple(reversed(_ids(view, f"pile:{q}"))) for q in range(n))
    hidden = tuple(view.zone(f"hand:{q}").count for q in range(n))
    steps = split_hands(p.history, players=n, hands_done=len(p.rounds))[-1]
    dealer, left = player_at[p.dealer], player_at[(p.dealer + 1) % n]
    dealt = [BIG_HAND if q in (dealer, left) else BIG_HAND - 1 for q in range(n)]
    inferred = infer(steps, night=night, dealt=dealt, piles_now=piles,
                     sizes_now=[hidden[q] + len(face_up[q]) for q in range(n)])
    pile_turn, drew_stack = turn_flags(steps, n, seat)
    step, taken = _step(p, holding, steps)
    return Table(seat, n, night, holding, face_up, hidden, piles,
                 view.zone("stack").count, after, step, taken, tuple(pile_turn), drew_stack,
                 inferred)


def _seat_number(note: str) -> int:
    """The seat (from 0) in a seat note, which counts from 1 ("seat 2" or "seat 2, dealer");
    the view's seat notes are the only place a perspective learns who sits where."""
    return int(note.split(",")[0].split()[1]) - 1


def _ids(view: View, zone: str) -> tuple[int, ...]:
    cards = view.zone(zone).cards
    return tuple(CARD_ID[c] for c in cards) if cards is not None else ()


def _step(p: Perspective, holding: Sequence[int], steps: Sequence[tuple[int, str]]
          ) -> tuple[int, int]:
    """Where the seat is in its turn, and the cards it took from a pile this turn (the
    ones it holds but may not discard), read off its legal actions."""
    draws = any(a.verb == FizzbinVerb.DRAW for a in p.legal)
    free = {CARD_ID[a.card] for a in p.legal if a.card is not None}
    mid_turn = bool(steps) and steps[-1][0] == p.seat and steps[-1][1].startswith(FizzbinVerb.DRAW)
    if free:
        step = DRAW_AGAIN if draws else DISCARD
    else:
        step = DRAW_AGAIN if mid_turn else DRAW
    taken = 0
    if step != DRAW:
        for c in holding:
            if c not in free:
                taken |= 1 << c
    return step, taken


def world(t: Table, rng: random.Random) -> FastFizzbin:
    """A full deal consistent with ``t``, the unseen cards dealt from ``rng`` in a
    canonical order (sorted first)."""
    n, seat = t.players, t.seat
    seen = set(t.holding) | {c for f in t.face_up for c in f} | {c for p in t.piles for c in p}
    known: list[list[int]] = []
    for q in range(n):
        mine = [] if q == seat else sorted(c for c in t.inferred.known[q] if c not in seen)
        known.append(mine[:t.hidden_counts[q]])
        seen.update(mine)
    unseen = [c for c in range(len(RANK)) if c not in seen]
    rng.shuffle(unseen)
    need = [0 if q == seat else t.hidden_counts[q] - len(known[q]) for q in range(n)]
    # A player who drew again after a stack card holds that special card (unless it
    # left as a discard since): deal them special cards first.
    special = special_ranks(night=t.night)
    for q in range(n):
        wanted = min(t.inferred.specials[q], need[q]) if q != seat else 0
        for c in [c for c in unseen if RANK[c] in special][:wanted]:
            unseen.remove(c)
            known[q].append(c)
            need[q] -= 1
    holding: list[list[int]] = []
    for q in range(n):
        if q == seat:
            holding.append(list(t.holding))
            continue
        dealt, unseen = unseen[:need[q]], unseen[need[q]:]
        holding.append(sorted(known[q] + dealt) + list(t.face_up[q]))
    stack = unseen[:t.stack]
    return FastFizzbin(night=t.night, holding=holding, piles=[list(p) for p in t.piles],
                       stack=stack, to_act=seat, after=t.after, step=t.step, taken=t.taken,
                       pile_turn=t.pile_turn, drew_stack=t.drew_stack, turns=n + 1)


class FizzbinKnowledge:
    """Fizzbin's :class:`~games.players.base.Knowledge`."""

    game = "fizzbin"

    def redact(self, seat: int, actor: int, action: str) -> str:
        """Unchanged: a stack draw does not name its card and discards are face up."""
        return action

    def sample(self, p: Perspective, rng: random.Random) -> FastFizzbin:
        return world(read_table(p), rng)

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        t = read_table(p)
        plan = tactics_for(t.night).plan(
            t.holding, t.piles, me=t.seat, step=t.step, taken=t.taken,
            pile_turn=t.pile_turn[t.seat], stack=t.stack > 0, rng=rng, slip=SLIP)
        action = move_action(plan.move)
        if action not in p.legal:  # a misread table (a bug): still never play illegally
            return Decision(p.legal[0], PLAYS_SAFE)
        return Decision(action, plan.reason)

    def why(self, p: Perspective, action: Action) -> str:
        t = read_table(p)
        return tactics_for(t.night).reason(action_move(action), t.holding, t.piles, me=t.seat,
                                           step=t.step, pile_turn=t.pile_turn[t.seat])

    def from_game(self, game: Game[Any]) -> FastFizzbin:
        return FastFizzbin.from_game(game)


KNOWLEDGE = register_knowledge(FizzbinKnowledge())

__all__ = ["BUDGET", "KNOWLEDGE", "FizzbinKnowledge", "Table", "read_table", "world"]
