"""What happens after a table changes: one protocol the service's parts tell.

The parts that change a table (:mod:`bot.tables.actions`, :mod:`bot.tables.changes`,
:mod:`bot.tables.restart`) do not know one another: after a change they tell a
:class:`TableEvents`, and the service (:class:`bot.tables.service.TableService`) hands
them the one object that answers, so what each event leads to is read in one place.
"""

from __future__ import annotations

from typing import Protocol

from bot.store.api import StaleTable
from bot.tables.session import Session


class TableEvents(Protocol):
    """What the service does after a part changed a table."""

    def changed(self, session: Session) -> None:
        """The table changed: the Discord layer shows it (its table message, the menus)."""

    def next_turn(self, session: Session) -> None:
        """The table was saved: the turn under way gets what it needs (a computer's move,
        a turn timer), started again if it was lost (:mod:`bot.tables.scheduler`)."""

    async def reload(self, session: Session, stale: StaleTable) -> None:
        """The store holds a newer version than ``session`` (another process saved first):
        take the store's copy (:meth:`bot.tables.restart.Restart.reload`)."""

    def closed(self, session: Session) -> None:
        """The table's game has just finished: the table is let go (its channel is free)."""


__all__ = ["TableEvents"]
