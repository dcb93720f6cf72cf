"""What a game teaches the hard level's search beyond its :class:`~games.players.base.Knowledge`.

The easy level and the frozen ``hard-2026-12`` read only the knowledge; the hard level
also asks the game's :class:`Advice`, when it has one, for:

* **candidates**: the legal moves worth searching, best first by the rules of thumb.
  A search over fewer candidates plays each of them out on more worlds, so a game with
  many near-equal moves (Fizzbin's 28 discards) prunes the hopeless ones first;
* **sample**: a world drawn from a better model of the hidden cards (Fiasco weighs the
  unseen cards by how likely the other players' plays were with them).

A game without advice is searched as the knowledge alone allows: every legal move,
worlds from :meth:`Knowledge.sample`. Advice is registered per game by
``games/<game>/computer/advice.py``, imported the first time :func:`advice_for` is
asked about the game (not with :mod:`games.players`: the advice builds on the game's
knowledge module, which imports :mod:`games.players` itself).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Protocol

from games.players.base import Perspective, SearchState, knowledge_for


class Advice(Protocol):
    """A game's advice to the hard level's search. One instance per game, registered."""

    game: str

    def candidates(self, p: Perspective) -> Sequence[int]:
        """Indices into ``p.legal`` worth searching, best first (ties in the search go to
        the earlier); never empty."""
        ...

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        """A world consistent with ``p`` (as :meth:`Knowledge.sample`), from ``rng``."""
        ...


_ADVICE: dict[str, Advice] = {}
_LOOKED: set[str] = set()


def register_advice(advice: Advice) -> Advice:
    """Register ``advice`` under its game's name (each game's advice module calls it once)."""
    _ADVICE[advice.game] = advice
    return advice


def advice_for(game: str) -> Advice | None:
    """The advice of ``game`` (its advice module imported the first time), or ``None``."""
    if game not in _ADVICE and game not in _LOOKED:
        _LOOKED.add(game)
        try:
            importlib.import_module(f"games.{game}.computer.advice")
        except ModuleNotFoundError as exc:
            if not f"games.{game}.computer.advice".startswith(exc.name or "?"):
                raise  # the module exists but something it imports does not
    return _ADVICE.get(game)


class KnowledgeOnly:
    """The advice of a game that gives none: every legal move, the knowledge's worlds."""

    def __init__(self, game: str) -> None:
        self.game = game

    def candidates(self, p: Perspective) -> Sequence[int]:
        return range(len(p.legal))

    def sample(self, p: Perspective, rng: random.Random) -> SearchState:
        know = knowledge_for(p.game)
        assert know is not None, f"{p.game} has no knowledge"
        return know.sample(p, rng)


__all__ = ["Advice", "KnowledgeOnly", "advice_for", "register_advice"]
