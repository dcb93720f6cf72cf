"""The SQLite store, the default: one file, nothing to install, one process, on aiosqlite.

``store`` is the store, ``commit`` its group commit; ``migrations/`` its schema. May import
``bot.store`` (its protocols, rows, common parts, schema, ratings) and ``bot.models``.
"""
