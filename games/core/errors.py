"""The errors of the rules core.

Two families, because a caller treats them differently:

* :class:`GameError`: an action that cannot be applied now (not your turn, not a
  legal card, text that does not parse, the game is over). The state is left
  unchanged and the message is fit to show the player who tried it.
* :class:`SetupError`: a game that cannot be set up as asked (player count,
  options, a deal that is not the deck, a missing seed). In a record this makes
  the record itself malformed.

:func:`clip` quotes what someone wrote inside such a message, however long it was.
"""

from __future__ import annotations


def clip(token: str, limit: int = 24) -> str:
    """``token`` quoted for a message, shortened past ``limit`` characters.

    >>> clip("S4"), clip("9" * 30)
    ("'S4'", "'999999999999999999999999...' (30 characters)")
    """
    if len(token) <= limit:
        return repr(token)
    return f"{token[:limit] + '...'!r} ({len(token)} characters)"


class FivefoldError(Exception):
    """Base of every error the rules core raises on purpose."""

    @property
    def message(self) -> str:
        """The player-safe text of the error."""
        return str(self.args[0]) if self.args else type(self).__name__


class GameError(FivefoldError):
    """An action cannot be applied; nothing changed."""


class NotYourTurn(GameError):
    """Someone acted while another player (or nobody) is to act."""


class IllegalAction(GameError):
    """The action is well formed but the rules do not allow it now."""


class UnknownAction(GameError):
    """The action text does not parse: unknown verb, card, suit or player."""


class GameOver(GameError):
    """The game has ended; no action is accepted."""


class SetupError(FivefoldError):
    """The game cannot be set up as asked (a malformed record, in replay terms)."""
