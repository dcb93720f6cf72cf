"""Fiasco as this project plays it (``rules/fiasco.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Self

from games.core.actions import Action, Param, Verb
from games.core.cards import Card, Deck
from games.core.dealing import deal_round_robin
from games.core.events import Event
from games.core.game import GAME_OVER, Game
from games.core.outcome import best_of
from games.core.registry import register
from games.core.seats import left_of
from games.core.tricks import distinct
from games.core.words import plural
from games.core.zones import Visibility, Zone, ZoneKind
from games.fiasco.cards import (
    FIASCO,
    FULL_DECK,
    KING,
    SUIT_NAMES,
    SUITS,
    card_label,
    card_name,
    four_suit_deck,
    suit_words,
)
from games.fiasco.deal import HAND_SIZE, FiascoDeal, parse_deal, shuffle_deal
from games.fiasco.options import FiascoOptions
from games.fiasco.rules_text import SCORING, SUMMARY
from games.fiasco.scoring import score_collection

TARGET = 42


class FiascoVerb(Verb):
    """Fiasco's verbs: claim a suit, then play cards to the pot."""

    CHOOSE = "choose"
    PLAY = "play"


class Phase(Enum):
    CLAIMING = "claiming suits"
    PLAYING = "playing"
    OVER = "over"


@register
class Fiasco(Game[FiascoDeal, FiascoOptions]):
    """Collect your own suit and Kings by winning pots; dodge the Fiascos."""

    name = "fiasco"
    title = "Fiasco"
    min_players = 2
    max_players = 6
    options_model = FiascoOptions
    summary = SUMMARY
    scoring = SCORING
    goal = "Win pots to collect your suit and the Kings; most points wins."
    pitch = ("Claim a suit, then throw cards into the pot: "
             "the highest wins it, but every Fiasco costs a card.")
    verbs = {FiascoVerb.CHOOSE: (Param.SUIT,), FiascoVerb.PLAY: (Param.CARD,)}
    full_deck = FULL_DECK
    suit_letters = SUITS
    tournament_rule = True  # the README, "Fiasco's tournament rule"

    def __init__(self, players: int, options: FiascoOptions, **kwargs: Any) -> None:
        super().__init__(players, options, **kwargs)
        self.claims: list[list[str]] = [[] for _ in range(players)]
        self.claim_order = self._claim_order()
        self.game_phase = Phase.CLAIMING
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = list(FULL_DECK.cards)  # undealt while suits are claimed
        self.pot: list[tuple[int, Card]] = []  # every card of the pot, all re-plays, in order
        self.current: list[tuple[int, Card]] = []  # this round of the pot (decides the winner)
        self.collections: list[list[Card]] = [[] for _ in range(players)]
        self.waste: list[Card] = []
        self.leader = left_of(self.dealer, players)
        self.round_deck: Deck = FULL_DECK
        self.to_act = self.claim_order[0]

    # --- setup -----------------------------------------------------------------

    def deck_in_play(self) -> Deck:
        return self.round_deck

    def _claim_order(self) -> list[int]:
        return claim_order(self.players, self.dealer, self.options.suits)

    def _parse_deal(self, raw: Mapping[str, Any], where: str) -> FiascoDeal:
        return parse_deal(raw, where, players=self.players, suits=self.options.suits)

    def _shuffle_deal(self, rng: random.Random) -> FiascoDeal:
        return shuffle_deal(rng, self.round_deck, players=self.players, dealer=self.dealer)


    def _start_round(self) -> list[Event]:
        if self.options.suits == "four":
            self.round_deck = four_suit_deck(s for claim in self.claims for s in claim)
        deal = self.next_deal()
        if self.options.suits == "four":
            self.round_deck.check_exactly(
                [*(c for h in deal.hands for c in h), *deal.stock],
                f"deal {len(self.deals_played)} (for the claimed suits)",
            )
        self.hands = [list(h) for h in deal.hands]
        self.stock = list(deal.stock)
        self.collections = [[] for _ in range(self.players)]
        self.waste = []
        self.pot = []
        self.current = []
        self.leader = left_of(self.dealer, self.players)
        self.game_phase = Phase.PLAYING
        self.to_act = self.leader
        return [Event("deal", f"{{0}} deals {HAND_SIZE} cards each; {{1}} leads",
                      (self.dealer, self.leader))]

    # --- play ------------------------------------------------------------------

    def _legal(self, player: int) -> list[Action]:
        if self.game_phase is Phase.CLAIMING:
            taken = {s for claim in self.claims for s in claim}
            return [Action(FiascoVerb.CHOOSE, arg=s) for s in SUITS if s not in taken]
        return [Action(FiascoVerb.PLAY, card) for card in distinct(self.hands[player])]

    def _why_illegal(self, player: int, action: Action) -> str:
        if self.game_phase is Phase.CLAIMING:
            if action.verb != FiascoVerb.CHOOSE:
                return "first every player claims a suit"
            return f"{SUIT_NAMES[action.arg or 'S']} are claimed already"
        if action.verb != FiascoVerb.PLAY:
            return "suits are claimed already; play a card"
        assert action.card is not None
        return f"you do not hold {card_label(action.card)}"

    card_label = staticmethod(card_label)
    card_name = staticmethod(card_name)

    def action_label(self, action: Action, names: Sequence[str] = ()) -> str:
        if action.verb == FiascoVerb.CHOOSE and action.arg:
            return f"Collect {suit_words(action.arg)}"
        assert action.card is not None
        return f"Play {card_label(action.card)}"

    def _do(self, player: int, action: Action) -> list[Event]:
        if action.verb == FiascoVerb.CHOOSE:
            return self._claim(player, action.arg or "")
        assert action.card is not None
        return self._play(player, action.card)

    def _claim(self, player: int, suit: str) -> list[Event]:
        self.claims[player].append(suit)
        events = [Event("choose", f"{{0}} collects {suit_words(suit)}", (player,))]
        claimed = sum(len(c) for c in self.claims)
        if claimed < len(self.claim_order):
            self.to_act = self.claim_order[claimed]
            return events
        return events + self._start_round()

    def _play(self, player: int, card: Card) -> list[Event]:
        self.hands[player].remove(card)
        self.pot.append((player, card))
        self.current.append((player, card))
        events = [Event("play", f"{{0}} plays {card_label(card)}", (player,))]
        if len(self.current) < self.players:
            self.to_act = left_of(player, self.players)
            return events
        return events + self._resolve()

    def _resolve(self) -> list[Event]:
        top = max(c.rank for _, c in self.current)
        high = [p for p, c in self.current if c.rank == top]
        events: list[Event] = []
        if len(high) == 1:
            events += self._take_pot(high[0])
        else:
            events.append(Event("tie", "tie for high: everyone plays again, {0} leads",
                                (self.leader,)))
            self.current = []
        if any(self.hands):
            self.to_act = self.leader
            return events
        return events + self._hands_empty()

    def _take_pot(self, winner: int) -> list[Event]:
        mine = self.claims[winner]
        collection = self.collections[winner]
        taken = [c for _, c in self.pot if c.suit in mine or c == KING]
        collection.extend(taken)
        self.waste.extend(c for _, c in self.pot if not (c.suit in mine or c == KING))
        fiascos = sum(1 for _, c in self.pot if c == FIASCO)
        events = [Event("pot", "{0} wins the pot" + (f" and collects {self.cards_label(taken)}"
                                                      if taken else ""), (winner,))]
        lost = [collection.pop() for _ in range(min(fiascos, len(collection)))]
        if lost:
            self.waste.extend(lost)
            events.append(Event("fiasco", f"the Fiasco costs {{0}} {self.cards_label(lost)}",
                                (winner,)))
        self.tricks.append(winner)
        self.pot = []
        self.current = []
        self.leader = winner
        return events

    def _hands_empty(self) -> list[Event]:
        n = self.players
        if len(self.stock) >= n:
            k = min(HAND_SIZE, len(self.stock) // n)
            deal_round_robin(self.stock, self.hands, count=k, first=left_of(self.dealer, n))
            self.to_act = self.leader
            return [Event("batch", f"{plural(k, 'more card')} each; {{0}} leads",
                          (self.leader,))]
        events: list[Event] = []
        if self.pot:
            self.waste.extend(c for _, c in self.pot)
            self.pot = []
            self.current = []
            self.tricks.append(None)
            events.append(Event("sweep", "the tied pot is swept to the waste"))
        self.waste.extend(self.stock)
        self.stock = []
        return events + self._count()

    def _count(self) -> list[Event]:
        gained = [score_collection(self.collections[p], self.claims[p])
                  for p in range(self.players)]
        self.rounds.append(gained)
        self.scores = [s + g for s, g in zip(self.scores, gained, strict=True)]
        events = [Event("count", "Counting Round: " + ", ".join(
            f"{{{p}}} {g}" for p, g in enumerate(gained)), tuple(range(self.players)))]
        totals = self.team_totals()
        if self.options.length == "quick" or max(totals) >= TARGET:
            best = best_of(totals)
            winners = [p for p in range(self.players) if self._team_index(p) in best]
            self.game_phase = Phase.OVER
            self.finish(winners, [totals[self._team_index(p)] for p in range(self.players)])
            events.append(Event("end", "the game is over", ()))
            return events
        self.dealer = left_of(self.dealer, self.players)
        return events + self._start_round()

    # --- copying -----------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy by hand (search clones states by the thousand)."""
        return self._copy_by_hand(
            flat=("deals_played", "scores", "tricks", "history", "opening_events",
                  "claim_order", "stock", "pot", "current", "waste"),
            nested=("rounds", "claims", "hands", "collections"))

    # --- teams -----------------------------------------------------------------

    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        if not self.options.teams:
            return None
        half = self.players // 2
        return tuple((i, i + half) for i in range(half))

    def _team_index(self, player: int) -> int:
        return player % (self.players // 2) if self.options.teams else player

    def team_totals(self) -> list[int]:
        """The totals that decide the end: per team with teams, else per player."""
        if not self.options.teams:
            return list(self.scores)
        half = self.players // 2
        return [self.scores[i] + self.scores[i + half] for i in range(half)]

    # --- views -----------------------------------------------------------------

    def zones(self) -> list[Zone]:
        zones = [
            Zone(f"hand:{p}", ZoneKind.HAND, h, Visibility.OWNER, p)
            for p, h in enumerate(self.hands)
        ]
        zones.append(Zone("stock", ZoneKind.STOCK, self.stock, Visibility.NOBODY))
        zones.append(Zone("pot", ZoneKind.TRICK, [c for _, c in self.pot], Visibility.PUBLIC))
        zones += [
            Zone(f"collection:{p}", ZoneKind.COLLECTION, c, Visibility.PUBLIC, p)
            for p, c in enumerate(self.collections)
        ]
        zones.append(Zone("waste", ZoneKind.WASTE, self.waste, Visibility.PUBLIC))
        return zones

    def current_trick(self) -> list[tuple[int, Card]]:
        return list(self.current)

    def phase(self) -> str:
        if self.game_phase is Phase.CLAIMING:
            return "claiming suits"
        if self.game_phase is Phase.OVER:
            return "game over"
        replay = " (tie re-play)" if self.pot and not self.current else ""
        return f"round {len(self.rounds) + 1}, pot {len(self.tricks) + 1}{replay}"

    def rules_ask(self, player: int) -> str:
        """Claim a suit, or play any card: no suit to follow, the highest rank takes the pot."""
        if self.over:
            return GAME_OVER
        mine = " and ".join(map(suit_words, self.claims[player]))
        if self.game_phase is Phase.CLAIMING:
            if self.to_act != player:
                return (f"you collect {mine}; the others are claiming suits" if mine
                        else "suits are being claimed; yours comes in turn")
            suit = "another suit" if mine else "a suit"
            return f"claim {suit}: you collect its cards and the Kings all game"
        goal = f"you collect {mine} and Kings"
        if self.to_act != player:
            return f"no suit to follow, the highest rank takes the pot; {goal}"
        if not self.current:
            lead = ("tie for high: play again, the newest cards decide" if self.pot
                    else "lead any card")
            return f"{lead}; the highest rank takes the pot; {goal}"
        high = max((c for _, c in self.current), key=lambda c: c.rank)
        return (f"play any card (no suit to follow); highest so far: {card_label(high)}; "
                f"{goal}")

    def seat_notes(self) -> list[str]:
        return [
            "collects " + " and ".join(SUIT_NAMES[s] for s in claim) if claim else ""
            for claim in self.claims
        ]

    def claimed_suits(self, player: int) -> list[str]:
        """The suits ``player`` collects."""
        return list(self.claims[player])


def claim_order(players: int, dealer: int, suits: str) -> list[int]:
    """Who claims, claim by claim: each seat once from the dealer's left, or with
    ``suits: double`` left, dealer, left, dealer."""
    left = left_of(dealer, players)
    if suits == "double":
        return [left, dealer, left, dealer]
    return [(left + i) % players for i in range(players)]
