"""The interface every game implements, and the machinery they share.

A game is a state with one mutating entry point, :meth:`Game.apply`, which
always validates and returns :class:`~games.core.events.Event` s. Subclasses
declare their notation (``verbs``, ``full_deck``, ``suit_letters``: the core builds the
:class:`~games.core.actions.Grammar`) and implement the rules in a handful of hooks:

* ``_legal(player)``: the legal actions of the player to act;
* ``_do(player, action)``: carry out an action already known to be legal;
* ``zones()``: every card, each in exactly one zone;
* ``_parse_deal`` / ``_shuffle_deal``: the game's deal object (a
  :class:`~games.core.dealing.Deal`, which writes itself in record form).

``Game[DealT, OptionsT]`` is generic over the game's deal object and its options model,
so that a game reads its own options, typed, as ``self.options``.

Randomness enters only through ``self.rng`` (seeded from the record's seed),
and deals given explicitly are used before any is shuffled.
"""

from __future__ import annotations

import copy
import functools
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, cast

from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar  # a default for OptionsT (typing has it from 3.13)

from games.core import errors
from games.core.actionlog import ActionLog
from games.core.actions import Action, Grammar, Param, Verb
from games.core.cards import Card, Deck
from games.core.dealing import Deal
from games.core.deallog import DealLog
from games.core.errors import GameError, GameOver, IllegalAction, NotYourTurn, SetupError
from games.core.events import Event
from games.core.option_words import options_problem
from games.core.outcome import Outcome, places
from games.core.records import Record
from games.core.zones import Zone, ZoneView, view_zone

DealT = TypeVar("DealT", bound=Deal)
GAME_OVER = "the game is over"
"""What :meth:`Game.rules_ask` says once a game has ended, in every game."""


@dataclass(frozen=True, slots=True)
class View:
    """What one viewer (a player, or ``None`` for the public) may know of a game."""

    game: str
    viewer: int | None
    players: int
    to_act: int | None
    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    phase: str
    facts: tuple[tuple[str, str], ...]
    zones: tuple[ZoneView, ...]
    trick: tuple[tuple[int, Card], ...] = ()
    seat_notes: tuple[str, ...] = ()
    teams: tuple[tuple[int, ...], ...] | None = None

    def zone(self, name: str) -> ZoneView:
        """The zone called ``name``."""
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(name)


@functools.cache
def _label_words(cls: type[Game[Any]]
                 ) -> tuple[re.Pattern[str], dict[str, str], dict[str, Card]]:
    """Every card label of ``cls``'s cards, the longest first (``🟥12`` before ``🟥1``, and
    never followed by a digit); each label's words; each label's card."""
    cards = {cls.card_label(card): card for card in cls.every_card()}
    names = {label: cls.card_name(card) for label, card in cards.items()}
    labels = sorted(names, key=len, reverse=True)
    pattern = re.compile("(?:" + "|".join(map(re.escape, labels)) + r")(?!\d)")
    return pattern, names, cards


class Options(BaseModel):
    """Base of every game's options model: strict, frozen, unknown keys refused."""

    model_config = {"extra": "forbid", "strict": True, "frozen": True}

    def check(self, players: int) -> None:
        """Raise :class:`SetupError` if these options do not fit ``players`` (each game's
        model says what does not; by default everything fits)."""


# Options by default, so that Game[Any] is any game wherever its options do not matter;
# covariant, so that every game is one.
OptionsT = TypeVar("OptionsT", bound=Options, default=Options, covariant=True)


class Game(ABC, Generic[DealT, OptionsT]):
    """One game in progress. See the module docstring for the hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[Options]]
    summary: ClassVar[str]
    scoring: ClassVar[str] = ""  # how points are won, for the first page of the rules
    goal: ClassVar[str] = ""  # the aim in one line, for the table message
    pitch: ClassVar[str] = ""  # what makes the game fun, in one line, for the lobby
    lower_is_better: ClassVar[bool] = False
    # The game's notation, from which its Grammar is built: each verb and what it takes,
    # every card the notation names (cards out of play too, so that they parse and are
    # refused as not held), and the suit letters a verb may take.
    verbs: ClassVar[Mapping[Verb, tuple[Param, ...]]]
    full_deck: ClassVar[Deck]
    suit_letters: ClassVar[str] = ""
    # The rules have a tournament timer (10 s a turn, then a random card from that hand):
    # the bot offers it for this game alone.
    tournament_rule: ClassVar[bool] = False

    def __init__(
        self,
        players: int,
        options: OptionsT,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        deals: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.rng: random.Random | None = random.Random(seed) if seed is not None else None
        if dealer is None:
            dealer = self.require_rng("the first dealer").randrange(players)
        elif not 0 <= dealer < players:
            raise SetupError(f"dealer {dealer} is not a seat (0 to {players - 1})")
        elif self.rng is not None:
            self.rng.randrange(players)  # drawn all the same: see next_deal
        self.first_dealer = dealer
        self.dealer = dealer
        self._explicit_deals: list[DealT] = [
            self._parse_deal(raw, f"deal {i + 1}") for i, raw in enumerate(deals)
        ]
        self.deals_played = DealLog()
        self.grammar = Grammar(self.verbs, deck=self.full_deck, suits=self.suit_letters,
                               players=players)
        self.to_act: int | None = None
        self.outcome: Outcome | None = None
        self.scores: list[int] = [0] * players
        self.rounds: list[list[int]] = []
        self.tricks: list[int | None] = []
        self.history = ActionLog()  # compact: see games.core.actionlog
        # What happened before the first action (a game that deals at once says so here).
        self.opening_events: list[Event] = []

    @classmethod
    def new(
        cls,
        players: int,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        deals: Sequence[Mapping[str, Any]] = (),
        **context: Any,
    ) -> Self:
        """A game of this kind set up as asked, typed as this kind (``Fiasco.new(3)`` is a
        :class:`~games.fiasco.Fiasco`); :class:`SetupError` if it cannot be set up so.

        ``options`` are checked (:func:`make_options`); ``context`` carries what the
        application passes in that is not part of the record's rules (Fizzbin's clock,
        for example). :func:`games.new_game` does the same for a game named at run time.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError("players must be a whole number")
        if not cls.min_players <= players <= cls.max_players:
            raise SetupError(
                f"{cls.title} is for {cls.min_players} to {cls.max_players} players, not {players}"
            )
        # The game's own options model checked them: its OptionsT, which the type of
        # options_model (type[Options], shared by every game) cannot say.
        opts = cast(OptionsT, make_options(cls, players, options))
        return cls(players, opts, seed=seed, dealer=dealer, deals=deals, **context)

    # --- the public interface -------------------------------------------------

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def winners(self) -> tuple[int, ...]:
        return self.outcome.winners if self.outcome else ()

    def parse(self, text: str) -> Action:
        """The action written ``text`` in this game's notation."""
        return self.grammar.parse(text)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The actions ``player`` (default: the player to act) may take now, no repeats."""
        if self.outcome is not None or self.to_act is None:
            return []
        if player is not None and player != self.to_act:
            return []
        return self._legal(self.to_act)

    def why_not(self, player: int, action: Action | str) -> str | None:
        """Why ``player`` may not take ``action`` now, in words fit to show them; None if they may.

        Asks, changes nothing: the one place a caller learns why an action is refused
        without applying it.
        """
        refusal = self._refusal(player, action)
        return None if refusal is None else refusal.message

    def apply(self, player: int, action: Action | str) -> list[Event]:
        """Validate and carry out ``player``'s ``action``; the events it caused.

        Raises a :class:`~games.core.errors.GameError` (and changes nothing) when
        the action cannot be applied now: the same reason :meth:`why_not` gives.
        """
        refusal = self._refusal(player, action)
        if refusal is not None:
            raise refusal
        if isinstance(action, str):
            action = self.grammar.parse(action)
        events = self._do(player, action)
        self.history.append(f"{player} {action}")
        return events

    def view_for(self, player: int | None, zones: Sequence[Zone] | None = None) -> View:
        """What ``player`` (``None``: the public, spectators) may see; ``zones`` are this
        game's :meth:`zones` as they are now, when the caller has them already."""
        return View(
            game=self.name,
            viewer=player,
            players=self.players,
            to_act=self.to_act,
            over=self.over,
            winners=self.winners,
            scores=tuple(self.scores),
            phase=self.phase(),
            facts=tuple(self.facts()),
            zones=tuple(view_zone(z, player) for z in (self.zones() if zones is None else zones)),
            trick=tuple(self.current_trick()),
            seat_notes=tuple(self.seat_notes()),
            teams=self.teams(),
        )

    def record(self) -> Record:
        """This game as a record (``docs/rules/README.md``) that replays it exactly: the
        caller's own copy, down to the deals' card lists, to keep or change at will.

        Built without validation: every field comes from this game, of the right type.
        """
        return Record.model_construct(
            game=self.name,
            players=self.players,
            options=self.options.model_dump(mode="json"),
            seed=self.seed,
            dealer=self.first_dealer,
            deals=self.deals_played.to_json(),
            actions=list(self.history),
        )

    def result_fields(self) -> dict[str, Any]:
        """The game-specific part of the replay output (``tricks`` by default)."""
        return {"tricks": list(self.tricks)}

    def clone(self) -> Self:
        """An independent copy of this state (immutable parts are shared)."""
        memo: dict[int, Any] = {
            id(self.options): self.options,
            id(self.grammar): self.grammar,
            id(self._explicit_deals): self._explicit_deals,
        }
        return copy.deepcopy(self, memo)

    def _copy_by_hand(self, flat: Iterable[str], nested: Iterable[str] = ()) -> Self:
        """A clone for games that name their mutable state: each of ``flat`` (lists) copied
        one level down, each of ``nested`` (lists of lists) two, everything else shared.

        Cards, actions, deals, the options and the grammar are immutable, so sharing them
        is safe; the generator is copied by its state into a bare ``Random`` (``Random()``
        would first seed itself from the operating system, most of a clone's cost). Much
        faster than :meth:`clone`'s deepcopy, for computer players' playouts.
        """
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        if self.rng is not None:
            new.rng = random.Random.__new__(random.Random)
            new.rng.setstate(self.rng.getstate())
        for name in flat:
            setattr(new, name, getattr(self, name).copy())  # a list, or the ActionLog
        for name in nested:
            setattr(new, name, [list(inner) for inner in getattr(self, name)])
        return new

    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The teams, when players play in teams."""
        return None

    def action_label(self, action: Action, names: Sequence[str] = ()) -> str:
        """A button label for ``action`` in words ("Collect Swords", "Order it up").

        ``names`` are the players' names by index, for actions that name a player.
        """
        return str(action)

    @staticmethod
    def card_label(card: Card) -> str:
        """``card`` as people read it, wherever they read one: on its button, in the table
        message, the events, the hints, the refusals and the terminal (``♥️10``, ``🗡️4``).

        The record notation (``TH``, ``S4``) is for records and the command line's JSON
        only; :meth:`card_name` says the card in words, for screen readers.
        """
        return card.text

    @classmethod
    def cards_label(cls, cards: Iterable[Card]) -> str:
        """Several cards as people read them, separated by spaces ("" for none)."""
        return " ".join(cls.card_label(card) for card in cards)

    @staticmethod
    def card_name(card: Card) -> str:
        """``card`` in words ("Swords 4", "Queen of hearts"), for screen readers and alt text."""
        return card.text

    @classmethod
    def every_card(cls) -> Deck:
        """Every card a person may read of this game: the notation's (:attr:`full_deck`),
        and any it never names (Fibonachos' Spicy cards)."""
        return cls.full_deck

    @classmethod
    def in_words(cls, text: str) -> str:
        """``text`` with every card written as people read it (:meth:`card_label`) said in
        words instead (:meth:`card_name`): a fact or a sentence made fit for alt text.

        Cards written side by side ("🔲2 🔲3") are said as a list ("Black 2, Black 3").

        >>> from games.fizzbin.game import Fizzbin
        >>> Fizzbin.in_words("Taken up: ♦️10, not ♦️A")
        'Taken up: 10 of diamonds, not Ace of diamonds'
        >>> Fizzbin.in_words("Piles: ♠️2 ♥️Q")
        'Piles: 2 of spades, Queen of hearts'
        """
        pattern, names, _ = _label_words(cls)
        run = re.compile(f"{pattern.pattern}(?: {pattern.pattern})*")
        return run.sub(lambda found: ", ".join(names[label] for label in
                                               pattern.findall(found.group(0))), text)

    @classmethod
    def card_labelled(cls, label: str) -> Card:
        """The card ``label`` writes (the inverse of :meth:`card_label`), for a reader of a
        public fact ("Taken up: ♦️2"); :class:`UnknownAction` if it names none.

        >>> from games.fizzbin.game import Fizzbin
        >>> Fizzbin.card_labelled("♦️10")
        Card('TD')
        """
        card = _label_words(cls)[2].get(label.strip())
        if card is None:
            raise errors.UnknownAction(f"there is no card {errors.clip(label)} in this game")
        return card

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Where ``card`` goes in a sorted hand: by suit in the deck's order, then by rank.

        A game whose order depends on the state (Fumblaroo's trump) overrides it.
        """
        order = self.deck_in_play().suit_order()
        return order.get(card.suit, len(order)), card.rank

    def sorted_hand(self, cards: Sequence[Card]) -> list[Card]:
        """``cards`` as a player holds them: sorted by :meth:`sort_key`."""
        return sorted(cards, key=self.sort_key)

    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards on the table in the trick under way, as (seat, card) in play order."""
        return []

    def seat_notes(self) -> list[str]:
        """A short public note per seat ("collects Swords", "called trump"), or ""."""
        return [""] * self.players

    @classmethod
    def deck_for(cls, players: int, options: Options) -> Deck:
        """The full deck this game uses with ``players`` (before removals, if any)."""
        return cls.full_deck

    def deck_in_play(self) -> Deck:
        """Every card that the zones hold between them in the current deal."""
        return self.deck_for(self.players, self.options)

    def facts(self) -> list[tuple[str, str]]:
        """Public facts worth showing on the table (trump, claimed suits, day or night)."""
        return []

    def rules_ask(self, player: int) -> str:
        """What the rules ask of ``player`` now, in one line ("follow Black; red is trump").

        Written from ``player``'s seat (their own hand and legal actions, nothing hidden
        from them), for the top of their hand menu, so they can choose without reading
        the table. Each game words its own phases; this default knows only the end and
        whose turn it is.
        """
        if self.over:
            return GAME_OVER
        if self.to_act != player:
            return "wait for your turn"
        return "choose one of the enabled buttons"

    def hand_notes(self, player: int) -> list[str]:
        """What matters in ``player``'s own cards now, a short line each, for their menu
        alone ("Fibonachos in your hand: 🟨1 🟨5", "You drew ♦️6"): what a player would
        otherwise have to work out from the rules. Nothing by default."""
        return []

    # --- hooks for each game --------------------------------------------------

    @abstractmethod
    def _legal(self, player: int) -> list[Action]:
        """The legal actions of ``player``, who is to act."""

    @abstractmethod
    def _do(self, player: int, action: Action) -> list[Event]:
        """Carry out a legal action."""

    @abstractmethod
    def zones(self) -> list[Zone]:
        """Every card of the game, each in exactly one zone."""

    @abstractmethod
    def phase(self) -> str:
        """The stage of the game in a few words ("choosing suits", "trick 3")."""

    @abstractmethod
    def _parse_deal(self, raw: Mapping[str, Any], where: str) -> DealT:
        """A deal object from a record; :class:`SetupError` if it is malformed."""

    @abstractmethod
    def _shuffle_deal(self, rng: random.Random) -> DealT:
        """A deal shuffled from ``rng``."""

    def _refusal(self, player: int, action: Action | str) -> GameError | None:
        """The error :meth:`apply` would raise for ``action``, or None when it is legal."""
        if self.outcome is not None:
            return GameOver("the game is over")
        if isinstance(action, str):
            try:
                action = self.grammar.parse(action)
            except GameError as exc:
                return exc
        if player != self.to_act:
            if not 0 <= player < self.players:
                return NotYourTurn(f"there is no seat {player} in this game")
            return NotYourTurn(f"it is seat {self.to_act}'s turn, not seat {player}'s")
        if action not in self._legal(player):
            return IllegalAction(self._why_illegal(player, action))
        return None

    def _why_illegal(self, player: int, action: Action) -> str:
        """Why ``action`` is not legal for ``player`` now, in words for that player."""
        label = self.action_label(action)
        return f"you cannot {label[:1].lower()}{label[1:]} now"

    # --- shared machinery -----------------------------------------------------

    def require_rng(self, what: str) -> random.Random:
        """The game's generator, or :class:`SetupError` when there is no seed."""
        if self.rng is None:
            raise SetupError(f"{what} must come from the seed, and the record has no seed")
        return self.rng

    def next_deal(self) -> DealT:
        """The next deal: the record's own if it has one, else shuffled from the seed.

        A deal (or first dealer) that the record gives is still drawn from the seed
        and thrown away, so the generator ends up where it would be without it: a
        record carrying the deals it has played so far goes on to the same deals as
        the game it records.
        """
        index = len(self.deals_played)
        if index < len(self._explicit_deals):
            deal = self._explicit_deals[index]
            if self.rng is not None:
                self._shuffle_deal(self.rng)
        else:
            deal = self._shuffle_deal(self.require_rng(f"deal {index + 1}"))
        self.deals_played.append(deal.to_json())
        return deal

    def finish(self, winners: Sequence[int], totals: Sequence[int] | None = None) -> None:
        """End the game with ``winners``; places come from ``totals`` (default: scores)."""
        self.outcome = Outcome(
            winners=tuple(sorted(winners)),
            places=places(totals if totals is not None else self.scores,
                          lower_is_better=self.lower_is_better),
        )
        self.to_act = None


def make_options(cls: type[Game[Any]], players: int, raw: Mapping[str, Any] | None) -> Options:
    """Validate ``raw`` options for ``cls`` with ``players``; :class:`SetupError` if wrong."""
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(cls.options_model.model_fields))
    if unknown:
        raise SetupError(f"unknown options: {unknown}")
    try:
        options = cls.options_model.model_validate(raw)
    except ValidationError as exc:
        problems = options_problem(cls.options_model, exc)
        raise SetupError(f"bad options for {cls.name}: {problems}") from None
    options.check(players)
    return options
