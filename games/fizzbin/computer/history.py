"""What a seat can work out from a Fizzbin game's public history.

The history names every discard and every pile a card was taken from, but not the
cards drawn from the stack. Everybody at the table sees when such a card is forced
(it lands face up on the drawer's pile), yet the action ``draw stack`` does not say so,
and that matters: a forced card on top of a pile is what the next ``draw <pile>`` takes.
:func:`infer` therefore replays the hand with each doubtful stack draw left open (a
"maybe" card on the drawer's pile) and settles them against what the seat sees now: the
piles, card for card, and how many cards each player holds. What it yields is what a
watching player knows: the cards each player took from a pile and still holds, how many
special cards each drew from the stack (they drew again), and who took a turn without
touching the stack.

>>> split_hands(["0 draw stack", "0 discard 5C 1"], players=2, hands_done=0)
[[(0, 'draw stack'), (0, 'discard 5C 1')]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.fizzbin.cards import DECK, forced_ranks, special_ranks
from games.fizzbin.game import FizzbinVerb

_CARD_ID = {c.text: i for i, c in enumerate(DECK.cards)}
_RANK = tuple(c.rank for c in DECK.cards)

#: How many replay branches :func:`infer` explores before settling for less.
NODE_LIMIT = 4000

Step = tuple[int, str]  # (actor, action text)


def stack_size(players: int) -> int:
    """The stack's size at the start of a hand: the deck less 6 cards each and 2 more."""
    return len(DECK.cards) - 6 * players - 2


def split_hands(history: Sequence[str], *, players: int, hands_done: int) -> list[list[Step]]:
    """The history cut into hands (the last one is the hand under way, maybe empty).

    A hand ends after the turn that empties the stack: with that player's discard, or
    before the next action by somebody else (or of a new hand, which opens at the stack:
    its piles are empty). ``hands_done`` settles a history that stops right there.
    """
    hands: list[list[Step]] = [[]]
    left = stack_size(players)
    closing: int | None = None  # the player whose turn emptied the stack
    for entry in history:
        actor_text, _, action = entry.partition(" ")
        actor = int(actor_text)
        if closing is not None and (actor != closing or action == "draw stack"):
            hands.append([])
            left, closing = stack_size(players), None
        hands[-1].append((actor, action))
        if action == "draw stack":
            left -= 1
            if left == 0:
                closing = actor
        if closing is not None and action.startswith(FizzbinVerb.DISCARD):
            hands.append([])
            left, closing = stack_size(players), None
    if closing is not None and len(hands) - 1 < hands_done:
        hands.append([])
    return hands


def turns(steps: Sequence[Step]) -> list[tuple[int, list[str]]]:
    """The hand's turns: runs of actions by one player."""
    out: list[tuple[int, list[str]]] = []
    for actor, action in steps:
        if out and out[-1][0] == actor:
            out[-1][1].append(action)
        else:
            out.append((actor, [action]))
    return out


def turn_flags(steps: Sequence[Step], players: int, to_act: int | None
               ) -> tuple[list[bool], bool]:
    """Per player, whether their last finished turn of the hand drew nothing from the
    stack; and whether the turn under way (``to_act``'s, if begun) has drawn from it."""
    pile_turn = [False] * players
    runs = turns(steps)
    drew_now = False
    for i, (actor, actions) in enumerate(runs):
        drew = "draw stack" in actions
        under_way = (i == len(runs) - 1 and actor == to_act
                     and not actions[-1].startswith(FizzbinVerb.DISCARD))
        if under_way:
            drew_now = drew
        else:
            pile_turn[actor] = not drew
    return pile_turn, drew_now


@dataclass(frozen=True, slots=True)
class Inferred:
    """What the public history of the hand under way tells about the players' hands.

    ``known[p]``: cards ``p`` took from a pile and still holds; ``specials[p]``: how many
    special cards ``p`` drew from the stack (they drew again) and surely still holds;
    ``taken``: the cards taken from a pile in the turn under way; ``settled``: whether
    the replay matched the table exactly (else ``known`` holds only what is certain).
    """

    known: tuple[frozenset[int], ...]
    specials: tuple[int, ...]
    taken: frozenset[int]
    settled: bool = True


@dataclass
class _Replay:
    """One branch of the replay: piles of card ids, or negative ids for stack cards
    that may have been forced (``maybe``) or surely were (``real``)."""

    piles: list[list[int]]
    known: list[set[int]]
    specials: list[int]
    taken: set[int]
    drawn: list[int]  # cards each player drew that stayed in their hand (so far)
    discards: list[int]
    forced: list[int]  # draws that were surely forced, per player
    maybe_of: dict[int, int] = field(default_factory=dict)  # maybe token -> its drawer
    real: set[int] = field(default_factory=set)
    next_token: int = -1

    def copy(self) -> _Replay:
        return _Replay([p[:] for p in self.piles], [set(k) for k in self.known],
                       self.specials[:], set(self.taken), self.drawn[:], self.discards[:],
                       self.forced[:], dict(self.maybe_of), set(self.real), self.next_token)


class _Search:
    """The branching replay behind :func:`infer`."""

    def __init__(self, steps: Sequence[Step], *, night: bool, dealt: Sequence[int],
                 piles_now: Sequence[Sequence[int]], sizes_now: Sequence[int]) -> None:
        self.steps = list(steps)
        self.dealt = list(dealt)
        self.piles_now = [list(p) for p in piles_now]
        self.sizes_now = list(sizes_now)
        self.special = special_ranks(night=night)
        self.forced = forced_ranks(night=night)
        named = {_CARD_ID[a.split()[1]] for _, a in steps if a.startswith(FizzbinVerb.DISCARD)}
        self.unnamed = {c for pile in piles_now for c in pile if c not in named}
        self.nodes = 0

    def run(self) -> _Replay | None:
        n = len(self.dealt)
        start = _Replay([[] for _ in range(n)], [set() for _ in range(n)], [0] * n, set(),
                        [0] * n, [0] * n, [0] * n)
        return self._from(0, start)

    def _next(self, i: int) -> Step | None:
        return self.steps[i + 1] if i + 1 < len(self.steps) else None

    def _from(self, i: int, r: _Replay) -> _Replay | None:
        while i < len(self.steps):
            self.nodes += 1
            if self.nodes > NODE_LIMIT:
                return None
            actor, action = self.steps[i]
            nxt = self._next(i)
            continues = nxt is not None and nxt[0] == actor and nxt[1].startswith(FizzbinVerb.DRAW)
            ends_turn = nxt is not None and nxt[0] != actor
            verb, *args = action.split()
            if verb == FizzbinVerb.DISCARD:
                card, target = _CARD_ID[args[0]], int(args[1])
                if card in r.known[actor]:
                    r.known[actor].discard(card)
                elif _RANK[card] in self.special and r.specials[actor]:
                    r.specials[actor] -= 1
                r.piles[target].append(card)
                r.discards[actor] += 1
                r.taken = set()
            elif args[0] == "stack":
                if continues:
                    r.drawn[actor] += 1
                    r.specials[actor] += 1
                else:
                    token = r.next_token
                    r.next_token -= 1
                    r.maybe_of[token] = actor
                    r.piles[actor].append(token)
            else:
                return self._take(i, r, actor, int(args[0]), continues, ends_turn)
            if ends_turn:
                r.taken = set()
            i += 1
        return r if self._settle(r) else None

    def _take(self, i: int, r: _Replay, actor: int, source: int, continues: bool,
              ends_turn: bool) -> _Replay | None:
        """``actor`` takes the top of ``source``'s pile; branch on a maybe-forced top."""
        pile = r.piles[source]
        if not pile:
            return None
        top = pile[-1]
        if top in r.maybe_of:
            # Most stack cards are not forced: try "it never reached the pile" first.
            phantom = r.copy()
            phantom.drawn[phantom.maybe_of.pop(top)] += 1
            phantom.piles[source].pop()
            found = self._take(i, phantom, actor, source, continues, ends_turn)
            if found is not None:
                return found
            r.real.add(top)
            r.forced[r.maybe_of.pop(top)] += 1
            return self._take(i, r, actor, source, continues, ends_turn)
        forced = top in r.real or _RANK[top] in self.forced
        if forced and continues:
            return None  # a forced card ends the drawing
        pile.pop()
        if forced:
            r.piles[actor].append(top)
            r.forced[actor] += 1
        else:
            r.known[actor].add(top)
            r.taken.add(top)
            r.drawn[actor] += 1
        if ends_turn:
            r.taken = set()
        return self._from(i + 1, r)

    def _settle(self, r: _Replay) -> bool:
        """Match the replayed piles to the table, settling the maybes left on them, and
        every player's card count to what they hold now."""
        for q, (pile, now) in enumerate(zip(r.piles, self.piles_now, strict=True)):
            maybes = [t for t in pile if t in r.maybe_of]
            # A maybe on q's pile is q's own stack draw: forced ones left q's hand as big.
            want = (self.dealt[q] + r.drawn[q] + len(maybes) - r.discards[q]
                    - self.sizes_now[q])
            if _align(pile, now, r.real, self.unnamed, want) is None:
                return False
            r.drawn[q] += len(maybes) - want
            for t in maybes:
                del r.maybe_of[t]
        return all(d + k - x == s for d, k, x, s in
                   zip(self.dealt, r.drawn, r.discards, self.sizes_now, strict=True))


def _align(pile: Sequence[int], now: Sequence[int], real: set[int], unnamed: set[int],
           want: int) -> list[int] | None:
    """Which maybe tokens of ``pile`` stand for a card of ``now`` (the pile on the table,
    bottom first), exactly ``want`` of them; None when the two cannot match so."""

    def go(i: int, j: int, left: int) -> list[int] | None:
        if i == len(pile):
            return [] if j == len(now) and left == 0 else None
        item = pile[i]
        fits = j < len(now) and (now[j] == item if item >= 0 else now[j] in unnamed)
        if item >= 0 or item in real:
            return go(i + 1, j + 1, left) if fits else None
        if fits and left > 0:
            rest = go(i + 1, j + 1, left - 1)
            if rest is not None:
                return [item, *rest]
        return go(i + 1, j, left)

    return go(0, 0, want) if want >= 0 else None


def infer(steps: Sequence[Step], *, night: bool, dealt: Sequence[int],
          piles_now: Sequence[Sequence[int]], sizes_now: Sequence[int]) -> Inferred:
    """What the hand's public ``steps`` tell, checked against the table now.

    ``dealt``: each player's cards at the deal (6 or 7); ``piles_now``: the piles, bottom
    first, as card ids; ``sizes_now``: how many cards each player holds now.
    """
    search = _Search(steps, night=night, dealt=dealt, piles_now=piles_now,
                     sizes_now=sizes_now)
    found = search.run()
    n = len(dealt)
    if found is None:
        return Inferred(tuple(frozenset() for _ in range(n)), (0,) * n, frozenset(),
                        settled=False)
    return Inferred(tuple(frozenset(k) for k in found.known), tuple(found.specials),
                    frozenset(found.taken))


__all__ = ["NODE_LIMIT", "Inferred", "infer", "split_hands", "stack_size", "turn_flags",
           "turns"]
