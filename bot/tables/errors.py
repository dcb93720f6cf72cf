"""Refusals of the application layer, each with a message fit to show the person who asked."""

from __future__ import annotations


class TableError(Exception):
    """A request about a table that cannot be done now; nothing changed."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else "that cannot be done now"


class NoSuchTable(TableError):
    """A custom id or command names a table this bot does not know."""


class TableClosed(TableError):
    """The table has finished or was cancelled."""


class StaleMenu(TableError):
    """A hand menu older than the table's state was clicked."""


class TableMoved(StaleMenu):
    """The store had a newer copy of the table than this process (another process saved a
    move first): nothing was applied, and the table was reloaded as the store has it."""


MOVED_ELSEWHERE = ("this table moved on elsewhere (another copy of the bot saved a newer "
                   "move first), so that was not applied; here it is as it is now")
"""What a person is told when their click met a stale copy of the table (:class:`TableMoved`)."""
