"""Fivefold's rules core: five card games as pure Python, no Discord, no database.

Importing ``games`` registers every game package found beside ``core`` (``players``,
the computer players, and ``cli``, the command line, are not games).
"""

import importlib
import pkgutil

from games.core.registry import get, names, new_game

_NOT_GAMES = frozenset({"core", "players", "cli"})


def _register_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg and module.name not in _NOT_GAMES:
            importlib.import_module(f"{__name__}.{module.name}")


_register_all()

__all__ = ["get", "names", "new_game"]
