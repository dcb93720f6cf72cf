"""A card table in the terminal: people play against computer players, or watch them.

It speaks with the bot's voice: cards as the buttons write them (the hand sorted as the
bot sorts it, then said in words), the same event sentences, the same facts and table
lines (:mod:`games.core.words`), the same notes on the player's own cards, and a refused
move gets the rules core's own reason.

Reads one line at a time from its input, so a test (or a pipe) can drive it:

- a number picks that move; a card with several moves (Fizzbin's discard onto a pile)
  then asks where it goes, numbered again (``back`` returns to the list);
- the game's notation (``play S4``) works too;
- ``hint`` says what the hard computer would play, as the bot's Hint button does;
- ``help`` says all this; ``quit`` or the end of the input ends the session cleanly.

A line that is not a move gets the reason and the question again; nothing is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import games
from games.core.actions import Action
from games.core.cards import Card
from games.core.errors import GameError
from games.core.events import Event
from games.core.game import Game, View
from games.core.words import fact_words, plural, table_lines
from games.core.zones import ZoneKind
from games.players.base import hint_words, perspective
from games.players.levels import Level
from games.players.match import Match, decision_rng, game_seed, make_player

HUMAN = "human"
QUIT = frozenset({"quit", "exit", "q"})
BACK = frozenset({"back", "b"})
HELP = """\
  Type the number of a move. A card with several moves then asks where it goes
  (back returns to the list). The game's notation works too (play S4, draw stack).
  hint: what the hard computer would play in your place.
  quit: leave the table."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One numbered line of the move list: a move, or a card whose moves come next."""

    label: str
    actions: tuple[Action, ...]
    card: Card | None = None  # set when the card has several moves: a second question


@dataclass(slots=True)
class Table:
    """One terminal session of ``match`` (levels may include ``human``); ``person`` is the
    name the lone person plays under (several people are ``person 1``, ``person 2``)."""

    match: Match
    input: TextIO
    output: TextIO
    person: str = "Player"
    _hinter: Any = field(default=None, init=False)

    def run(self) -> int:
        """Play the match's games in turn; the exit status (0, also when quit early)."""
        match = self.match
        self._say(f"Seed {match.seed}: --seed {match.seed} deals these games again.")
        for index in range(match.games):
            if not self._play(index):
                self._say("Goodbye.")
                return 0
        return 0

    def _play(self, index: int) -> bool:
        """Play game ``index``; False when the person quits."""
        match = self.match
        at = [0] * match.players
        for player_index in range(match.players):
            at[match.position(player_index, index)] = player_index
        levels = [match.seats[at[seat]] for seat in range(match.players)]
        names = seat_names(levels, self.person)
        seed = game_seed(match.seed, match.deal_index(index))
        game = games.new_game(match.game, match.players, dict(match.options), seed=seed)
        seated = [name if level == HUMAN else f"{name} ({level})"
                  for name, level in zip(names, levels, strict=True)]
        self._say(f"== {game.title}, game {index + 1} of {match.games}: "
                  + ", ".join(seated) + " ==")
        self._say(f"  {game.goal}")
        self._events(game.opening_events, names)
        computers = {lv: make_player(lv, match.budget) for lv in set(levels) if lv != HUMAN}
        while game.to_act is not None and not game.over:
            seat = game.to_act
            if levels[seat] == HUMAN:
                action = self._ask(game, seat, names)
                if action is None:
                    return False
            else:
                rng = decision_rng(levels[seat], seed, len(game.history), seat)
                action = computers[levels[seat]].decide(perspective(game, seat), rng).action
            self._events(game.apply(seat, action), names)
        self._say(render_end(game, names))
        return True

    def _ask(self, game: Game[Any], seat: int, names: Sequence[str]) -> Action | None:
        """The person's move at ``seat``, asked until it is one; None to quit."""
        listed = choices(game, seat, names)
        self._say(render_view(game, seat, names))
        self._say(render_choices(listed))
        while True:
            text = self._read(names[seat])
            if text is None or text.lower() in QUIT:
                return None
            if not text:
                continue
            if text.lower() == "help":
                self._say(HELP)
                continue
            if text.lower() == "hint":
                self._say(f"  Hint: {self._hint(game, seat, names)}")
                continue
            try:
                picked = pick(game, seat, listed, text)
            except GameError as exc:
                self._say(f"  {exc.message}")
                continue
            if isinstance(picked, Action):
                return picked
            action = self._where(game, picked, seat, names)
            if action is not None:
                return action
            self._say(render_choices(listed))

    def _where(self, game: Game[Any], choice: Choice, seat: int,
               names: Sequence[str]) -> Action | None:
        """The second question of a card with several moves; None to go back."""
        assert choice.card is not None
        places = [Choice(game.action_label(a, names), (a,)) for a in choice.actions]
        self._say(f"Where does {game.card_label(choice.card)} go?")
        self._say(render_choices(places, back=True))
        while True:
            text = self._read(names[seat])
            if text is None or text.lower() in BACK | QUIT:
                return None
            try:
                picked = pick(game, seat, places, text)
            except GameError as exc:
                self._say(f"  {exc.message}")
                continue
            assert isinstance(picked, Action)
            return picked

    def _hint(self, game: Game[Any], seat: int, names: Sequence[str]) -> str:
        """What the hard computer would play for ``seat``, said as the Hint button says it."""
        if self._hinter is None:
            self._hinter = make_player(Level.HARD, self.match.budget)
        rng = decision_rng("hint", game.seed or 0, len(game.history), seat)
        decision = self._hinter.decide(perspective(game, seat), rng)
        return hint_words(game.action_label(decision.action, names), decision.reason)

    def _read(self, name: str) -> str | None:
        """One line the person typed (echoed when piped, so a transcript reads as a session);
        None at the end of the input."""
        self.output.write(f"{name}> ")
        self.output.flush()
        line = self.input.readline()
        if not line:
            self._say("")
            return None
        text = line.strip()
        if not self.input.isatty():
            self._say(text)
        return text

    def _events(self, events: Sequence[Event], names: Sequence[str]) -> None:
        for event in events:
            self._say(f"  {event.describe(names)}")

    def _say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()


def choices(game: Game[Any], seat: int, names: Sequence[str]) -> list[Choice]:
    """The moves of ``seat`` as the menu offers them: every decision that is not a card,
    then each card with a move in the order of the sorted hand; a card with several moves
    is one line whose moves are asked next."""
    legal = game.legal_actions(seat)
    held = own_cards(game.view_for(seat), seat)
    by_card: dict[Card, list[Action]] = {}
    listed = []
    for action in legal:
        if action.card is not None and action.card in held:
            by_card.setdefault(action.card, []).append(action)
        else:
            listed.append(Choice(game.action_label(action, names), (action,)))
    for card in game.sorted_hand(held):
        moves = by_card.pop(card, None)
        if moves is None:
            continue
        if len(moves) == 1:
            listed.append(Choice(game.action_label(moves[0], names), (moves[0],)))
        else:
            verb = str(moves[0].verb).capitalize()
            listed.append(Choice(f"{verb} {game.card_label(card)}…", tuple(moves), card))
    return listed


def own_cards(view: View, seat: int) -> list[Card]:
    """The cards ``seat`` holds, face-up ones included."""
    return [c for z in view.zones if z.owner == seat and z.cards is not None
            and z.kind in (ZoneKind.HAND, ZoneKind.FACE_UP) for c in z.cards]


def pick(game: Game[Any], seat: int, listed: Sequence[Choice], text: str) -> Action | Choice:
    """The move ``text`` names: the action of a numbered line (or the line itself, when
    its card has several moves), or an action in notation. :class:`GameError` with the
    reason otherwise (the rules core's, for a move it refuses); nothing changes."""
    if text.isascii() and text.isdigit():
        number = int(text)
        if not 1 <= number <= len(listed):
            raise _NotAChoice(f"choose a number from 1 to {len(listed)}, or type help")
        choice = listed[number - 1]
        return choice if choice.card is not None else choice.actions[0]
    action = game.parse(text)
    reason = game.why_not(seat, action)
    if reason is not None:
        raise _NotAChoice(reason)
    return action


class _NotAChoice(GameError):
    """The person's line names no move they may make."""


def seat_names(levels: Sequence[str], person: str = "Player") -> list[str]:
    """A name per seat, as the bot names them: the person's own name (``person 1``,
    ``person 2`` when several play), then ``Computer 1``, ``Computer 2`` (the header
    gives their levels)."""
    people = sum(1 for lv in levels if lv == HUMAN)
    names = []
    humans = computers = 0
    for level in levels:
        if level == HUMAN:
            humans += 1
            names.append(person if people == 1 else f"{person} {humans}")
        else:
            computers += 1
            names.append(f"Computer {computers}")
    return names


def render_view(game: Game[Any], seat: int, names: Sequence[str]) -> str:
    """The table as ``seat`` sees it, in the bot's words: the phase, the facts, the cards
    on the table, a line per player, then their own hand, its notes and what to do."""
    public = game.view_for(None)
    ask = game.rules_ask(seat)
    lines = [f"-- {game.title} · {public.phase} --"]
    facts = fact_words(public, names, said=ask)
    if facts:
        lines.append(" · ".join(facts))
    lines.extend(table_lines(type(game), public, names))
    lines.extend(player_lines(public, names))
    hand = game.sorted_hand([c for z in game.view_for(seat).zones
                             if z.owner == seat and z.kind is ZoneKind.HAND
                             and z.cards is not None for c in z.cards])
    lines.append(f"Your hand: {game.cards_label(hand) or 'no cards'}")
    if hand:
        lines.append(f"In words: {', '.join(map(game.card_name, hand))}")
    up = [c for z in game.view_for(seat).zones if z.owner == seat
          and z.kind is ZoneKind.FACE_UP and z.cards for c in z.cards]
    if up:
        lines.append(f"Face up in front of you: {game.cards_label(up)}")
    lines.extend(game.hand_notes(seat))
    lines.append(f"Your turn: {ask[:1].upper()}{ask[1:]}.")
    return "\n".join(lines)


def player_lines(view: View, names: Sequence[str]) -> list[str]:
    """One line per player: the turn marker, name, score, cards in hand, the game's note."""
    hands = {z.owner: z.count for z in view.zones if z.kind is ZoneKind.HAND}
    lines = []
    for seat, name in enumerate(names):
        bits = [("▶ " if view.to_act == seat else "") + name, plural(view.scores[seat], "pt")]
        if seat in hands:
            bits.append(plural(hands[seat], "card"))
        if seat < len(view.seat_notes) and view.seat_notes[seat]:
            bits.append(view.seat_notes[seat])
        lines.append(" · ".join(bits))
    return lines


def render_choices(listed: Sequence[Choice], *, back: bool = False) -> str:
    """The numbered moves, and what else may be typed."""
    rows = [f"  {i}. {choice.label}" for i, choice in enumerate(listed, 1)]
    more = "back, " if back else ""
    return f"Your move (a number, {more}hint, help or quit):\n" + "\n".join(rows)


def render_end(game: Game[Any], names: Sequence[str]) -> str:
    """The final scores and the winners."""
    scores = ", ".join(f"{names[s]} {plural(game.scores[s], 'pt')}"
                       for s in range(game.players))
    winners = " and ".join(names[s] for s in game.winners) or "nobody"
    return f"Game over. Scores: {scores}. Winner: {winners}."


__all__ = ["HUMAN", "Choice", "Table", "choices", "pick", "render_view", "seat_names"]
