"""How a table is laid out: a small head row plus one row per action (in both stores).

A durable action must cost the same at action 1,000 as at action 1, so the
record's actions are not rewritten on every save. ``tables.doc`` holds the
:class:`~bot.models.StoredTable` with its record's ``"actions"`` replaced by
their count; ``table_actions`` holds the actions, one row each. Saving a table
upserts the head (its size does not grow with the actions) and inserts only
the actions the database does not have yet; loading puts the list back.

A finished game with a result is stored once: its record is
``results.record``, the table's head keeps ``"record": null`` and its action
rows are deleted in the transaction that writes the result.

Saving compares versions: a table of version ``n`` replaces only the stored
version ``n - 1``; anything else raises :class:`~bot.store.api.StaleTable` and
the caller's savepoint undoes the write. A new table is inserted, and the
partial unique index ``tables_open_channel`` refuses a second open table in
one channel (:class:`~bot.store.api.ChannelTaken`).

:func:`split_record` and :func:`rebuild` are the layout itself, shared with the
PostgreSQL store (:mod:`bot.store.postgres.store`); every other function here is SQLite's,
synchronous, and runs on the store's thread (:mod:`bot.store.sqlite.thread`), inside a
transaction the caller opened.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.models import GameResult, StoredTable, TableStatus
from bot.store.api import ChannelTaken, StaleTable

INSERT_HEAD = """
INSERT INTO tables (id, guild_id, channel_id, message_id, host_id, game,
                    status, doc, created_at, updated_at, version)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

# The common save (a table in play whose status did not change) leaves ``status``
# out of SET: SQLite rewrites an index entry whenever its column is SET, even to
# the same value, and tables_status would cost one more page per action.
_UPDATE_SAME_STATUS = """
UPDATE tables SET guild_id = ?, channel_id = ?, message_id = ?, host_id = ?, game = ?,
                  doc = ?, created_at = ?, updated_at = ?, version = ?
WHERE id = ? AND version = ? AND status = ?
"""

_UPDATE = """
UPDATE tables SET guild_id = ?, channel_id = ?, message_id = ?, host_id = ?, game = ?,
                  doc = ?, created_at = ?, updated_at = ?, version = ?, status = ?
WHERE id = ? AND version = ?
"""

_SELECT = """
SELECT t.id, t.doc, t.status, r.record AS final
FROM tables AS t LEFT JOIN results AS r ON r.table_id = t.id
"""


class CorruptTableError(RuntimeError):
    """A stored table's head and action rows disagree; it cannot be rebuilt as it is."""


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime; a naive one is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    """The fixed-width UTC ISO string stored for ``moment`` (sorts correctly as text)."""
    return utc(moment).isoformat(timespec="microseconds")


def dump(value: Any) -> str:
    """Compact JSON, as every document and action is stored."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def result_record(result: GameResult, table: StoredTable | None) -> str:
    """A finished game's record as stored once with its result (``Store.record_result``).

    ValueError when ``table``, saved in the same transaction, holds another record.
    """
    if table is not None and table.record != result.record:
        raise ValueError(f"table {table.id}'s record is not the result's record")
    return dump(result.model_dump(mode="json")["record"])


def split_record(table: StoredTable, *, record_in_results: bool = False
                 ) -> tuple[str, list[str] | None]:
    """The table's head document (its record's actions replaced by their count) and the
    actions as JSON texts, to store one row each; None when there is no list of actions.

    Both stores lay a table out this way. With ``record_in_results`` the head
    keeps no record (it is being written as the result's).
    """
    record = None if record_in_results else table.record
    actions = record.get("actions") if record is not None else None
    if record is not None and isinstance(actions, list):
        record = {**record, "actions": len(actions)}
    else:
        actions = None
    head = table.model_copy(update={"created_at": utc(table.created_at),
                                    "updated_at": utc(table.updated_at), "record": record})
    texts = None if actions is None else [dump(action) for action in actions]
    return head.model_dump_json(), texts


def rebuild(table_id: str, doc: str, status: str, final: str | None,
            actions: Callable[[], list[str]]) -> StoredTable:
    """A stored head back to a whole table: its actions (read by ``actions()`` only when the
    head counts some) put back, or its result's ``final`` record for a finished game."""
    data = json.loads(doc)
    record = data.get("record")
    if record is None and final is not None and status == TableStatus.FINISHED:
        data["record"] = json.loads(final)
    elif isinstance(record, dict) and isinstance(record.get("actions"), int):
        texts = actions()
        if len(texts) != record["actions"]:
            raise CorruptTableError(f"table {table_id} should have {record['actions']} actions "
                                    f"but {len(texts)} are stored")
        record["actions"] = json.loads("[" + ",".join(texts) + "]")
    return StoredTable.model_validate(data)


def write_table(conn: sqlite3.Connection, table: StoredTable, *, record_in_results: bool = False
                ) -> None:
    """Save ``table``'s head (compare and set) and append the actions beyond the stored ones.

    With ``record_in_results`` the record is not kept with the table (the
    caller is writing it as the result's record in the same transaction).
    """
    doc, actions = split_record(table, record_in_results=record_in_results)
    created, updated = iso(table.created_at), iso(table.updated_at)
    _write_head(conn, table, (table.guild_id, table.channel_id, table.message_id,
                              table.host_id, table.game, doc, created, updated))
    if actions is None:
        delete_actions(conn, table.id)
    else:
        _append_actions(conn, table.id, actions)


def _write_head(conn: sqlite3.Connection, table: StoredTable, fields: tuple[Any, ...]) -> None:
    """Compare and set the table's head row: replace version ``n - 1``, or insert a new table.

    Raises :class:`StaleTable` when the stored version is not ``n - 1`` and
    :class:`ChannelTaken` when the channel already has another open table.
    """
    version, status = table.version, table.status.value
    try:
        if conn.execute(_UPDATE_SAME_STATUS,
                        (*fields, version, table.id, version - 1, status)).rowcount:
            return
        if conn.execute(_UPDATE, (*fields, version, status, table.id, version - 1)).rowcount:
            return
        stored = conn.execute("SELECT version FROM tables WHERE id = ?", (table.id,)).fetchone()
        if stored is not None:
            raise StaleTable(table.id, version, int(stored[0]))
        conn.execute(INSERT_HEAD, (table.id, *fields[:5], status, *fields[5:], version))
    except sqlite3.IntegrityError as error:
        if "tables.channel_id" not in str(error):
            raise
        raise ChannelTaken(table.id, table.channel_id) from error


def delete_actions(conn: sqlite3.Connection, table_id: str) -> None:
    """Drop every stored action of the table (its record is gone or kept elsewhere)."""
    conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))


def _append_actions(conn: sqlite3.Connection, table_id: str, actions: list[str]) -> None:
    """Insert the actions (JSON texts) after those already stored (usually just the newest).

    The stored actions are taken to be a prefix of ``actions`` if the last of
    them matches; otherwise (a record replaced by another, or rewound) they are
    all rewritten, which is correct but costs the whole record once.
    """
    last = conn.execute(
        "SELECT n, action FROM table_actions WHERE table_id = ? ORDER BY n DESC LIMIT 1",
        (table_id,),
    ).fetchone()
    stored = 0 if last is None else int(last[0]) + 1
    if stored > len(actions) or (stored and actions[stored - 1] != last[1]):
        delete_actions(conn, table_id)
        stored = 0
    conn.executemany(
        "INSERT INTO table_actions (table_id, n, action) VALUES (?, ?, ?)",
        [(table_id, n, action) for n, action in enumerate(actions[stored:], stored)],
    )


def read_tables(conn: sqlite3.Connection, where: str, params: tuple[Any, ...]
                ) -> list[StoredTable]:
    """The tables matching ``where`` (SQL on alias ``t``), oldest first, records rebuilt."""
    rows = conn.execute(f"{_SELECT} WHERE {where} ORDER BY t.created_at, t.id", params).fetchall()
    return [_table_from_row(conn, row) for row in rows]


def _table_from_row(conn: sqlite3.Connection, row: sqlite3.Row) -> StoredTable:
    """One head row back to a whole table: its actions from their rows, or its result's record."""
    def actions() -> list[str]:
        return [r[0] for r in conn.execute(
            "SELECT action FROM table_actions WHERE table_id = ? ORDER BY n", (row["id"],))]

    return rebuild(row["id"], row["doc"], row["status"], row["final"], actions)


__all__ = ["INSERT_HEAD", "CorruptTableError", "delete_actions", "dump", "iso", "read_tables",
           "rebuild", "split_record", "utc", "write_table"]
