"""A card table in the terminal: people play against computer players, or watch them.

Reads one line at a time from its input, so a test (or a pipe) can drive it: a
number picks that legal action, anything else is read as the game's notation
(``play S4``), ``quit`` or the end of the input ends the session cleanly. A line
that is not a legal action gets the reason and the prompt again; nothing is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import games
from games.core.actions import Action
from games.core.errors import GameError
from games.core.events import Event
from games.core.game import Game, View
from games.core.words import plural
from games.core.zones import ZoneKind, ZoneView
from games.players.base import perspective
from games.players.levels import Level
from games.players.match import Match, decision_rng, game_seed, make_player

HUMAN = "human"
QUIT = frozenset({"quit", "exit", "q"})


@dataclass(slots=True)
class Table:
    """One terminal session of ``match`` (levels may include ``human``)."""

    match: Match
    input: TextIO
    output: TextIO

    def run(self) -> int:
        """Play the match's games in turn; the exit status (0, also when quit early)."""
        for index in range(self.match.games):
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
        names = seat_names(levels)
        seed = game_seed(match.seed, match.deal_index(index))
        game = games.new_game(match.game, match.players, dict(match.options), seed=seed)
        self._say(f"== {game.title}, game {index + 1} of {match.games}: "
                  + ", ".join(names) + " ==")
        self._events(game.opening_events, names)
        computers = {lv: make_player(Level(lv), match.budget) for lv in set(levels) if lv != HUMAN}
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
        """The person's action at ``seat``, asked until it is legal; None to quit."""
        legal = game.legal_actions(seat)
        self._say(render_view(game, game.view_for(seat), names))
        self._say(render_legal(game, legal, names))
        while True:
            self.output.write(f"{names[seat]}> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                self._say("")
                return None
            text = line.strip()
            if not self.input.isatty():
                self._say(text)  # what a pipe typed, so the transcript reads as a session
            if text.lower() in QUIT:
                return None
            if not text:
                continue
            try:
                return pick(game, legal, text)
            except GameError as exc:
                self._say(f"  {exc.message}")

    def _events(self, events: Sequence[Event], names: Sequence[str]) -> None:
        for event in events:
            self._say(f"  {event.describe(names)}")

    def _say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()


def pick(game: Game[Any], legal: Sequence[Action], text: str) -> Action:
    """The legal action ``text`` names: its number in the list, or its notation.

    Raises :class:`GameError` with the reason otherwise (and changes nothing).
    """
    if text.isascii() and text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise _NotAChoice(f"choose a number from 1 to {len(legal)}, or type an action")
    action = game.parse(text)
    if action not in legal:
        raise _NotAChoice(f"{action} is not one of your legal actions now")
    return action


class _NotAChoice(GameError):
    """The person's line names no legal action."""


def seat_names(levels: Sequence[str]) -> list[str]:
    """A name per seat: "You" for a lone person, else "Player 2"; computers by level."""
    people = sum(1 for lv in levels if lv == HUMAN)
    names = []
    for seat, level in enumerate(levels):
        if level == HUMAN:
            names.append("You" if people == 1 else f"Player {seat}")
        else:
            names.append(f"Computer {seat} ({level})")
    return names


def render_view(game: Game[Any], view: View, names: Sequence[str]) -> str:
    """The table as ``view.viewer`` sees it: phase, facts, scores, trick, every zone."""
    lines = [f"-- {view.phase} --"]
    lines.extend(f"{key}: {value}" for key, value in view.facts)
    scores = ", ".join(f"{names[s]} {view.scores[s]}" for s in range(view.players))
    lines.append(f"Scores: {scores}")
    notes = [f"{names[s]}: {n}" for s, n in enumerate(view.seat_notes) if n]
    if notes:
        lines.append("Notes: " + "; ".join(notes))
    if view.trick:
        played = ", ".join(f"{names[s]} {card}" for s, card in view.trick)
        lines.append(f"On the table: {played}")
    for zone in view.zones:
        if zone.owner == view.viewer and zone.cards is not None and zone.kind is ZoneKind.HAND:
            continue
        lines.append(f"{zone_title(zone, names)}: {zone_cards(zone)}")
    for zone in view.zones:
        if zone.owner == view.viewer and zone.cards is not None and zone.kind is ZoneKind.HAND:
            hand = ", ".join(f"{c} ({game.card_name(c)})" for c in zone.cards) or "(empty)"
            lines.append(f"Your hand: {hand}")
    return "\n".join(lines)


def zone_title(zone: ZoneView, names: Sequence[str]) -> str:
    """``hand:2`` -> ``hand of Computer 2 (hard)``; other zones keep their name."""
    base, _, _ = zone.name.partition(":")
    return f"{base} of {names[zone.owner]}" if zone.owner is not None else zone.name


def zone_cards(zone: ZoneView) -> str:
    if zone.cards is None:
        return f"{plural(zone.count, 'card')} (hidden)"
    return " ".join(card.text for card in zone.cards) or "-"


def render_legal(game: Game[Any], legal: Sequence[Action], names: Sequence[str]) -> str:
    """The legal actions, numbered, in notation and in words."""
    rows = [f"  {i}. {a}  ({game.action_label(a, names)})" for i, a in enumerate(legal, 1)]
    return "Your move (a number, an action, or quit):\n" + "\n".join(rows)


def render_end(game: Game[Any], names: Sequence[str]) -> str:
    """The final scores and the winners."""
    scores = ", ".join(f"{names[s]} {game.scores[s]}" for s in range(game.players))
    winners = " and ".join(names[s] for s in game.winners) or "nobody"
    return f"Game over. Scores: {scores}. Winner: {winners}."


__all__ = ["HUMAN", "Table", "pick", "render_view", "seat_names"]
