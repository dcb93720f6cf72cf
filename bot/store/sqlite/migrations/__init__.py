"""SQLite's numbered migrations, applied by :func:`bot.store.schema.migrate_sqlite` when the
SQLite store opens a database.

Each file ``NNNN_name.sql`` moves the schema from version ``NNNN - 1`` to
``NNNN``. They are applied in order, all in one transaction, and the version
reached is kept in ``PRAGMA user_version``. A shipped migration is never edited:
a schema change is a new file with the next number. This is a package (not just
a folder) so that ``importlib.resources`` finds the files in an installed wheel too.
"""
