"""The ``/tables`` listing (:func:`bot.tables.watching.listing`): the public open tables,
newest first, and between two opened at the same moment of the clock, the one opened
later first."""

from __future__ import annotations

import datetime as dt

from bot.models import TableStatus
from bot.tables.session import Session
from bot.tables.watching import listing
from tests.bot.tables.test_registry import T0, stored


def opened(table_id: str, *, at: dt.datetime = T0, **more) -> Session:
    table = stored(table_id, channel=hash(table_id) % 1000 + 1, message_id=5, **more)
    return Session(table.model_copy(update={"created_at": at}))


def test_the_newest_table_comes_first():
    old, new = opened("zzz", at=T0), opened("aaa", at=T0 + dt.timedelta(minutes=1))
    assert [t.table_id for t in listing([old, new])] == ["aaa", "zzz"]
    assert [t.table_id for t in listing([new, old])] == ["aaa", "zzz"]


def test_tables_opened_at_the_same_moment_list_the_later_opened_first_whatever_their_ids():
    for first, second in [("aaa", "zzz"), ("zzz", "aaa")]:
        earlier, later = opened(first), opened(second)
        assert [t.table_id for t in listing([earlier, later])] == [second, first]


def test_closed_private_and_unposted_tables_are_not_listed():
    shown = opened("shown")
    closed = opened("closed", status=TableStatus.FINISHED)
    private = opened("private", daily="2026-03-01")  # a daily deal: one person's alone
    unposted = Session(stored("unposted", channel=9))
    assert [t.table_id for t in listing([shown, closed, private, unposted])] == ["shown"]
