"""``open_store(url)``: the store a database URL names, opened and migrated.

One registry keyed by the URL's scheme (as Red-DiscordBot keys its storage
drivers by configuration): ``sqlite:///...`` opens :class:`bot.store.sqlite.store.SqliteStore`,
``postgresql://...`` :class:`bot.store.postgres.store.PostgresStore`. Each backend's module
is imported only when it is used, so a SQLite deployment never loads asyncpg. The process
(:mod:`bot.app`) passes the URL its settings name (``DATABASE_URL``, else
``DATABASE_PATH``); the store never reads the settings.
"""

from __future__ import annotations

from bot.store.api import Store
from bot.store.url import DatabaseUrl, parse_database_url


async def open_store(url: str | DatabaseUrl) -> Store:
    """Open (creating and migrating if needed) the database ``url`` names.

    Raises ValueError for a URL that names no database, and
    :class:`bot.store.api.StoreError` when the database cannot be opened or used.
    """
    where = url if isinstance(url, DatabaseUrl) else parse_database_url(url)
    if where.backend == "sqlite":
        from bot.store.sqlite.store import SqliteStore

        return await SqliteStore.open(where.target)
    from bot.store.postgres.store import PostgresStore

    return await PostgresStore.open(where.target)


__all__ = ["open_store"]
