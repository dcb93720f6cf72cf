"""Fiasco on the search fast path: one deal as flat integers, for computer players.

A :class:`FiascoState` plays exactly the rules of :class:`~games.fiasco.game.Fiasco`
(``rules/fiasco.md``) from any state to the **horizon**, the Counting Round of the
current deal: that is where points are scored, and a quick game (the default) ends
there, so nothing beyond it changes what a move is worth. It keeps no events, no
strings and no validation: a move is trusted to be one of :meth:`FiascoState.moves`.

Cards, hands and collections are ints as :mod:`games.fiasco.computer.bits` lays out;
the stock is a tuple shared between copies, with the position of its top, and a
claim (the setup phase) is the move ``CLAIM_BASE + suit index``.

>>> import games
>>> from games.fiasco.computer.fast import from_game
>>> g = games.new_game("fiasco", 3, seed=4)
>>> state = from_game(g)
>>> [str(state.action(m)) for m in state.moves()][:2]
['choose S', 'choose R']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

from games.core.actions import Action
from games.fiasco.cards import FULL_DECK, SUITS, four_suit_deck
from games.fiasco.computer.bits import (
    CARD_BIT,
    CARD_ID,
    CARDS,
    FIASCO_ID,
    HAND_BIT,
    KING_ID,
    RANK,
    collect_mask,
    hand_ids,
    hand_int,
    stack_of,
)
from games.fiasco.computer.thumb import choose
from games.fiasco.deal import HAND_SIZE
from games.fiasco.game import TARGET, Fiasco, FiascoVerb, Phase
from games.fiasco.scoring import ALL_KINGS_BONUS, ALL_SUIT_BONUS, KINGS, SUIT_SIZE

CLAIM_BASE = 44

_CLAIM_ACTIONS = tuple(Action(FiascoVerb.CHOOSE, arg=s) for s in SUITS)
_PLAY_ACTIONS = tuple(Action(FiascoVerb.PLAY, c) for c in CARDS)

CLAIMING, PLAYING, DONE = 0, 1, 2


def score_stack(stack: int, suits: Sequence[int]) -> int:
    """:func:`games.fiasco.scoring.score_collection` of a stack int."""
    per_suit = [0] * 6
    kings = 0
    while stack:
        card = (stack & 63) - 1
        stack >>= 6
        if card == KING_ID:
            kings += 1
        elif card != FIASCO_ID:
            per_suit[card // 7] += 1
    total = ALL_KINGS_BONUS if kings == KINGS else kings
    for s in suits:
        total += ALL_SUIT_BONUS if per_suit[s] == SUIT_SIZE else 2 * per_suit[s]
    return total


def deck_ids(claims: Sequence[Sequence[int]], four: bool) -> list[int]:
    """The round's deck in the rules core's order, as ids (it depends on claims for four)."""
    if not four:
        return [CARD_ID[c] for c in FULL_DECK.cards]
    claimed = [SUITS[s] for claim in claims for s in claim]
    return [CARD_ID[c] for c in four_suit_deck(claimed).cards]


class FiascoState:
    """One Fiasco deal as flat ints; see the module docstring for the encoding.

    Build one with :func:`from_game` (exact) or the knowledge's sampler (a world).
    """

    __slots__ = (
        "claim_order", "claims", "collects", "colls", "deal_first", "extended", "hands",
        "leader", "pending", "pending_perm", "phase", "played", "players", "pos",
        "pot", "scores", "stock", "team_of", "top", "top_count", "top_player", "turn",
    )

    players: int
    hands: list[int]
    stock: tuple[int, ...]
    pos: int
    pot: list[int]
    top: int
    top_player: int
    top_count: int
    played: int
    leader: int
    turn: int
    colls: list[int]
    collects: tuple[int, ...]
    claims: tuple[tuple[int, ...], ...]
    claim_order: tuple[int, ...]
    pending: tuple[int, ...]
    pending_perm: bool
    scores: tuple[int, ...]
    team_of: tuple[int, ...]
    extended: bool
    deal_first: int
    phase: int

    def __init__(
        self,
        *,
        players: int,
        dealer: int,
        scores: Sequence[int],
        teams: bool,
        extended: bool,
        claims: Sequence[Sequence[int]],
    ) -> None:
        """An empty deal (no cards anywhere yet): fill it with :meth:`start_deal` or the
        fields directly."""
        self.players = players
        self.deal_first = (dealer + 1) % players
        self.scores = tuple(scores)
        half = players // 2
        self.team_of = tuple((p % half) if teams else p for p in range(players))
        self.extended = extended
        self.claims = tuple(tuple(c) for c in claims)
        self.collects = tuple(collect_mask(c) for c in self.claims)
        self.claim_order = ()
        self.pending = ()
        self.pending_perm = False
        self.hands = [0] * players
        self.stock = ()
        self.pos = 0
        self.pot = []
        self.colls = [0] * players
        self.top, self.top_player, self.top_count, self.played = -1, -1, 0, 0
        self.leader = self.deal_first
        self.turn = self.leader
        self.phase = PLAYING

    # --- the SearchState protocol ------------------------------------------------

    def to_act(self) -> int:
        return -1 if self.phase == DONE else self.turn

    def done(self) -> bool:
        return self.phase == DONE

    def moves(self) -> Sequence[int]:
        if self.phase == PLAYING:
            return hand_ids(self.hands[self.turn])
        if self.phase == DONE:
            return ()
        taken = {s for claim in self.claims for s in claim}
        return tuple(CLAIM_BASE + s for s in range(6) if s not in taken)

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.hands = self.hands[:]
        new.stock = self.stock
        new.pos = self.pos
        new.pot = self.pot[:]
        new.top = self.top
        new.top_player = self.top_player
        new.top_count = self.top_count
        new.played = self.played
        new.leader = self.leader
        new.turn = self.turn
        new.colls = self.colls[:]
        new.collects = self.collects
        new.claims = self.claims
        new.claim_order = self.claim_order
        new.pending = self.pending
        new.pending_perm = self.pending_perm
        new.scores = self.scores
        new.team_of = self.team_of
        new.extended = self.extended
        new.deal_first = self.deal_first
        new.phase = self.phase
        return new

    def play(self, move: int) -> None:
        if move >= CLAIM_BASE:
            self._claim(move - CLAIM_BASE)
            return
        p = self.turn
        self.hands[p] -= HAND_BIT[move]
        self.pot.append(move)
        rank = RANK[move]
        if rank > self.top:
            self.top, self.top_player, self.top_count = rank, p, 1
        elif rank == self.top:
            self.top_count += 1
        self.played += 1
        if self.played < self.players:
            self.turn = p + 1 if p + 1 < self.players else 0
            return
        if self.top_count == 1:
            self._take_pot(self.top_player)
        self.top, self.top_player, self.top_count, self.played = -1, -1, 0, 0
        self.turn = self.leader
        if self.hands[p] == 0:  # every hand is the same size at the end of a trick
            self._hands_empty()

    def values(self) -> list[float]:
        return values_of(self.totals(), self.team_of, over=self.game_over())

    def rollout_move(self, rng: random.Random) -> int:
        if self.phase != PLAYING:
            return self.moves()[0]
        p = self.turn
        return choose(
            hand=self.hands[p],
            pot=self.pot,
            top=self.top,
            top_mine=self.top_player >= 0 and self.team_of[self.top_player] == self.team_of[p],
            after=self.players - self.played - 1,
            coll=self.colls[p],
            collects=self.collects[p],
            rng=rng,
        )

    def action(self, move: int) -> Action:
        if move >= CLAIM_BASE:
            return _CLAIM_ACTIONS[move - CLAIM_BASE]
        return _PLAY_ACTIONS[move]

    def move(self, action: Action) -> int:
        if action.verb == FiascoVerb.CHOOSE:
            return CLAIM_BASE + SUITS.index(action.arg or "")
        assert action.card is not None
        return CARD_ID[action.card]

    # --- the horizon -------------------------------------------------------------

    def round_points(self) -> list[int]:
        """Each player's points in this deal's collection as it stands (the Counting
        Round's, once :meth:`done`)."""
        return [score_stack(self.colls[p], self.claims[p]) for p in range(self.players)]

    def totals(self) -> list[int]:
        """The totals that decide the game (per team with teams), this deal included."""
        out = [0] * (max(self.team_of) + 1)
        for p, points in enumerate(self.round_points()):
            out[self.team_of[p]] += self.scores[p] + points
        return out

    def game_over(self) -> bool:
        """Whether the game ends at this deal's Counting Round (once :meth:`done`)."""
        return self.phase == DONE and (not self.extended or max(self.totals()) >= TARGET)

    def set_round(self, plays: Sequence[tuple[int, int]]) -> None:
        """Record the pot's current round so far, (seat, card id) in play order: its
        best rank, who holds it and how many share it."""
        self.top, self.top_player, self.top_count, self.played = -1, -1, 0, len(plays)
        for seat, card in plays:
            rank = RANK[card]
            if rank > self.top:
                self.top, self.top_player, self.top_count = rank, seat, 1
            elif rank == self.top:
                self.top_count += 1

    # --- the rules ---------------------------------------------------------------

    def _claim(self, suit: int) -> None:
        p = self.turn
        claims = list(self.claims)
        claims[p] = (*claims[p], suit)
        self.claims = tuple(claims)
        made = sum(len(c) for c in claims)
        if made < len(self.claim_order):
            self.turn = self.claim_order[made]
            return
        self.collects = tuple(collect_mask(c) for c in self.claims)
        if self.pending_perm:
            deck = deck_ids(self.claims, four=True)
            cards = [deck[i] for i in self.pending]
        else:
            cards = list(self.pending)
        self.start_deal(cards)

    def start_deal(self, cards: Sequence[int]) -> None:
        """Deal ``cards`` (in shuffled order) as the rules core does: six each, one at a
        time from the dealer's left; the rest is the stock."""
        self.stock = tuple(cards)
        self.pos = 0
        self.hands = [0] * self.players
        self.phase = PLAYING
        self.leader = self.turn = self.deal_first
        self._deal(HAND_SIZE)

    def _deal(self, count: int) -> None:
        n, first, stock, pos = self.players, self.deal_first, self.stock, self.pos
        for i in range(count * n):
            self.hands[(first + i) % n] += HAND_BIT[stock[pos + i]]
        self.pos = pos + count * n

    def _take_pot(self, winner: int) -> None:
        collects = self.collects[winner]
        stack = self.colls[winner]
        for card in self.pot:
            if CARD_BIT[card] & collects:
                stack = (stack << 6) | (card + 1)
        self.colls[winner] = stack >> (6 * self.pot.count(FIASCO_ID))
        self.pot = []
        self.leader = winner

    def _hands_empty(self) -> None:
        left = len(self.stock) - self.pos
        if left >= self.players:
            self._deal(min(HAND_SIZE, left // self.players))
            return
        self.pot = []  # a tie nobody can re-play is swept to the waste
        self.phase = DONE
        self.turn = -1


def values_of(totals: Sequence[int], team_of: Sequence[int], *, over: bool) -> list[float]:
    """Per seat in [0, 1]: mostly the win (a shared win split), partly the margin.

    The win is what the game rewards; the margin over the best other total (scaled
    by 20 points, about a good deal's haul) breaks the many ties between rollouts
    that all win or all lose. Before the game is over only the margin counts,
    scaled by the 42 points the extended game plays to.
    """
    best = max(totals)
    sharing = sum(1 for t in totals if t == best)
    out = []
    for team in team_of:
        mine = totals[team]
        others = [t for i, t in enumerate(totals) if i != team]
        gap = mine - max(others) if others else 0
        if not over:
            out.append(min(1.0, max(0.0, 0.5 + gap / (2 * TARGET))))
            continue
        margin = min(1.0, max(0.0, 0.5 + gap / 40))
        win = 1.0 / sharing if mine == best else 0.0
        out.append(0.75 * win + 0.25 * margin)
    return out


def from_game(game: Fiasco) -> FiascoState:
    """The exact state of ``game`` on the fast path, to its current deal's horizon.

    In the claiming phase the coming deal is taken from the game itself (its own next
    deal, or the permutation its generator will shuffle the deck with), so this is for
    tests and measurements only: no computer player may call it.
    """
    claims = [[SUITS.index(s) for s in claim] for claim in game.claims]
    state = FiascoState(
        players=game.players, dealer=game.dealer, scores=game.scores,
        teams=game.options.teams, extended=game.options.length == "extended", claims=claims,
    )
    if game.game_phase is Phase.OVER:
        state.phase = DONE
        state.turn = -1
        return state
    if game.game_phase is Phase.CLAIMING:
        _claiming_from_game(state, game)
        return state
    state.hands = [hand_int(h) for h in game.hands]
    state.stock = tuple(CARD_ID[c] for c in game.stock)
    state.pot = [CARD_ID[c] for _, c in game.pot]
    state.colls = [stack_of(c) for c in game.collections]
    state.leader = game.leader
    assert game.to_act is not None
    state.turn = game.to_act
    state.set_round([(p, CARD_ID[c]) for p, c in game.current])
    return state


def _claiming_from_game(state: FiascoState, game: Fiasco) -> None:
    """Fill ``state`` with ``game``'s claims so far and the deal that will follow them."""
    assert game.to_act is not None
    state.phase = CLAIMING
    state.turn = game.to_act
    state.claim_order = tuple(game.claim_order)
    index = len(game.deals_played)
    explicit: list[Any] = game._explicit_deals  # the record's own deals, still to come
    if index < len(explicit):
        deal = explicit[index]
        n = game.players
        cards = [deal.hands[(state.deal_first + i) % n][i // n] for i in range(HAND_SIZE * n)]
        state.pending = tuple(CARD_ID[c] for c in [*cards, *deal.stock])
        return
    rng = random.Random()
    rng.setstate(game.require_rng("the next deal").getstate())
    four = game.options.suits == "four"
    perm = list(range(40 if four else len(FULL_DECK)))
    rng.shuffle(perm)
    set_pending(state, perm, four=four)


def set_pending(state: FiascoState, perm: Sequence[int], *, four: bool) -> None:
    """Make the deal after the claims the deck in the order ``perm`` (positions in the
    rules core's deck order, as ``Deck.shuffled`` permutes it). With ``suits: four``
    the deck is known only once the claims are, so the permutation waits for them."""
    if four:
        state.pending = tuple(perm)
        state.pending_perm = True
        return
    deck = deck_ids((), four=False)
    state.pending = tuple(deck[i] for i in perm)
    state.pending_perm = False


__all__ = ["CLAIM_BASE", "FiascoState", "from_game", "set_pending", "values_of"]
