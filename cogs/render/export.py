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

from bot.models import StoredTable, TableStatus
from bot.tables.session import Session
from games.core.actionlog import ActionLog

# Written one deal and one action per line: readable in a text editor, and still JSON.
_LISTED = ("deals", "actions")


def is_final(session: Session) -> bool:
    """Whether the game at ``session`` has ended with a result (its record may be shown)."""
    game = session.game
    return (session.table.status is TableStatus.FINISHED and game is not None and game.over
            and session.table.record is not None)


def record_filename(table: StoredTable) -> str:
    return f"fivefold-{table.game}-{table.id}.json"


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


def record_file(session: Session) -> discord.File | None:
    """The finished game's record as an attachment; None while the game is not over."""
    if not is_final(session):
        return None
    return finished_record_file(session.table)


def finished_record_file(table: StoredTable) -> discord.File:
    """The record of ``table``, a finished one (its record is set), as an attachment."""
    assert table.record is not None
    data = record_text(table.record).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=record_filename(table),
                        description=f"The record of this {table.game} game, to keep or replay")
