"""A finished game's record as a file: ``fivefold-<game>-<table id>.json``.

The record (``docs/rules/README.md``) holds every deal, so every hand:
it is offered only once the game is over (:func:`record_file` gives None
before), attached to the final table message. ``python -m games replay``
accepts the file as it is.
"""

from __future__ import annotations

import io
import json
from typing import Any

import discord

from bot.models import StoredTable
from bot.tables.snapshots import TableSnapshot
from games.core.actionlog import ActionLog

# Written one deal and one action per line: readable in a text editor, and still JSON.
_LISTED = ("deals", "actions")


def record_filename(game: str, table_id: str) -> str:
    return f"fivefold-{game}-{table_id}.json"


def record_text(record: dict[str, Any]) -> str:
    """``record`` as JSON, one top-level key per line and one deal or action per line."""
    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    lines = []
    for key, value in record.items():
        if key in _LISTED and isinstance(value, list | ActionLog) and value:
            items = ",\n".join(f"    {compact(item)}" for item in value)
            lines.append(f"  {compact(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {compact(key)}: {compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def record_file(shown: TableSnapshot | None) -> discord.File | None:
    """The record of the game ``shown`` as an attachment; None while it is not over with a
    result (the snapshot holds the record only then), or when no game is shown."""
    if shown is None or shown.record is None:
        return None
    return record_attachment(shown.game, shown.table_id, shown.record)


def finished_record_file(table: StoredTable) -> discord.File:
    """The record of ``table``, a finished one (its record is set), as an attachment."""
    assert table.record is not None
    return record_attachment(table.game, table.id, table.record)


def record_attachment(game: str, table_id: str, record: dict[str, Any]) -> discord.File:
    """``record``, of a ``game`` played at ``table_id``, as the attachment that keeps it."""
    data = record_text(record).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=record_filename(game, table_id),
                        description=f"The record of this {game} game, to keep or replay")
