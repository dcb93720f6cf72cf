"""What ``DATABASE_URL`` names: a SQLite file or a PostgreSQL server, checked before use.

Kept apart from the stores themselves so that the settings can check a URL at
start-up without importing a database driver.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

SQLITE_SCHEMES = ("sqlite",)
POSTGRES_SCHEMES = ("postgresql", "postgres")
Backend = Literal["sqlite", "postgresql"]


@dataclass(frozen=True)
class DatabaseUrl:
    """A parsed ``DATABASE_URL``: which backend, and where (a file path or a DSN)."""

    backend: Backend
    target: str
    """The SQLite file (``:memory:`` for a private in-memory database), or the
    PostgreSQL DSN as given (asyncpg reads it)."""

    def __str__(self) -> str:
        """Fit for a log line or an error message: the SQLite file, or the URL with its
        password hidden."""
        if self.backend == "sqlite":
            return self.target
        return redact(self.target)


def parse_database_url(url: str) -> DatabaseUrl:
    """``url`` as a :class:`DatabaseUrl`; ValueError saying what is wrong and what would do.

    ``sqlite:///fivefold.db`` is the file ``fivefold.db`` (relative to the working
    directory), ``sqlite:////var/lib/fivefold.db`` an absolute path;
    ``postgresql://user:pass@host:5432/db`` (or ``postgres://``) a PostgreSQL server.
    """
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    scheme = scheme.lower()
    if not sep:
        raise ValueError(f"{redact(text)!r} is not a database URL: expected "
                         "sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DATABASE")
    if scheme in SQLITE_SCHEMES:
        if not rest.startswith("/") or rest == "/":
            raise ValueError(f"{text!r}: a SQLite URL has three slashes then the file, "
                             "e.g. sqlite:///fivefold.db (or sqlite:////abs/path.db)")
        return DatabaseUrl("sqlite", rest[1:])
    if scheme in POSTGRES_SCHEMES:
        parts = urlsplit(text)
        if not parts.hostname and "host=" not in parts.query:
            raise ValueError(f"{redact(text)!r}: a PostgreSQL URL names its server, "
                             "e.g. postgresql://fivefold:secret@localhost:5432/fivefold")
        return DatabaseUrl("postgresql", text)
    raise ValueError(f"{redact(text)!r}: unknown database {scheme!r}; "
                     "use sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DATABASE")


_USERINFO = re.compile(r"(?P<head>[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@\s/]*@", re.IGNORECASE)
"""``scheme://user:password@``: the password is what follows the user's colon."""
_SECRET_PARAMETER = re.compile(
    r"(?P<head>[?&;][a-z_]*(?:pass|secret|token)[a-z_]*=)[^&;#\s'\"]*", re.IGNORECASE)
"""A query parameter that holds a credential (``?password=``, ``&sslpassword=``, ...)."""


def redact(url: str) -> str:
    """``url`` (or any text holding URLs) with every password in it replaced by ``***``.

    Both forms a PostgreSQL URL may carry one in: ``user:password@`` and a query
    parameter (``?password=``, ``sslpassword=``, or any whose name says pass, secret or
    token), so a start-up line, an error or a log line never shows a credential.
    """
    url = _USERINFO.sub(r"\g<head>***@", url)
    return _SECRET_PARAMETER.sub(r"\g<head>***", url)


__all__ = ["DatabaseUrl", "parse_database_url", "redact"]
