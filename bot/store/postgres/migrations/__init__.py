"""PostgreSQL's numbered migrations, applied by :func:`bot.store.schema.migrate_postgres` when
the PostgreSQL store connects (SQLite's are in ``bot/store/sqlite/migrations/``)."""
