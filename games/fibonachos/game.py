"""Fibonachos as this project plays it (``rules/fibonachos.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Self

from games.core.actions import Action, Param, Verb
from games.core.cards import Card, Deck
from games.core.errors import SetupError
from games.core.events import Event
from games.core.game import GAME_OVER, Game
from games.core.outcome import best_of
from games.core.registry import register
from games.core.seats import left_of
from games.core.tricks import must_follow
from games.core.zones import Visibility, Zone, ZoneKind
from games.fibonachos.cards import (
    IN_PLAY,
    NACHO_DECK,
    SUIT_NAMES,
    SUITS,
    card_label,
    card_name,
    is_fibonacho,
)
from games.fibonachos.deal import FibonachosDeal, parse_deal, shuffle_deal
from games.fibonachos.options import FibonachosOptions
from games.fibonachos.rules_text import SCORING, SUMMARY
from games.fibonachos.scoring import round_score, spicy_sum
from games.fibonachos.tricks import trick_winner, trump_active

TWO_PLAYER_TRICK = 4
TWO_PLAYER_TRICKS = 8


class FibonachosVerb(Verb):
    """Fibonachos' one verb: play a card to the trick."""

    PLAY = "play"


PLAY = {card: Action(FibonachosVerb.PLAY, card) for card in NACHO_DECK.cards}


class Phase(Enum):
    PLAYING = "playing"
    OVER = "over"


@register
class Fibonachos(Game[FibonachosDeal, FibonachosOptions]):
    """Win tricks for Spicy cards, or none at all; Fibonachos turn into trumps."""

    name = "fibonachos"
    title = "Fibonachos"
    min_players = 2
    max_players = 5
    options_model = FibonachosOptions
    summary = SUMMARY
    scoring = SCORING
    goal = ("Win tricks for Spicy prizes, or none at all for 34: a Fibonacci total scores "
            "the next one up; the highest total wins.")
    pitch = ("Follow suit to win spicy prizes, unless "
             "two Fibonacci numbers turn the trick upside down.")
    verbs = {FibonachosVerb.PLAY: (Param.CARD,)}
    full_deck = NACHO_DECK
    suit_letters = SUITS

    def __init__(self, players: int, options: FibonachosOptions, **kwargs: Any) -> None:
        super().__init__(players, options, **kwargs)
        two = players == 2
        self.trick_size = TWO_PLAYER_TRICK if two else players
        self.tricks_per_round = TWO_PLAYER_TRICKS if two else len(NACHO_DECK) // players
        self.game_phase = Phase.PLAYING
        self.hands: list[list[Card]] = []
        self.decks: list[list[Card]] = []  # private decks, top first (two players only)
        self.aside: list[Card] = []
        self.spicy: list[Card] = []  # the face-down Spicy deck, top first
        self.prize: list[Card] = []  # the face-up Spicy card (none once the deck is gone)
        self.won: list[list[Card]] = []  # Spicy cards taken this round, per player
        self.trick: list[tuple[int, Card]] = []
        self.played: list[Card] = []  # the cards of this round's finished tricks
        self.round_tricks = 0
        self.leader = left_of(self.dealer, players)
        self._start_round(self.next_deal())

    # --- setup -----------------------------------------------------------------

    def deck_in_play(self) -> Deck:
        return IN_PLAY

    def _parse_deal(self, raw: Mapping[str, Any], where: str) -> FibonachosDeal:
        return parse_deal(raw, self.players, where)

    def _shuffle_deal(self, rng: random.Random) -> FibonachosDeal:
        return shuffle_deal(rng, self.players, self.dealer)


    def _start_round(self, deal: FibonachosDeal) -> list[Event]:
        n = self.players
        self.hands = [list(h) for h in deal.hands]
        self.decks = [list(d) for d in deal.decks]
        self.aside = list(deal.aside)
        self.spicy = list(deal.spicy)
        self.prize = [self.spicy.pop(0)]
        self.won = [[] for _ in range(n)]
        self.trick = []
        self.played = []
        self.round_tricks = 0
        self.leader = left_of(self.dealer, n)
        self.to_act = self.leader
        return [Event("deal", f"round {len(self.rounds) + 1}: {{0}} deals; the prize is "
                      f"{card_label(self.prize[0])}; {{1}} leads", (self.dealer, self.leader))]

    def clone(self) -> Self:
        """An independent copy by hand (search clones states by the thousand)."""
        return self._copy_by_hand(
            flat=("deals_played", "aside", "spicy", "prize", "trick", "played", "scores",
                  "tricks", "history", "opening_events"),  # the deal dicts are never changed
            nested=("hands", "decks", "won", "rounds"))

    # --- play ------------------------------------------------------------------

    def _led(self) -> str | None:
        return self.trick[0][1].suit if self.trick else None

    def _legal(self, player: int) -> list[Action]:
        return [PLAY[card] for card in must_follow(self.hands[player], self._led())]

    def _why_illegal(self, player: int, action: Action) -> str:
        card = action.card
        if card is None or not card.suit:
            return "play one of your Nacho cards"
        if card not in self.hands[player]:
            return f"you do not hold {card_label(card)}"
        return f"you must follow {SUIT_NAMES[self._led() or card.suit]}"

    card_label = staticmethod(card_label)
    card_name = staticmethod(card_name)

    @classmethod
    def every_card(cls) -> Deck:
        return IN_PLAY

    def action_label(self, action: Action, names: Sequence[str] = ()) -> str:
        if action.card is None:
            return str(action)
        trump = " (Fibonacho)" if is_fibonacho(action.card) else ""
        return f"Play {card_label(action.card)}{trump}"

    def _do(self, player: int, action: Action) -> list[Event]:
        assert action.card is not None
        next_deal = self._deal_if_round_ends()
        card = action.card
        self.hands[player].remove(card)
        self.trick.append((player, card))
        events = [Event("play", f"{{0}} plays {card_label(card)}", (player,))]
        if self.decks and self.decks[player]:
            self.hands[player].append(self.decks[player].pop(0))
            events.append(Event("draw", "{0} draws from their deck", (player,)))
        if len(self.trick) < self.trick_size:
            self.to_act = left_of(player, self.players)
        else:
            events += self._resolve(next_deal)
        return events

    def _deal_if_round_ends(self) -> FibonachosDeal | None:
        """The next round's deal, when this play ends a round that is not the last.

        Fetched before anything changes, so that a record without the seed for it
        fails (``SetupError``) with the state untouched.
        """
        ends_round = (len(self.trick) + 1 == self.trick_size
                      and self.round_tricks + 1 == self.tricks_per_round)
        if not ends_round or len(self.rounds) + 1 >= self.options.rounds:
            return None
        dealer = self.dealer
        self.dealer = left_of(dealer, self.players)  # the next deal is dealt from its left
        try:
            return self.next_deal()
        except SetupError:
            self.dealer = dealer
            raise

    def _resolve(self, next_deal: FibonachosDeal | None) -> list[Event]:
        winner, card = trick_winner(self.trick)
        how = " (trump)" if trump_active(self.trick) else ""
        self.played.extend(c for _, c in self.trick)
        self.trick = []
        self.tricks.append(winner)
        self.round_tricks += 1
        self.leader = winner
        self.to_act = winner
        if self.prize:
            taken = self.prize.pop()
            self.won[winner].append(taken)
            events = [Event("trick", f"{{0}} wins the trick with {card_label(card)}{how} and "
                                     f"takes {card_label(taken)}", (winner,))]
            if self.spicy:
                self.prize.append(self.spicy.pop(0))
                events.append(Event("prize", f"the next prize is {card_label(self.prize[0])}"))
            else:
                events.append(Event("prize", "the Spicy deck is empty: no more prizes"))
        else:
            events = [Event("trick", f"{{0}} wins the trick with {card_label(card)}{how} "
                                     "(no prize)", (winner,))]
        if self.round_tricks < self.tricks_per_round:
            return events
        return events + self._end_round(next_deal)

    def _end_round(self, next_deal: FibonachosDeal | None) -> list[Event]:
        gained = [round_score(spicy_sum(w)) for w in self.won]
        self.rounds.append(gained)
        self.scores = [s + g for s, g in zip(self.scores, gained, strict=True)]
        events = [Event("round", f"round {len(self.rounds)}: " + ", ".join(
            f"{{{p}}} {g}" for p, g in enumerate(gained)), tuple(range(self.players)))]
        if next_deal is None:
            self.game_phase = Phase.OVER
            self.finish(best_of(self.scores))
            events.append(Event("end", "the game is over"))
            return events
        return events + self._start_round(next_deal)

    # --- views -----------------------------------------------------------------

    def zones(self) -> list[Zone]:
        zones = [
            Zone(f"hand:{p}", ZoneKind.HAND, h, Visibility.OWNER, p)
            for p, h in enumerate(self.hands)
        ]
        zones += [
            Zone(f"deck:{p}", ZoneKind.STOCK, d, Visibility.NOBODY, p)  # face down: a count
            for p, d in enumerate(self.decks)
        ]
        zones.append(Zone("aside", ZoneKind.ASIDE, self.aside, Visibility.NOBODY))
        zones.append(Zone("trick", ZoneKind.TRICK, [c for _, c in self.trick],
                          Visibility.PUBLIC))
        zones.append(Zone("played", ZoneKind.WASTE, self.played, Visibility.PUBLIC))
        zones.append(Zone("spicy", ZoneKind.STOCK, self.spicy, Visibility.NOBODY))
        zones.append(Zone("prize", ZoneKind.FACE_UP, self.prize, Visibility.PUBLIC))
        zones += [
            Zone(f"spicy:{p}", ZoneKind.COLLECTION, w, Visibility.PUBLIC, p)
            for p, w in enumerate(self.won)
        ]
        return zones

    def current_trick(self) -> list[tuple[int, Card]]:
        return list(self.trick)

    def phase(self) -> str:
        if self.game_phase is Phase.OVER:
            return "game over"
        return (f"round {len(self.rounds) + 1} of {self.options.rounds}, "
                f"trick {self.round_tricks + 1} of {self.tricks_per_round}")

    def facts(self) -> list[tuple[str, str]]:
        prize = card_label(self.prize[0]) if self.prize else "none"
        facts = [("Prize", prize)]
        if self.trick:
            facts.append(("Led", SUIT_NAMES[self.trick[0][1].suit]))
        return facts

    def rules_ask(self, player: int) -> str:
        """Follow the lead suit if you can; two Fibonachos in a trick make the highest win."""
        if self.over:
            return GAME_OVER
        prize = card_label(self.prize[0]) if self.prize else "no prize"
        led = self._led()
        if self.to_act != player:
            return (f"{SUIT_NAMES[led]} was led; the winner takes {prize}" if led
                    else f"waiting for the lead; the winner takes {prize}")
        if led is None:
            return f"lead any card; the winner takes {prize}"
        fibonachos = sum(1 for _, c in self.trick if is_fibonacho(c))
        trump = ("; Fibonacho trump is on: the highest Fibonacho wins" if fibonachos >= 2
                 else "; one more Fibonacho turns trump on" if fibonachos == 1 else "")
        if any(c.suit == led for c in self.hands[player]):
            return f"follow {SUIT_NAMES[led]}{trump}"
        return f"no {SUIT_NAMES[led]}: play any card{trump}"

    def hand_notes(self, player: int) -> list[str]:
        """The Fibonachos the player holds: two in a trick turn trump on."""
        held = [c for c in self.sorted_hand(self.hands[player]) if is_fibonacho(c)]
        if not held:
            return ["No Fibonacho in your hand (1, 2, 3, 5, 8, 13)."]
        return [f"Fibonachos in your hand: {self.cards_label(held)}."]

    def seat_notes(self) -> list[str]:
        notes = []
        for won in self.won:
            s = spicy_sum(won)
            notes.append(f"Spicy {s}, worth {round_score(s)}" if won else "no Spicy, worth 34")
        return notes
