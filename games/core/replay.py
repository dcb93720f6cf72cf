"""Replaying a record with the rules core alone, and the replay command's output.

``replay(record)`` rebuilds the game and applies its actions in order, stopping
at the first one that cannot be applied. A malformed record raises
:class:`SetupError` (exit 2); an action that cannot be applied is reported in
the result's ``error`` (exit 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core.actions import index_below, is_number
from games.core.errors import GameError, UnknownAction, clip
from games.core.game import Game
from games.core.records import Record
from games.core.registry import new_game


@dataclass(slots=True)
class ActionFailure:
    """The first action of a record that could not be applied."""

    index: int
    action: str
    message: str


@dataclass(slots=True)
class Replay:
    """A replayed record: the game as far as it went, and what stopped it."""

    game: Game[Any]
    error: ActionFailure | None

    @property
    def exit_status(self) -> int:
        return 0 if self.error is None else 1

    def summary(self) -> dict[str, Any]:
        """The replay command's output object."""
        return summarize(self.game, self.error)


def split_action(line: str, players: int) -> tuple[int, str]:
    """``"2 play S4"`` -> ``(2, "play S4")``; :class:`UnknownAction` if it does not read."""
    head, _, rest = line.strip().partition(" ")
    if not is_number(head):
        raise UnknownAction(f"an action starts with a player number, not {clip(head)}")
    player = index_below(head, players)
    if player is None:
        raise UnknownAction(f"there is no player {clip(head)} (players are 0 to {players - 1})")
    return player, rest


def load(record: Record, **context: Any) -> Game[Any]:
    """The game a record sets up, before any action."""
    return new_game(
        record.game,
        record.players,
        record.options,
        seed=record.seed,
        dealer=record.dealer,
        deals=record.deals,
        **context,
    )


def replay(record: Record, **context: Any) -> Replay:
    """Replay ``record``; :class:`~games.core.errors.SetupError` if it is malformed."""
    game = load(record, **context)
    for index, line in enumerate(record.actions):
        try:
            player, text = split_action(line, game.players)
            game.apply(player, text)
        except GameError as exc:
            return Replay(game, ActionFailure(index, line, exc.message))
    return Replay(game, None)


def summarize(game: Game[Any], error: ActionFailure | None = None) -> dict[str, Any]:
    """The replay output object for ``game`` (see ``rules/README.md``)."""
    legal = sorted({str(a) for a in game.legal_actions()})
    out: dict[str, Any] = {
        "game": game.name,
        "over": game.over,
        "scores": list(game.scores),
        "rounds": [list(r) for r in game.rounds],
        "winners": list(game.winners),
    }
    out.update(game.result_fields())
    out["to_act"] = game.to_act
    out["legal"] = legal
    out["error"] = (
        None
        if error is None
        else {"index": error.index, "action": error.action, "message": error.message}
    )
    return out
