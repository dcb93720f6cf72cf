"""Refusals of the table service, each with a message fit to show the person who asked.

Each refusal is worded here once, whichever way it is reached (a button, a command, a
computer's turn), so a person hears the same reason for the same thing.
"""

from __future__ import annotations

from bot.tables.snapshots import MenuSnapshot


class TableError(Exception):
    """A request about a table that cannot be done now; nothing changed.

    ``menu`` is the asker's hand menu as the table is now, when the refusal met them at a
    running table they sit at (the answer shows it under the reason); None otherwise. The
    action path attaches it (:meth:`bot.tables.actions.Actions.act`): the snapshots never
    import the refusals, so this import closes no circle.
    """

    def __init__(self, message: str = "that cannot be done now", *,
                 menu: MenuSnapshot | None = None) -> None:
        super().__init__(message)
        self.menu = menu

    @property
    def message(self) -> str:
        return str(self.args[0])


class NoSuchTable(TableError):
    """A custom id or command names a table this bot does not know."""


class TableClosed(TableError):
    """The table has finished or was cancelled."""


class StaleMenu(TableError):
    """A hand menu older than the table's state was clicked."""


class TableMoved(StaleMenu):
    """The store had a newer copy of the table than this process (another process saved a
    move first): nothing was applied, and the table was reloaded as the store has it."""


class NotAllowed(TableError):
    """The rules refuse the action now; the message is their reason (``Game.why_not``)."""


class NotOurShard(TableError):
    """A request about a server whose shard another process holds; refused, nothing changed
    (:mod:`bot.shards`)."""


MOVED_ELSEWHERE = ("this table moved on elsewhere (another copy of the bot saved a newer "
                   "move first), so that was not applied; here it is as it is now")
"""What a person is told when their click met a stale copy of the table (:class:`TableMoved`)."""
NOT_SEATED = "you are not seated at this table; the table message shows everything public"
"""What a person who holds no seat is told when they ask for a hand, act, or ask a hint."""
STALE = "that menu was out of date; here is your hand as it is now"
"""What a click on a hand menu drawn before the seat's last action is told."""
NOT_STARTED = "the game has not started yet"
SEAT_GONE = "you no longer hold that seat (a computer plays it now), so its cards are not shown"
"""What a person is told when their seat passed to a computer while their hand was on its way."""
UNKNOWN_TABLE = "that button is not from a table I know"
NO_TABLE_HERE = "there is no table here; /play opens one"
TABLE_HERE = "there is already a table here"
OTHER_SHARD = ("this server is played by another of the bot's processes (shard {shard} of "
               "{count}); nothing changed, try again in a moment")
"""What :class:`NotOurShard` says, with the server's shard and the bot's count filled in."""
