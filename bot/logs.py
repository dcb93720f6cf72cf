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

No line carries a secret, at any level (:class:`SecretFilter`): an interaction's token
(whoever has it can read and edit that person's private hand menu for 15 minutes) is
cut out of discord.py's URLs and payloads, the bot's token and a database password
(``user:password@`` or ``?password=``) are hidden, and the payloads discord.py logs at
``DEBUG`` (a hand menu's content, a click's message) are left out.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any, Literal, TextIO

from bot.store.url import redact

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


_TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9._~-]+")
"""An interaction's token in a URL: ``/interactions/<id>/<token>/callback``,
``/webhooks/<application>/<token>/messages/@original``."""
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]*""")
"""A ``token`` key of a payload (an interaction's, the gateway's IDENTIFY)."""
_BOT_TOKEN = re.compile(r"\bBot [A-Za-z0-9._-]{20,}")
"""An ``Authorization: Bot <token>`` header."""
HIDDEN = "***"


def hide_secrets(text: str, known: Iterable[str] = ()) -> str:
    """``text`` with every token and password it holds replaced by ``***``.

    ``known`` are secrets to hide wherever they appear (the bot's token).
    """
    for secret in known:
        if secret:
            text = text.replace(secret, HIDDEN)
    text = _TOKEN_IN_PATH.sub(rf"\1{HIDDEN}", text)
    text = _TOKEN_FIELD.sub(rf"\1{HIDDEN}", text)
    text = _BOT_TOKEN.sub(f"Bot {HIDDEN}", text)
    return redact(text)


NOT_LOGGED = "<payload not logged>"


def _event(payload: object) -> str:
    """A gateway event without its data: which event, never what it carried."""
    if isinstance(payload, dict):
        return str({key: payload.get(key) for key in ("op", "t", "s")} | {"d": NOT_LOGGED})
    return NOT_LOGGED


PAYLOAD_LINES: dict[str, dict[str, int]] = {
    "discord.http": {"%s %s with %s has returned %s": 2, "%s %s has received %s": 2},
    "discord.gateway": {"For Shard ID %s: WebSocket Event: %s": 1},
}
"""discord.py's DEBUG lines that print a payload, and the argument that holds it: a
request's body (a hand menu's content), a response, a gateway event (a click carries the
menu it was on). They are kept, without the payload."""


class SecretFilter(logging.Filter):
    """Takes every secret and every payload out of a record before any handler writes it
    (see the module's docstring); ``known`` secrets are hidden wherever they appear."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        super().__init__()
        self.known = tuple(secret for secret in known if secret)

    def filter(self, record: logging.LogRecord) -> bool:
        self._drop_payload(record)
        message = record.getMessage()
        hidden = hide_secrets(message, self.known)
        if hidden != message:
            record.msg, record.args = hidden, ()
        return True

    @staticmethod
    def _drop_payload(record: logging.LogRecord) -> None:
        at = PAYLOAD_LINES.get(record.name, {}).get(str(record.msg))
        if at is None or not isinstance(record.args, tuple) or len(record.args) <= at:
            return
        args: list[Any] = list(record.args)
        payload = args[at]
        if payload is not None:
            args[at] = _event(payload) if record.name == "discord.gateway" else NOT_LOGGED
        record.args = tuple(args)


class TextFormatter(logging.Formatter):
    """:data:`TEXT_FORMAT`, with the secrets of a traceback hidden too."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        super().__init__(TEXT_FORMAT)
        self.known = tuple(known)

    def format(self, record: logging.LogRecord) -> str:
        return hide_secrets(super().format(record), self.known)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, table (if any), message, exception."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        super().__init__()
        self.known = tuple(known)

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": hide_secrets(record.getMessage(), self.known),
        }
        table = table_of(record)
        if table is not None:
            line["table"] = table
        if record.exc_info:
            line["exception"] = hide_secrets(self.formatException(record.exc_info), self.known)
        return json.dumps(line, ensure_ascii=False)


def handler(log_format: LogFormat = "text", *, secrets: Iterable[str] = ()
            ) -> logging.StreamHandler[TextIO]:
    """A stderr handler in ``log_format``: lines name their table and carry no secret
    (``secrets``: the bot's token, hidden wherever it appears)."""
    known = tuple(secrets)
    out = logging.StreamHandler(sys.stderr)
    out.addFilter(TableFilter())
    out.addFilter(SecretFilter(known))
    out.setFormatter(JsonFormatter(known) if log_format == "json" else TextFormatter(known))
    return out


def configure(level: str, log_format: LogFormat = "text", *, secrets: Iterable[str] = ()
              ) -> None:
    """Send every log line (the bot's and discord.py's) to stderr at ``level``, without
    ``secrets`` or any other token or password."""
    logging.basicConfig(level=level, handlers=[handler(log_format, secrets=secrets)],
                        force=True)


__all__ = ["PAYLOAD_LINES", "TABLE", "JsonFormatter", "LogFormat", "SecretFilter",
           "TableFilter", "TextFormatter", "about_table", "configure", "handler",
           "hide_secrets", "table_of", "working_on"]
