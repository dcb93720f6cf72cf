"""The SQLite store, the default: one file, nothing to install, one process.

May import ``bot.store`` (its protocols, rows, schema, ratings) and ``bot.models``.
"""
