"""What ``DATABASE_URL`` names: a SQLite file or a PostgreSQL server, checked before use.

Kept apart from the stores themselves so that the settings can check a URL at
start-up without importing a database driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

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


def redact(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("@")[-1]
    if not password:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


__all__ = ["DatabaseUrl", "parse_database_url", "redact"]
