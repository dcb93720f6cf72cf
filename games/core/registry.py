"""The registry of games: each game package registers its class on import.

>>> import games
>>> "fiasco" in names()
True
>>> get("fiasco").min_players, get("fiasco").max_players
(2, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.errors import SetupError
from games.core.game import Game

_GAMES: dict[str, type[Game[Any]]] = {}


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Class decorator: make ``cls`` findable by its ``name``."""
    if cls.name in _GAMES and _GAMES[cls.name] is not cls:
        raise ValueError(f"a game called {cls.name!r} is registered already")
    _GAMES[cls.name] = cls
    return cls


def names() -> list[str]:
    """The registered games' names, sorted."""
    return sorted(_GAMES)


def get(name: str) -> type[Game[Any]]:
    """The game called ``name``; :class:`SetupError` if there is none."""
    cls = _GAMES.get(str(name).lower())
    if cls is None:
        raise SetupError(f"unknown game {name!r} (games: {', '.join(names())})")
    return cls


def new_game(
    name: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    deals: Sequence[Mapping[str, Any]] = (),
    **context: Any,
) -> Game[Any]:
    """Set up a game of ``name``; :class:`SetupError` if it cannot be set up as asked.

    ``context`` carries what the application passes in that is not part of the
    record's rules (Fizzbin's clock, for example). A caller that knows the game
    gets it typed from the game's class instead (``Fiasco.new(3)``: :meth:`Game.new`).
    """
    return get(name).new(players, options, seed=seed, dealer=dealer, deals=deals, **context)
