"""Fazes as this project plays it (``rules/fazes.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from games.core.actions import Action, Param, Verb
from games.core.cards import Card, Deck
from games.core.errors import SetupError
from games.core.events import Event
from games.core.game import GAME_OVER, Game
from games.core.outcome import best_of
from games.core.registry import register
from games.core.seats import left_of
from games.core.words import plural
from games.core.zones import Visibility, Zone, ZoneKind
from games.fazes.cards import (
    COLOUR_NAMES,
    COLOURS,
    FULL_DECK,
    GREEN_TWO,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RED,
    card_label,
    card_name,
    deck_for_players,
    hand_size,
    removed_for,
)
from games.fazes.deal import FazesDeal, parse_deal, shuffle_deal
from games.fazes.options import FazesOptions
from games.fazes.rules_text import SCORING, SUMMARY
from games.fazes.scoring import (
    FAZE_NAMES,
    FAZE_POINTS,
    LAST_TRICK_FAZES,
    LAST_TRICK_POINTS,
    has_trump,
    points_taken,
    score_faze,
)
from games.fazes.tricks import playable, trick_winner, why_not_playable


class FazesVerb(Verb):
    """Fazes' one verb: play a card to the trick."""

    PLAY = "play"


# One action object per card, so that listing legal actions allocates nothing new.
PLAY: dict[Card, Action] = {card: Action(FazesVerb.PLAY, card) for card in FULL_DECK.cards}


@register
class Fazes(Game[FazesDeal, FazesOptions]):
    """Six deals of tricks, each scored its own way; the lowest total wins."""

    name = "fazes"
    title = "Fazes"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options_model = FazesOptions
    summary = SUMMARY
    scoring = SCORING
    goal = "Points are bad: the lowest total after the last faze wins."
    pitch = ("One faze of tricks at a time, each scored its own "
             "way: dodge the points, or take them all.")
    lower_is_better = True
    verbs = {FazesVerb.PLAY: (Param.CARD,)}
    full_deck = FULL_DECK  # removed cards too: they parse, and are refused as not held
    suit_letters = COLOURS

    def __init__(self, players: int, options: FazesOptions, **kwargs: Any) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SetupError(f"Fazes is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        # What this many players play with (the computer players read them too).
        self.removed: tuple[Card, ...] = removed_for(players)
        self.deck: Deck = deck_for_players(players)
        self.hand_size = hand_size(players)
        super().__init__(players, options, **kwargs)
        self.fazes: list[int] = list(self.options.fazes)
        self.faze_index = 0
        self.faze = self.fazes[0]
        self.trump = has_trump(self.faze)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.plays: list[tuple[int, Card]] = []  # the trick under way, in play order
        self.taken: list[list[Card]] = [[] for _ in range(players)]  # cards won this faze
        self.won: list[int] = [0] * players  # tricks won this faze
        self.faze_tricks = 0  # tricks finished this faze
        self.leader = 0
        self.opening_events = self._start_faze()

    # --- setup -----------------------------------------------------------------

    def deck_in_play(self) -> Deck:
        return self.deck

    def _parse_deal(self, raw: Mapping[str, Any], where: str) -> FazesDeal:
        return parse_deal(raw, where, players=self.players)

    def _shuffle_deal(self, rng: random.Random) -> FazesDeal:
        return shuffle_deal(rng, players=self.players, dealer=self.dealer)


    def _start_faze(self) -> list[Event]:
        deal = self.next_deal()
        self.faze = self.fazes[self.faze_index]
        self.trump = has_trump(self.faze)
        self.hands = [list(h) for h in deal.hands]
        self.plays = []
        self.taken = [[] for _ in range(self.players)]
        self.won = [0] * self.players
        self.faze_tricks = 0
        self.leader = next(p for p, h in enumerate(self.hands) if GREEN_TWO in h)
        self.to_act = self.leader
        return [Event(
            "deal",
            f"{{0}} deals faze {self.faze_index + 1} of {len(self.fazes)}: "
            f"{FAZE_NAMES[self.faze]} ({FAZE_POINTS[self.faze]}); "
            f"{{1}} leads {card_label(GREEN_TWO)}",
            (self.dealer, self.leader),
        )]

    # --- play ------------------------------------------------------------------

    @property
    def opening_lead(self) -> bool:
        """Whether the next card is the faze's first, which must be G2."""
        return self.faze_tricks == 0 and not self.plays

    def _legal(self, player: int) -> list[Action]:
        if not self.plays:
            if self.faze_tricks == 0:
                return [PLAY[GREEN_TWO]]
            return [PLAY[c] for c in self.hands[player]]
        led = self.plays[0][1].suit
        return [PLAY[c] for c in playable(self.hands[player], led, trump=self.trump)]

    def _why_illegal(self, player: int, action: Action) -> str:
        card = action.card
        if card is None:  # pragma: no cover - the only verb takes a card
            return "play a card"
        hand = self.hands[player]
        if card not in hand:
            if card in self.removed:
                return (f"{card_label(card)} is out of play with "
                        f"{plural(self.players, 'player')}")
            return f"you do not hold {card_label(card)}"
        if self.opening_lead:
            return f"you must lead {card_label(GREEN_TWO)} to open the faze"
        return why_not_playable(hand, self.plays[0][1].suit, card, trump=self.trump)

    card_label = staticmethod(card_label)
    card_name = staticmethod(card_name)

    def action_label(self, action: Action, names: Sequence[str] = ()) -> str:
        if action.card is None:  # pragma: no cover - the only verb takes a card
            return str(action)
        verb = "Lead" if not self.plays else "Play"
        return f"{verb} {card_label(action.card)}"

    def _do(self, player: int, action: Action) -> list[Event]:
        card = action.card
        assert card is not None
        self.hands[player].remove(card)
        self.plays.append((player, card))
        verb = "leads" if len(self.plays) == 1 else "plays"
        events = [Event("play", f"{{0}} {verb} {card_label(card)}", (player,))]
        if len(self.plays) < self.players:
            self.to_act = left_of(player, self.players)
            return events
        return events + self._end_trick()

    def _end_trick(self) -> list[Event]:
        plays = self.plays
        winner = trick_winner(plays, trump=self.trump)
        card = next(c for p, c in plays if p == winner)
        self.tricks.append(winner)
        self.won[winner] += 1
        self.taken[winner].extend(c for _, c in plays)
        self.plays = []
        self.faze_tricks += 1
        events = [Event("trick", f"{{0}} wins trick {self.faze_tricks} with {card_label(card)}",
                        (winner,))]
        if self.hands[winner]:
            self.leader = winner
            self.to_act = winner
            return events
        return events + self._end_faze(winner)

    def _end_faze(self, last_winner: int) -> list[Event]:
        n = self.players
        score = score_faze(self.faze, self.taken, self.won, last_winner=last_winner)
        self.rounds.append(score.points)
        self.scores = [s + p for s, p in zip(self.scores, score.points, strict=True)]
        events: list[Event] = []
        if score.shooter is not None:
            events.append(Event("moon", f"{{0}} shoots the moon: everyone else scores "
                                        f"{score.total}", (score.shooter,)))
        if self.faze in LAST_TRICK_FAZES:
            events.append(Event("last", f"{{0}} takes the last trick: {LAST_TRICK_POINTS}",
                                (last_winner,)))
        events.append(Event(
            "score",
            f"faze {self.faze_index + 1} ({FAZE_NAMES[self.faze]}): "
            + ", ".join(f"{{{p}}} {pts:+d}" for p, pts in enumerate(score.points)),
            tuple(range(n)),
        ))
        if self.faze_index + 1 < len(self.fazes):
            self.faze_index += 1
            self.dealer = left_of(self.dealer, n)
            return events + self._start_faze()
        winners = best_of(self.scores, lower_is_better=True)
        self.finish(winners)
        names = " and ".join(f"{{{i}}}" for i in range(len(winners)))
        events.append(Event("end", f"the game is over: {names} "
                                   f"win{'s' if len(winners) == 1 else ''} with "
                                   f"{self.scores[winners[0]]}", winners))
        return events

    # --- copying ----------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy: the few mutable lists are copied, everything else shared."""
        return self._copy_by_hand(
            # each faze's list in rounds is never changed once appended
            flat=("deals_played", "scores", "rounds", "tricks", "history", "opening_events",
                  "fazes", "plays", "won"),
            nested=("hands", "taken"))

    # --- views -----------------------------------------------------------------

    def zones(self) -> list[Zone]:
        zones = [
            Zone(f"hand:{p}", ZoneKind.HAND, h, Visibility.OWNER, p)
            for p, h in enumerate(self.hands)
        ]
        zones.append(Zone("trick", ZoneKind.TRICK, [c for _, c in self.plays],
                          Visibility.PUBLIC))
        zones += [
            Zone(f"taken:{p}", ZoneKind.COLLECTION, t, Visibility.PUBLIC, p)
            for p, t in enumerate(self.taken)
        ]
        return zones

    def current_trick(self) -> list[tuple[int, Card]]:
        return list(self.plays)

    def points_taken(self) -> list[int]:
        """Each player's points in the tricks won so far this faze (no -50, no moon)."""
        return points_taken(self.faze, self.taken, self.won)

    def phase(self) -> str:
        if self.over:
            return "game over"
        return (f"faze {self.faze_index + 1} of {len(self.fazes)} ({FAZE_NAMES[self.faze]}), "
                f"trick {self.faze_tricks + 1} of {self.hand_size}")

    def facts(self) -> list[tuple[str, str]]:
        facts = [  # the faze's number and name are the phase's: said once, there
            ("Trump", "Red" if self.trump else "none"),
            ("Points", FAZE_POINTS[self.faze]),
        ]
        if self.plays:
            facts.append(("Led", COLOUR_NAMES[self.plays[0][1].suit]))
        if self.removed:
            facts.append(("Out of play", self.cards_label(self.removed)))
        return facts

    def rules_ask(self, player: int) -> str:
        """Lead G2 to open a faze, follow the led colour, or (fazes 1 and 6) play red."""
        if self.over:
            return GAME_OVER
        trump = "red is trump" if self.trump else "no trump"
        led = COLOUR_NAMES[self.plays[0][1].suit] if self.plays else None
        if self.to_act != player:
            return f"{led} was led; {trump}" if led else f"waiting for the lead; {trump}"
        if self.opening_lead:
            return f"lead {card_label(GREEN_TWO)}: the green 2 opens every faze; {trump}"
        if not self.plays:
            return f"lead any card; {trump}"
        colour = self.plays[0][1].suit
        hand = self.hands[player]
        if any(c.suit == colour for c in hand):
            return f"follow {led}; {trump}"
        if self.trump and any(c.suit == RED for c in hand):
            return f"no {led}: you must play red (red is trump)"
        return f"no {led}: play any card; {trump}"

    def seat_notes(self) -> list[str]:
        points = self.points_taken()
        notes = []
        for p in range(self.players):
            parts = ["dealer"] if p == self.dealer else []
            parts.append(plural(self.won[p], "trick"))
            if points[p] and not self.over:  # once scored, they are in the score
                parts.append(f"+{points[p]} this faze")
            notes.append(", ".join(parts))
        return notes
