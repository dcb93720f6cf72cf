"""Fumblaroo as this project plays it (``rules/fumblaroo.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Self

from games.core.actions import Action, Param, Verb
from games.core.cards import Card, standard_card_label, standard_card_name
from games.core.events import Event
from games.core.game import GAME_OVER, Game
from games.core.registry import register
from games.core.seats import left_of
from games.core.tricks import must_follow
from games.core.words import plural
from games.core.zones import Visibility, Zone, ZoneKind
from games.fumblaroo.cards import (
    DECK,
    SUIT_NAMES,
    SUITS,
    TWO_OF_CLUBS,
    effective_suit,
    trump_rank,
)
from games.fumblaroo.deal import FumblarooDeal, parse_deal, shuffle_deal
from games.fumblaroo.options import FumblarooOptions
from games.fumblaroo.rules_text import SCORING, SUMMARY
from games.fumblaroo.scoring import TRICKS_PER_HAND, game_winner, hand_points
from games.fumblaroo.tricks import trick_winner


class FumblarooVerb(Verb):
    """Fumblaroo's verbs: bid on the up-card, the dealer's discard, calling trump, play."""

    ORDER = "order"
    PASS = "pass"
    PICK = "pick"
    TURN = "turn"
    CALL = "call"
    DISCARD = "discard"
    PLAY = "play"


ORDER = Action(FumblarooVerb.ORDER)
PASS = Action(FumblarooVerb.PASS)
PICK = Action(FumblarooVerb.PICK)
TURN = Action(FumblarooVerb.TURN)
LABELS: dict[Verb, str] = {
    FumblarooVerb.ORDER: "Order it up",
    FumblarooVerb.PASS: "Pass",
    FumblarooVerb.PICK: "Pick it up",
    FumblarooVerb.TURN: "Turn it down",
}


class Stage(Enum):
    BIDDING = "bidding"  # round one: the dealer's left, then the third player
    DEALER = "dealer's choice"  # both passed: pick up or turn down
    DISCARD = "dealer discards"
    CALLING = "calling trump"  # turned down: the dealer's left must call
    PLAYING = "playing"
    OVER = "game over"


@register
class Fumblaroo(Game[FumblarooDeal, FumblarooOptions]):
    """Three-player Euchre on 27 cards: order it up, pick it up, or call trump."""

    name = "fumblaroo"
    title = "Fumblaroo"
    min_players = 3
    max_players = 3
    options_model = FumblarooOptions
    summary = SUMMARY
    scoring = SCORING
    goal = "Make trump and take tricks; the first to the target alone wins."
    pitch = ("Euchre for three: make trump, take tricks "
             "and be the first alone at the target.")
    verbs = {
        FumblarooVerb.ORDER: (),
        FumblarooVerb.PASS: (),
        FumblarooVerb.PICK: (),
        FumblarooVerb.TURN: (),
        FumblarooVerb.CALL: (Param.SUIT,),
        FumblarooVerb.DISCARD: (Param.CARD,),
        FumblarooVerb.PLAY: (Param.CARD,),
    }
    full_deck = DECK
    suit_letters = SUITS

    def __init__(self, players: int, options: FumblarooOptions, **kwargs: Any) -> None:
        super().__init__(players, options, **kwargs)
        self.stage = Stage.BIDDING
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.kingdom: list[Card] = []  # face down, the up-card not included
        self.up_card: Card | None = None  # face up on the Kingdom while bidding
        self.taken_up: Card | None = None  # the up-card once ordered or picked up (seen by all)
        self.turned_down: list[Card] = []  # the up-card turned down: out of play
        self.discarded: list[Card] = []  # the dealer's discard: face down, out of play
        self.trick: list[tuple[int, Card]] = []
        self.won: list[list[Card]] = [[] for _ in range(players)]
        self.taken: list[int] = [0] * players
        self.passes = 0
        self.trump: str | None = None
        self.caller: int | None = None
        self.leader = left_of(self.dealer, players)
        # What happened before the first action (the deal, any 2-of-clubs forfeits).
        self.opening_events = self._start_hand()

    # --- setup -----------------------------------------------------------------

    def _parse_deal(self, raw: Mapping[str, Any], where: str) -> FumblarooDeal:
        return parse_deal(raw, where)

    def _shuffle_deal(self, rng: random.Random) -> FumblarooDeal:
        return shuffle_deal(rng, dealer=self.dealer)


    def clone(self) -> Self:
        """An independent copy by hand (search clones states by the thousand)."""
        return self._copy_by_hand(
            flat=("deals_played", "kingdom", "turned_down", "discarded", "trick", "taken",
                  "scores", "tricks", "history", "opening_events"),
            nested=("hands", "won", "rounds"))

    # --- a hand ------------------------------------------------------------------

    def _start_hand(self) -> list[Event]:
        """Deal the next hand; a 2 of clubs turned up voids it at once (perhaps repeatedly)."""
        events: list[Event] = []
        while True:
            deal = self.next_deal()
            self.hands = [list(h) for h in deal.hands]
            self.up_card = deal.kingdom[0]
            self.taken_up = None
            self.kingdom = list(deal.kingdom[1:])
            self.turned_down = []
            self.discarded = []
            self.trick = []
            self.won = [[] for _ in range(self.players)]
            self.taken = [0] * self.players
            self.passes = 0
            self.trump = None
            self.caller = None
            self.leader = left_of(self.dealer, self.players)
            events.append(Event("deal", f"{{0}} deals and turns up {self.card_label(self.up_card)}",
                                (self.dealer,)))
            if self.up_card != TWO_OF_CLUBS:
                self.stage = Stage.BIDDING
                self.to_act = self.leader
                return events
            events.append(Event("forfeit", f"{self.card_label(TWO_OF_CLUBS)} turned up: the hand "
                                "is void and {0} scores 1",
                                (self.dealer,)))
            gained = [0] * self.players
            gained[self.dealer] = 1
            events += self._close_hand(gained)
            if self.over:
                return events
            self.dealer = left_of(self.dealer, self.players)

    def _close_hand(self, gained: list[int]) -> list[Event]:
        """Score a finished (or void) hand and end the game if someone leads alone."""
        self.rounds.append(gained)
        self.scores = [s + g for s, g in zip(self.scores, gained, strict=True)]
        winner = game_winner(self.scores, target=self.options.target)
        if winner is None:
            return []
        self.stage = Stage.OVER
        self.finish([winner])
        return [Event("end", f"{{0}} wins with {plural(self.scores[winner], 'point')}",
                      (winner,))]

    # --- play ------------------------------------------------------------------

    def _suit_of(self, card: Card) -> str:
        return effective_suit(card, self.trump or "")

    def _led(self) -> str | None:
        return self._suit_of(self.trick[0][1]) if self.trick else None

    def _turned_suit(self) -> str:
        return self.turned_down[0].suit if self.turned_down else ""

    def _legal(self, player: int) -> list[Action]:
        stage = self.stage
        if stage is Stage.PLAYING:
            playable = must_follow(self.hands[player], self._led(), self._suit_of)
            return [Action(FumblarooVerb.PLAY, c) for c in playable]
        if stage is Stage.BIDDING:
            return [ORDER, PASS]
        if stage is Stage.DEALER:
            return [PICK, TURN]
        if stage is Stage.DISCARD:
            return [Action(FumblarooVerb.DISCARD, c) for c in self.hands[player]]
        if stage is Stage.CALLING:
            turned = self._turned_suit()
            return [Action(FumblarooVerb.CALL, arg=s) for s in SUITS if s != turned]
        return []

    def _why_illegal(self, player: int, action: Action) -> str:
        verb, stage = action.verb, self.stage
        if stage is Stage.BIDDING:
            if verb in (FumblarooVerb.PICK, FumblarooVerb.TURN):
                return "only the dealer picks up or turns down, after both others pass"
            return "order it up or pass"
        if stage is Stage.DEALER:
            if verb in (FumblarooVerb.ORDER, FumblarooVerb.PASS):
                return "the dealer may not order or pass: pick it up or turn it down"
            return "pick it up or turn it down"
        if stage is Stage.DISCARD:
            if verb == FumblarooVerb.DISCARD:
                assert action.card is not None
                return f"you do not hold {self.card_label(action.card)}"
            return "discard one of your six cards first"
        if stage is Stage.CALLING:
            if verb == FumblarooVerb.CALL:
                return (f"{SUIT_NAMES[action.arg or 'S']} were turned down and may not be "
                        "called")
            if verb == FumblarooVerb.PASS:
                return "you must call trump; you may not pass"
            return "call trump: one of the three suits not turned down"
        if verb != FumblarooVerb.PLAY or action.card is None:
            return "trump is made; play a card"
        return self._why_not_play(player, action.card)

    def _why_not_play(self, player: int, card: Card) -> str:
        if card not in self.hands[player]:
            return f"you do not hold {self.card_label(card)}"
        led = self._led() or ""
        if card.suit == led and self._suit_of(card) != led:
            return (f"{self.card_label(card)} is a trump ({SUIT_NAMES[self.trump or 'S']}), "
                    f"not one of {SUIT_NAMES[led]}: follow with a real one")
        return f"you must follow {SUIT_NAMES[led]}"

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Trump first, in trump's order (the twos of its colour highest); then the rest."""
        if self.trump is None:
            return super().sort_key(card)
        if effective_suit(card, self.trump) == self.trump:
            return -1, trump_rank(card, self.trump)
        return super().sort_key(card)

    card_label = staticmethod(standard_card_label)
    card_name = staticmethod(standard_card_name)

    def action_label(self, action: Action, names: Sequence[str] = ()) -> str:
        if action.verb == FumblarooVerb.CALL and action.arg:
            return f"Call {SUIT_NAMES[action.arg]}"
        if action.card is not None:
            return f"{action.verb.capitalize()} {self.card_label(action.card)}"
        return LABELS.get(action.verb, str(action))

    def _do(self, player: int, action: Action) -> list[Event]:
        verb = action.verb
        if verb == FumblarooVerb.PLAY:
            assert action.card is not None
            return self._play(player, action.card)
        if verb == FumblarooVerb.PASS:
            return self._pass(player)
        if verb in (FumblarooVerb.ORDER, FumblarooVerb.PICK):
            return self._take_up(player)
        if verb == FumblarooVerb.TURN:
            return self._turn(player)
        if verb == FumblarooVerb.CALL:
            return self._call(player, action.arg or "")
        assert action.card is not None
        return self._discard(player, action.card)

    def _pass(self, player: int) -> list[Event]:
        self.passes += 1
        events = [Event("pass", "{0} passes", (player,))]
        if self.passes < self.players - 1:
            self.to_act = left_of(player, self.players)
        else:
            self.stage = Stage.DEALER
            self.to_act = self.dealer
        return events

    def _take_up(self, player: int) -> list[Event]:
        """An order (``player`` is not the dealer) or a pick: the up-card's suit is trump."""
        up = self.up_card
        assert up is not None
        self.trump = up.suit
        self.caller = player
        self.hands[self.dealer].append(up)
        self.up_card = None
        self.taken_up = up
        self.stage = Stage.DISCARD
        self.to_act = self.dealer
        if player == self.dealer:
            return [Event("pick", f"{{0}} picks up {self.card_label(up)}: "
                                  f"{SUIT_NAMES[up.suit]} are trump",
                          (player,))]
        return [Event("order", f"{{0}} orders up {self.card_label(up)}: "
                               f"{SUIT_NAMES[up.suit]} are trump",
                      (player,))]

    def _turn(self, player: int) -> list[Event]:
        up = self.up_card
        assert up is not None
        self.turned_down.append(up)
        self.up_card = None
        self.stage = Stage.CALLING
        self.to_act = left_of(self.dealer, self.players)
        return [Event("turn", f"{{0}} turns down {self.card_label(up)}; {{1}} must call trump",
                      (player, self.to_act))]

    def _call(self, player: int, suit: str) -> list[Event]:
        self.trump = suit
        self.caller = player
        events = [Event("call", f"{{0}} calls {SUIT_NAMES[suit]} trump", (player,))]
        return events + self._start_tricks()

    def _discard(self, player: int, card: Card) -> list[Event]:
        self.hands[player].remove(card)
        self.discarded.append(card)
        events = [Event("discard", "{0} discards a card face down", (player,))]
        return events + self._start_tricks()

    def _start_tricks(self) -> list[Event]:
        self.stage = Stage.PLAYING
        self.leader = left_of(self.dealer, self.players)
        self.to_act = self.leader
        return [Event("lead", "{0} leads", (self.leader,))]

    def _play(self, player: int, card: Card) -> list[Event]:
        self.hands[player].remove(card)
        self.trick.append((player, card))
        events = [Event("play", f"{{0}} plays {self.card_label(card)}", (player,))]
        if len(self.trick) < self.players:
            self.to_act = left_of(player, self.players)
            return events
        return events + self._take_trick()

    def _take_trick(self) -> list[Event]:
        winner, card = trick_winner(self.trick, self.trump or "")
        self.won[winner].extend(c for _, c in self.trick)
        self.taken[winner] += 1
        self.tricks.append(winner)
        self.trick = []
        self.leader = winner
        self.to_act = winner
        events = [Event("trick", f"{{0}} takes the trick with {self.card_label(card)}",
                        (winner,))]
        if sum(self.taken) < TRICKS_PER_HAND:
            return events
        return events + self._end_hand()

    def _end_hand(self) -> list[Event]:
        assert self.caller is not None
        gained = hand_points(self.taken, caller=self.caller)
        n = self.players
        events = [Event("hand", "hand over: " + ", ".join(
            f"{{{p}}} {plural(self.taken[p], 'trick')} +{gained[p]}"
            for p in range(n)), tuple(range(n)))]
        events += self._close_hand(gained)
        if self.over:
            return events
        self.dealer = left_of(self.dealer, n)
        return events + self._start_hand()

    # --- views -----------------------------------------------------------------

    def zones(self) -> list[Zone]:
        zones = [
            Zone(f"hand:{p}", ZoneKind.HAND, h, Visibility.OWNER, p)
            for p, h in enumerate(self.hands)
        ]
        zones.append(Zone("kingdom", ZoneKind.STOCK, self.kingdom, Visibility.NOBODY))
        up = [self.up_card] if self.up_card is not None else []
        zones.append(Zone("up-card", ZoneKind.FACE_UP, up, Visibility.PUBLIC))
        zones.append(Zone("turned down", ZoneKind.WASTE, self.turned_down, Visibility.PUBLIC))
        zones.append(Zone("discard", ZoneKind.ASIDE, self.discarded, Visibility.NOBODY))
        zones.append(Zone("trick", ZoneKind.TRICK, [c for _, c in self.trick],
                          Visibility.PUBLIC))
        zones += [
            Zone(f"tricks:{p}", ZoneKind.COLLECTION, w, Visibility.PUBLIC, p)
            for p, w in enumerate(self.won)
        ]
        return zones

    def current_trick(self) -> list[tuple[int, Card]]:
        return list(self.trick)

    def phase(self) -> str:
        hand = len(self.rounds) + 1
        if self.stage is Stage.OVER:
            return "game over"
        if self.stage is Stage.PLAYING:
            return f"hand {hand}, trick {sum(self.taken) + 1}"
        return f"hand {hand}, {self.stage.value}"

    def facts(self) -> list[tuple[str, str]]:
        facts: list[tuple[str, str]] = []
        if self.trump is not None:
            facts.append(("Trump", SUIT_NAMES[self.trump]))
        elif self.up_card is not None:
            facts.append(("Up-card", self.card_label(self.up_card)))
        if self.taken_up is not None:
            # Everyone saw it turned up: say where it went (the discard stays hidden).
            facts.append(("Taken up", self.card_label(self.taken_up)))
        if self.turned_down:
            facts.append(("Turned down", self.card_label(self.turned_down[0])))
        facts.append(("Target", str(self.options.target)))
        return facts

    def rules_ask(self, player: int) -> str:
        """Order up or pass, pick up or turn down, discard, call trump, or follow suit."""
        if self.over:
            return GAME_OVER
        if self.to_act != player:
            return self._waiting_ask()
        stage, up = self.stage, self.up_card
        if stage is Stage.BIDDING and up is not None:
            return (f"order up {self.card_label(up)} to make {SUIT_NAMES[up.suit]} trump, "
                    "or pass")
        if stage is Stage.DEALER and up is not None:
            return (f"pick up {self.card_label(up)} to make {SUIT_NAMES[up.suit]} trump, "
                    "or turn it down")
        if stage is Stage.DISCARD:
            return "discard one card face down (the card you took up may go too)"
        if stage is Stage.CALLING:
            return (f"call trump: any suit but {SUIT_NAMES[self._turned_suit()]}; "
                    "you may not pass")
        trump = f"{SUIT_NAMES[self.trump or 'S']} are trump"
        led = self._led()
        if led is None:
            return f"lead any card; {trump}"
        if any(self._suit_of(c) == led for c in self.hands[player]):
            return f"follow {SUIT_NAMES[led]}; {trump}"
        return f"no {SUIT_NAMES[led]}: play any card; {trump}"

    def _waiting_ask(self) -> str:
        """What is going on while another player decides."""
        if self.stage in (Stage.BIDDING, Stage.DEALER) and self.up_card is not None:
            return f"bidding on the up-card {self.card_label(self.up_card)}"
        if self.stage is Stage.DISCARD:
            return "the dealer discards one card"
        if self.stage is Stage.CALLING:
            return "trump is being called"
        trump = f"{SUIT_NAMES[self.trump or 'S']} are trump"
        led = self._led()
        return f"{SUIT_NAMES[led]} were led; {trump}" if led else f"waiting for the lead; {trump}"

    def trump_order(self, trump: str) -> list[Card]:
        """Every trump when ``trump`` is trump, highest first: the 2 of trump, the other 2
        of its colour, then A down to 9."""
        trumps = [c for c in DECK.cards if effective_suit(c, trump) == trump]
        return sorted(trumps, key=lambda c: trump_rank(c, trump), reverse=True)

    def hand_notes(self, player: int) -> list[str]:
        """The trump order, highest first, and the trumps the player holds: the twos that
        outrank the Ace are what a player new to the game misses."""
        trump = self.trump or (self.up_card.suit if self.up_card is not None else None)
        if trump is None:
            return []
        order = self.cards_label(self.trump_order(trump))
        held = [c for c in self.hands[player] if effective_suit(c, trump) == trump]
        mine = self.cards_label(sorted(held, key=lambda c: trump_rank(c, trump), reverse=True))
        head = ("Trump, highest first" if self.trump is not None
                else f"If {SUIT_NAMES[trump]} are trump, highest first")
        return [f"{head}: {order}. " + (f"You hold {mine}." if held else "You hold none.")]

    def seat_notes(self) -> list[str]:
        notes = []
        for p in range(self.players):
            parts = []
            if p == self.dealer:
                parts.append("dealer")
            if p == self.caller and self.trump is not None:
                parts.append(f"called {SUIT_NAMES[self.trump]}")
            if self.stage is Stage.PLAYING:
                parts.append(plural(self.taken[p], "trick"))
            notes.append(", ".join(parts))
        return notes
