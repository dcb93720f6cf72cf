"""The registry of games: each game package registers its class on import.

The game packages are found, not listed: every package beside ``core`` in ``games/`` but
the ones that are not games (:data:`NOT_GAMES`). None is imported before it is asked for:
:func:`get` imports the package of the game it is asked for, and :func:`names` every game
package the first time it is called, so importing the registry (or ``games``) loads no
game.

>>> "fiasco" in names()
True
>>> get("fiasco").min_players, get("fiasco").max_players
(2, 6)
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.core.errors import SetupError
from games.core.game import Game

_GAMES: dict[str, type[Game[Any]]] = {}

PACKAGE = __name__.split(".")[0]
"""The package the game packages sit in (``games``)."""
FOLDER = Path(__file__).resolve().parents[1]
"""Its folder, where the game packages are found."""
NOT_GAMES = frozenset({"core", "players", "cli"})
"""The packages beside the games that are not games: the rules core, the computer players
and the command line."""


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Class decorator: make ``cls`` findable by its ``name``."""
    if cls.name in _GAMES and _GAMES[cls.name] is not cls:
        raise ValueError(f"a game called {cls.name!r} is registered already")
    _GAMES[cls.name] = cls
    return cls


@functools.cache
def game_packages() -> tuple[str, ...]:
    """The names of the game packages in :data:`FOLDER`, sorted (none imported)."""
    return tuple(sorted(found.name for found in pkgutil.iter_modules([str(FOLDER)])
                        if found.ispkg and found.name not in NOT_GAMES))


@functools.cache
def _load_all() -> None:
    """Import every game package, once (each game class registers itself)."""
    for package in game_packages():
        importlib.import_module(f"{PACKAGE}.{package}")


def names() -> list[str]:
    """Every game's name, sorted (the game packages are imported the first time)."""
    _load_all()
    return sorted(_GAMES)


def get(name: str) -> type[Game[Any]]:
    """The game called ``name``; :class:`SetupError` if there is none. Its package (a game
    is named as its package) is imported the first time it is asked for."""
    key = str(name).lower()
    if key not in _GAMES:
        if key in game_packages():
            importlib.import_module(f"{PACKAGE}.{key}")
        else:
            _load_all()
    cls = _GAMES.get(key)
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
