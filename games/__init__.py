"""Fivefold's rules core: five card games as pure Python, no Discord, no database.

``games.get``, ``games.names`` and ``games.new_game`` are the registry's
(:mod:`games.core.registry`), which finds the game packages beside ``core`` and imports
each when it is first asked for (``players``, the computer players, and ``cli``, the
command line, are not games): importing ``games`` loads the rules core, no game.
"""

from games.core.registry import get, names, new_game

__all__ = ["get", "names", "new_game"]
