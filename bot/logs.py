"""Log lines that name their table: a context variable, a filter, two formats.

Work on one table (a click, a computer's turn, an edit of its message, the expiry of
it) runs with :data:`TABLE` set to the table's id: :func:`about_table` sets it for a
block, :func:`working_on` for the rest of the current task (asyncio copies context
into each task, so one table's id never leaks into another's). :class:`TableFilter`
copies it onto every record as ``record.table``, discord.py's own lines included (its
"we are being rate limited" inside a table's edit names that table).

``LOG_FORMAT=text`` (the default) prefixes such lines with ``[table <id>]``;
``LOG_FORMAT=json`` writes one JSON object a line, with a ``table`` key when there
is one, for a log collector.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Literal

TABLE: ContextVar[str | None] = ContextVar("table", default=None)
"""The id of the table the running code is working on, if any."""

LogFormat = Literal["text", "json"]
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(table_prefix)s%(message)s"


@contextlib.contextmanager
def about_table(table_id: str) -> Iterator[None]:
    """Within this block, log lines name ``table_id``."""
    token = TABLE.set(table_id)
    try:
        yield
    finally:
        TABLE.reset(token)


def working_on(table_id: str) -> None:
    """From here to the end of the current task, log lines name ``table_id``."""
    TABLE.set(table_id)


def table_of(record: logging.LogRecord) -> str | None:
    """The table a record is about (set by :class:`TableFilter`), if any."""
    table = getattr(record, "table", None)
    return table if isinstance(table, str) else None


class TableFilter(logging.Filter):
    """Puts the current table's id on each record (``table``, and ``table_prefix`` for text)."""

    def filter(self, record: logging.LogRecord) -> bool:
        table = table_of(record) or TABLE.get()
        record.table = table
        record.table_prefix = f"[table {table}] " if table else ""
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, table (if any), message, exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        table = table_of(record)
        if table is not None:
            line["table"] = table
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def handler(log_format: LogFormat = "text") -> logging.Handler:
    """A stderr handler in ``log_format`` whose lines name their table."""
    out = logging.StreamHandler(sys.stderr)
    out.addFilter(TableFilter())
    out.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    return out


def configure(level: str, log_format: LogFormat = "text") -> None:
    """Send every log line (the bot's and discord.py's) to stderr at ``level``."""
    logging.basicConfig(level=level, handlers=[handler(log_format)], force=True)


__all__ = ["TABLE", "JsonFormatter", "LogFormat", "TableFilter", "about_table", "configure",
           "handler", "table_of", "working_on"]
