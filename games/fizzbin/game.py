"""Fizzbin as this project plays it (``rules/fizzbin.md``)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from functools import cache
from typing import Any, NamedTuple, Self

from games.core.actions import STACK, Action, Param, Verb
from games.core.cards import Card, standard_card_label, standard_card_name
from games.core.events import Event
from games.core.game import GAME_OVER, Game
from games.core.outcome import best_of
from games.core.registry import register
from games.core.zones import Visibility, Zone, ZoneKind
from games.fizzbin.cards import DECK, RANK_NAMES, SUITS, is_forced, is_special, special_ranks
from games.fizzbin.deal import (
    BIG_HAND,
    FACE_UP_INDEX,
    FizzbinDeal,
    check_big_hands,
    parse_deal,
    shuffle_deal,
)
from games.fizzbin.options import FizzbinOptions
from games.fizzbin.rules_text import SCORING, SUMMARY
from games.fizzbin.scoring import HandRank, judge, rank_hand
from games.fizzbin.seating import Seating


class FizzbinVerb(Verb):
    """Fizzbin's verbs: draw from the stack or a pile, then discard onto a pile."""

    DRAW = "draw"
    DISCARD = "discard"


class HandResult(NamedTuple):
    """How one hand ended: its winner and loser (None when there is none) and each
    player's rank. A tuple, not the dict the replay writes (:meth:`as_json`): a
    15-hand match keeps fifteen of them."""

    winner: int | None
    loser: int | None
    ranks: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "loser": self.loser, "ranks": list(self.ranks)}


class Step(Enum):
    """Where the player to act is in their turn."""

    DRAW = "draw"  # the turn's first draw
    DRAW_AGAIN = "draw again"  # a special card was drawn: draw again or discard
    DISCARD = "discard"  # drawing is over
    OVER = "over"


@cache
def _draws(players: int) -> tuple[Action, ...]:
    """``draw stack`` then ``draw <p>`` for every pile (shared, immutable)."""
    return (Action(FizzbinVerb.DRAW, arg=STACK),
            *(Action(FizzbinVerb.DRAW, arg=str(p)) for p in range(players)))


@cache
def _discards(players: int) -> dict[Card, tuple[Action, ...]]:
    """For every card, ``discard <card> <p>`` onto each pile (shared, immutable)."""
    return {c: tuple(Action(FizzbinVerb.DISCARD, c, str(p)) for p in range(players))
            for c in DECK.cards}


# How :meth:`Fizzbin.clone` treats each attribute (any other one is deep-copied).
_SHARED = frozenset({"options", "is_night", "grammar", "_explicit_deals", "seed",
                     "players", "first_dealer", "dealer", "night", "step", "outcome",
                     "to_act", "opening_events"})
_FLAT_LISTS = frozenset({"stack", "taken", "drawn", "results", "deals_played", "scores",
                         "rounds", "tricks", "history"})
_NESTED_LISTS = frozenset({"hands", "face_up", "piles"})


@register
class Fizzbin(Game[FizzbinDeal, FizzbinOptions]):
    """Draw, discard, and hold the best hand when the stack runs out."""

    name = "fizzbin"
    title = "Fizzbin"
    min_players = 2
    max_players = 6
    options_model = FizzbinOptions
    summary = SUMMARY
    scoring = SCORING
    goal = "Draw and discard toward a Fizzbin; most points after the last hand wins."
    pitch = ("Draw from the stack or anyone's pile toward "
             "a Fizzbin, where day and night change the cards.")
    verbs = {FizzbinVerb.DRAW: (Param.SOURCE,), FizzbinVerb.DISCARD: (Param.CARD, Param.PLAYER)}
    full_deck = DECK
    suit_letters = SUITS

    def __init__(
        self,
        players: int,
        options: FizzbinOptions,
        *,
        is_night: Callable[[], bool] | None = None,
        **kwargs: Any,
    ) -> None:
        self.is_night = is_night
        super().__init__(players, options, **kwargs)
        # ``self.dealer`` is the dealer's seat; turn order is by seats, all else by player.
        self.seating = Seating(players)
        self.night = False
        self.step = Step.DRAW
        self.hands: list[list[Card]] = [[] for _ in range(players)]  # face-down part
        self.face_up: list[list[Card]] = [[] for _ in range(players)]  # 0 or 1 card
        # Kept top card last, so that a draw is a pop; every reader outside the rules
        # sees them top first (zones(), pile_top), as every pile and stock is read.
        self.piles: list[list[Card]] = [[] for _ in range(players)]
        self.stack: list[Card] = []
        self.taken: list[Card] = []  # taken from a pile this turn: not this turn's discard
        self.drawn: list[Card] = []  # drawn from the stack this turn: only the drawer knows
        self.results: list[HandResult] = []
        self.opening_events = self._start_hand()

    # --- setup -----------------------------------------------------------------

    def _parse_deal(self, raw: Mapping[str, Any], where: str) -> FizzbinDeal:
        return parse_deal(raw, where, players=self.players, time=self.options.time)

    def _shuffle_deal(self, rng: random.Random) -> FizzbinDeal:
        return shuffle_deal(rng, self.seating, self.dealer)

    def _night_for(self, deal: FizzbinDeal) -> bool:
        if deal.night is not None:
            return deal.night
        if self.options.time == "clock":
            return bool(self.is_night()) if self.is_night is not None else False
        return self.options.time == "night"

    def clone(self) -> Self:
        """An independent copy, written out by hand: deep-copying is slow, most of all the
        generator's state, which is copied only when there is one. Cards, actions, the
        options, the grammar, the clock and every finished record entry (past deals, hand
        results, rounds, events) are immutable or never changed again, and are shared."""
        fields: dict[str, Any] = {}
        for name, value in vars(self).items():
            if name in _SHARED:
                fields[name] = value
            elif name in _FLAT_LISTS:
                fields[name] = value.copy()  # a list, or the ActionLog
            elif name in _NESTED_LISTS:
                fields[name] = [list(inner) for inner in value]
            elif name not in ("seating", "rng"):
                fields[name] = copy.deepcopy(value)  # one a later change adds: safe, if slow
        fields["seating"] = self.seating.copy()
        fields["rng"] = None
        if self.rng is not None:
            fields["rng"] = random.Random(0)  # seeding from an int is cheap; then overwritten
            fields["rng"].setstate(self.rng.getstate())
        new = object.__new__(type(self))
        vars(new).update(fields)
        return new

    def _start_hand(self) -> list[Event]:
        seating, n = self.seating, self.players
        left_seat = seating.left_of(self.dealer)
        dealer, left = seating.player_at(self.dealer), seating.player_at(left_seat)
        deal = self.next_deal()
        check_big_hands(deal, f"deal {len(self.deals_played)}", dealer=dealer, left=left)
        self.night = self._night_for(deal)
        self.deals_played.replace_last({**deal.to_json(), "night": self.night})
        self.hands = [list(h) for h in deal.hands]
        self.face_up = [
            [h.pop(FACE_UP_INDEX)] if len(h) == BIG_HAND else [] for h in self.hands
        ]
        self.piles = [[] for _ in range(n)]
        self.stack = list(reversed(deal.stack))
        self.taken = []
        self.drawn = []
        self.step = Step.DRAW
        self.to_act = left
        shown = " and ".join(
            f"{{{i}}}'s {self.card_label(self.face_up[p][0])}" for i, p in enumerate((left, dealer))
            if self.face_up[p]
        )
        return [Event(
            "deal",
            f"hand {len(self.results) + 1}, by {self._time_word()}: {{1}} deals; "
            f"{shown} face up; {{0}} plays first",
            (left, dealer),
        )]

    # --- play ------------------------------------------------------------------

    def _legal(self, player: int) -> list[Action]:
        if self.step is Step.DRAW:
            return self._draw_actions()
        if self.step is Step.DRAW_AGAIN:
            return self._draw_actions() + self._discard_actions(player)
        if self.step is Step.DISCARD:
            return self._discard_actions(player)
        return []

    def _draw_actions(self) -> list[Action]:
        draws = _draws(self.players)
        out = [draws[0]] if self.stack else []
        out += [draws[p + 1] for p, pile in enumerate(self.piles) if pile]
        return out

    def _discard_actions(self, player: int) -> list[Action]:
        table = _discards(self.players)
        return [a for c in self.holding(player) if c not in self.taken for a in table[c]]

    def holding(self, player: int) -> list[Card]:
        """Every card in ``player``'s hand, the face-up one included."""
        return self.hands[player] + self.face_up[player]

    def _why_illegal(self, player: int, action: Action) -> str:
        if action.verb == FizzbinVerb.DRAW and action.card is None:
            if self.step is Step.DISCARD:
                return "your drawing is over: discard a card"
            return "the stack is empty" if action.arg == STACK else "that pile is empty"
        if action.verb == FizzbinVerb.DISCARD and action.card is not None:
            if self.step is Step.DRAW:
                return "draw a card first"
            card = self.card_label(action.card)
            if action.card not in self.holding(player):
                return f"you do not hold {card}"
            if action.card in self.taken:
                return f"{card} was taken from a pile this turn and may not be discarded now"
        return "that is not a move of this turn"

    card_label = staticmethod(standard_card_label)
    card_name = staticmethod(standard_card_name)

    def action_label(self, action: Action, names: Sequence[str] = ()) -> str:
        if action.verb == FizzbinVerb.DRAW:
            if action.arg == STACK:
                return "Draw from the stack"
            top = self.pile_top(action.player_arg)
            shown = f" {self.card_label(top)}" if top is not None else ""
            return f"Take{shown} from {self._pile_name(action.player_arg, names)}"
        assert action.card is not None
        return (f"Discard {self.card_label(action.card)} onto "
                f"{self._pile_name(action.player_arg, names)}")

    def pile_top(self, owner: int) -> Card | None:
        """The card ``draw <owner>`` takes: the top of ``owner``'s pile (None if empty)."""
        return self._pile_zone(owner).top

    def _pile_zone(self, owner: int) -> Zone:
        """``owner``'s pile as every reader sees it: top first."""
        return Zone(f"pile:{owner}", ZoneKind.PILE, self.piles[owner][::-1], Visibility.PUBLIC,
                    owner)

    def _pile_name(self, owner: int, names: Sequence[str]) -> str:
        if owner == self.to_act:
            return "your pile"
        return f"{names[owner]}'s pile" if owner < len(names) else f"player {owner + 1}'s pile"

    def _do(self, player: int, action: Action) -> list[Event]:
        if action.verb == FizzbinVerb.DRAW:
            return self._draw(player, action.arg or STACK)
        assert action.card is not None
        return self._discard(player, action.card, action.player_arg)

    def _draw(self, player: int, source: str) -> list[Event]:
        if source == STACK:
            card = self.stack.pop()
            where = "the stack"
            players: tuple[int, ...] = (player,)
        else:
            owner = int(source)
            card = self.piles[owner].pop()
            where = "their own pile" if owner == player else "{1}'s pile"
            players = (player, owner)
        if is_forced(card, night=self.night):
            self.piles[player].append(card)
            self.step = Step.DISCARD
            events = [Event("forced", f"{{0}} draws {self.card_label(card)} from {where}: "
                                      "forced, it goes onto "
                                      "their own pile", players)]
            return events + self._after_draw(player)
        self.hands[player].append(card)
        special = is_special(card, night=self.night)
        self.step = Step.DRAW_AGAIN if special else Step.DISCARD
        if source == STACK:
            what = "a special card" if special else "a card"
            self.drawn.append(card)
        else:
            self.taken.append(card)
            what = self.card_label(card) + (" (special)" if special else "")
        again = " and may draw again" if special else ""
        events = [Event("draw", f"{{0}} draws {what} from {where}{again}", players)]
        return events + self._after_draw(player)

    def _after_draw(self, player: int) -> list[Event]:
        """End the turn at once when the player may neither discard nor draw again."""
        if any(c not in self.taken for c in self.holding(player)):
            return []
        if self.step is Step.DRAW_AGAIN and self._draw_actions():
            return []
        event = Event("skip", "{0} holds no card they may discard; the turn ends", (player,))
        return [event, *self._end_turn(player)]

    def _discard(self, player: int, card: Card, target: int) -> list[Event]:
        if card in self.face_up[player]:
            self.face_up[player].remove(card)
        else:
            self.hands[player].remove(card)
        self.piles[target].append(card)
        where = "their own pile" if target == player else "{1}'s pile"
        event = Event("discard", f"{{0}} discards {self.card_label(card)} onto {where}",
                      (player, target))
        return [event, *self._end_turn(player)]

    def _end_turn(self, player: int) -> list[Event]:
        self.taken = []
        self.drawn = []
        if not self.stack:
            return self._end_hand()
        self.step = Step.DRAW
        self.to_act = self.seating.player_at(self.seating.right_of(self.seating.seat_of(player)))
        return []

    # --- the end of a hand -----------------------------------------------------

    def _end_hand(self) -> list[Event]:
        n = self.players
        ranks = [rank_hand(self.holding(p), night=self.night) for p in range(n)]
        winner, loser = judge(ranks)
        self.results.append(HandResult(winner, loser, tuple(r.value for r in ranks)))
        gained = [1 if p == winner else 0 for p in range(n)]
        self.rounds.append(gained)
        self.scores = [s + g for s, g in zip(self.scores, gained, strict=True)]
        events = [
            Event("show", f"{{0}} shows "
                          f"{self.cards_label(self.sorted_hand(self.holding(p))) or 'no cards'}: "
                          f"{ranks[p].title}", (p,))
            for p in range(n)
        ]
        events.append(_result_event(winner, loser, ranks))
        if len(self.results) == self.options.hands:
            self.step = Step.OVER
            winners = best_of(self.scores)
            self.finish(winners)
            return [*events, _end_event(winners)]
        if winner is not None:
            events += self._move(winner, loser)
        return events + self._start_hand()

    def _move(self, winner: int, loser: int | None) -> list[Event]:
        """The winner deals next; the loser takes the seat on the winner's left."""
        self.dealer = self.seating.seat_of(winner)
        if loser is None:
            return []
        other = self.seating.player_at(self.seating.left_of(self.dealer))
        if other == loser:
            return []
        self.seating.swap(loser, other)
        return [Event("swap", "{0} swaps seats with {1}", (loser, other))]

    # --- views -----------------------------------------------------------------

    def result_fields(self) -> dict[str, Any]:
        return {"hands": [r.as_json() for r in self.results]}

    def zones(self) -> list[Zone]:
        zones: list[Zone] = []
        for p in range(self.players):
            zones.append(Zone(f"hand:{p}", ZoneKind.HAND, self.hands[p], Visibility.OWNER, p))
            zones.append(Zone(f"face_up:{p}", ZoneKind.FACE_UP, self.face_up[p],
                              Visibility.PUBLIC, p))
            zones.append(self._pile_zone(p))
        zones.append(Zone("stack", ZoneKind.STOCK, self.stack[::-1], Visibility.NOBODY))
        return zones

    def current_trick(self) -> list[tuple[int, Card]]:
        return []

    def _time_word(self) -> str:
        return "night" if self.night else "day"

    def phase(self) -> str:
        if self.step is Step.OVER:
            return "game over"
        doing = {Step.DRAW: "drawing", Step.DRAW_AGAIN: "may draw again",
                 Step.DISCARD: "discarding"}[self.step]
        return f"hand {len(self.results) + 1} of {self.options.hands}, {doing}"

    def facts(self) -> list[tuple[str, str]]:
        special = sorted(special_ranks(night=self.night), reverse=True)
        forced = sorted(special_ranks(night=not self.night), reverse=True)
        return [
            ("Time", self._time_word()),
            ("Special", " and ".join(RANK_NAMES[r] for r in special)),
            ("Forced", " and ".join(RANK_NAMES[r] for r in forced)),
        ]

    def rules_ask(self, player: int) -> str:
        """Draw (again after a special card), then discard one card onto any pile."""
        if self.over:
            return GAME_OVER
        special = [RANK_NAMES[r] for r in sorted(special_ranks(night=self.night), reverse=True)]
        if self.to_act != player:
            return (f"wait for your turn: draw, then discard one card; {' and '.join(special)} "
                    f"are special by {self._time_word()}")
        if self.step is Step.DRAW:
            return (f"draw from the stack or take a pile's top card; a special card "
                    f"({' and '.join(special)} by {self._time_word()}) lets you draw again")
        if self.step is Step.DRAW_AGAIN:
            return "you drew a special card: draw again, or discard one card to end your turn"
        taken = " ".join(map(self.card_label, self.taken))
        kept = f" (not {taken}: taken from a pile this turn)" if taken else ""
        return f"discard one card onto any pile{kept}"

    def hand_notes(self, player: int) -> list[str]:
        """The cards the player drew from the stack this turn (the table says only "a
        card"), the special cards they hold, and the Fizzbin hand they hold now."""
        notes = []
        if self.to_act == player and self.drawn:
            notes.append(f"You drew {' and '.join(map(self.card_label, self.drawn))}.")
        special = [c for c in self.sorted_hand(self.holding(player))
                   if is_special(c, night=self.night)]
        if special:
            notes.append(f"Special by {self._time_word()}: {self.cards_label(special)}.")
        rank = rank_hand(self.holding(player), night=self.night)
        notes.append(_holding_words(rank))
        return notes

    def seat_notes(self) -> list[str]:
        """Per player (not per seat): their seat now, and who deals."""
        notes = []
        for p in range(self.players):
            seat = self.seating.seat_of(p)
            # Seats counted from 1, as people count them.
            notes.append(f"seat {seat + 1}, dealer" if seat == self.dealer else f"seat {seat + 1}")
        return notes

    def dealer_player(self) -> int:
        """The player dealing the current hand."""
        return self.seating.player_at(self.dealer)

    def seat_of(self, player: int) -> int:
        """The seat ``player`` sits in now."""
        return self.seating.seat_of(player)


def _a(rank: HandRank) -> str:
    """A hand's name as a sentence says it: "a Half Fizzbin", "a Shronk", "nothing"."""
    return rank.title if rank is HandRank.NOTHING else f"a {rank.title}"


def _holding_words(rank: HandRank) -> str:
    """The Fizzbin hand a player holds, said to them."""
    if rank is HandRank.NOTHING:
        return "You hold nothing yet: a pair of Aces, Jacks or 7s is a Half Fizzbin."
    if rank is HandRank.SHRONK:
        return "You hold a Shronk (three of a kind): it always loses."
    return f"You hold {_a(rank)}."


def _result_event(winner: int | None, loser: int | None, ranks: list[HandRank]) -> Event:
    if winner is None:
        text = "nobody wins the hand"
        players: tuple[int, ...] = ()
    else:
        text = f"{{0}} wins the hand with {_a(ranks[winner])}, scores 1 and deals next"
        players = (winner,)
    if loser is not None:
        text += f"; {{{len(players)}}} loses with {_a(ranks[loser])}"
        players = (*players, loser)
    return Event("result", text, players)


def _end_event(winners: tuple[int, ...]) -> Event:
    names = " and ".join(f"{{{i}}}" for i in range(len(winners)))
    return Event("end", f"the match is over: {names} win{'s' if len(winners) == 1 else ''}",
                 winners)
