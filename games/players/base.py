"""What a computer player is given, what it answers, and what each game teaches it.

A computer player never sees the live :class:`~games.core.game.Game`. It is handed a
:class:`Perspective`: its seat's view, the game's history as that seat saw it, and its
legal actions. To search, it asks the game's :class:`Knowledge` for worlds consistent
with that perspective (:meth:`Knowledge.sample`), each a :class:`SearchState` on the
search fast path: integer moves, no validation, no events, no strings.

Everything here is pure and deterministic: a decision is a function of the perspective,
the generator it is given and the level's fixed budget (counted in simulated moves,
never in seconds).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self

from games.core.actions import Action
from games.core.game import Game, Options, View


@dataclass(frozen=True, slots=True)
class Perspective:
    """Everything one seat may know of a game, and nothing more. Picklable.

    ``history`` is the record's actions (``"2 play S4"``) with whatever the seat did not
    see replaced by the game's :meth:`Knowledge.redact` (a face-down discard becomes
    ``"2 discard ?"``).
    """

    game: str
    players: int
    options: Options
    seat: int
    view: View
    history: tuple[str, ...]
    legal: tuple[Action, ...]
    first_dealer: int
    dealer: int
    rounds: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer player's choice; why, in a few words said to the player it is for (the
    hint: "you keep the pair of Jacks for a Half Fizzbin"); and the search's own figures
    ("scored 78% over 569 sampled deals"), kept for whoever reads the decision in code:
    a player is never shown sample counts or percentages."""

    action: Action
    reason: str
    odds: str = ""


def hint_words(label: str, reason: str) -> str:
    """A hint as the player reads it: the move as its button says it, then why, to them.

    >>> hint_words("Discard ♥️3 onto your pile", "you keep the pair of Jacks")
    'Discard ♥️3 onto your pile: you keep the pair of Jacks.'
    """
    return f"{label}: {reason}." if reason else f"{label}."


class SearchState(Protocol):
    """One determinized world on the search fast path.

    Moves are small integers. :meth:`play` trusts its move (it must be one of
    :meth:`moves`): validation happened once, at the door. The horizon is the game's
    choice (the end of the current deal, or of the game); :meth:`values` scores it.
    """

    players: int

    def to_act(self) -> int:
        """The seat to act; -1 once :meth:`done`."""
        ...

    def done(self) -> bool:
        """Whether the search horizon is reached (the deal or the game is over)."""
        ...

    def moves(self) -> Sequence[int]:
        """The legal moves of :meth:`to_act`, in a fixed order; non-empty unless done."""
        ...

    def play(self, move: int) -> None:
        """Carry out a legal move of the seat to act (no validation)."""
        ...

    def copy(self) -> Self:
        """An independent copy (cheap: a few microseconds)."""
        ...

    def values(self) -> Sequence[float]:
        """Per seat, in [0, 1], higher is better: the outcome once done, an estimate before."""
        ...

    def rollout_move(self, rng: random.Random) -> int:
        """The rollout policy's move (the easy rules of thumb), reading only what the seat
        to act may see."""
        ...

    def action(self, move: int) -> Action:
        """The rules core's action for ``move``."""
        ...

    def move(self, action: Action) -> int:
        """The move for the rules core's ``action``."""
        ...


class Knowledge(Protocol):
    """What one game teaches its computer players. One instance per game, registered."""

    game: str

    def redact(self, seat: int, actor: int, action: str) -> str:
        """``actor``'s ``action`` (notation, without the player number) as ``seat`` saw it."""
        ...

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        """A full world consistent with everything ``p`` has seen, drawn from ``rng``.

        Built in a canonical order (sorted, never set or dict-hash order) so that two
        perspectives that are equal give equal worlds from equal generators; the world
        holds no generator of the game's (no future deal leaks).
        """
        ...

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        """The easy level's choice: rules of thumb with a little noise from ``rng``."""
        ...

    def why(self, p: Perspective, action: Action) -> str:
        """``action`` in a few words of strategy ("wins the trick cheaply"), for hints."""
        ...

    def from_game(self, game: Game[Any]) -> SearchState:
        """The exact state of ``game`` on the fast path. For tests and measurements only:
        no computer player may call it."""
        ...


_KNOWLEDGE: dict[str, Knowledge] = {}


def register_knowledge(knowledge: Knowledge) -> Knowledge:
    """Register ``knowledge`` under its game's name (each game module calls it once)."""
    _KNOWLEDGE[knowledge.game] = knowledge
    return knowledge


def knowledge_for(game: str) -> Knowledge | None:
    """The registered knowledge of ``game``, or ``None`` when it has none yet."""
    return _KNOWLEDGE.get(game)


def perspective(game: Game[Any], seat: int) -> Perspective:
    """What ``seat`` may know of ``game``: the only door from a live game to a player."""
    know = knowledge_for(game.name)
    history: list[str] = []
    for entry in game.history:
        actor_text, _, action = entry.partition(" ")
        actor = int(actor_text)
        if know is not None and actor != seat:
            action = know.redact(seat, actor, action)
        history.append(f"{actor} {action}")
    return Perspective(
        game=game.name,
        players=game.players,
        options=game.options,
        seat=seat,
        view=game.view_for(seat),
        history=tuple(history),
        legal=tuple(game.legal_actions(seat)),
        first_dealer=game.first_dealer,
        dealer=game.dealer,
        rounds=tuple(tuple(r) for r in game.rounds),
    )


__all__ = [
    "Decision",
    "Knowledge",
    "Perspective",
    "SearchState",
    "hint_words",
    "knowledge_for",
    "perspective",
    "register_knowledge",
]
