"""The PostgreSQL store on asyncpg, for several bot processes sharing one database.

May import ``bot.store`` (its protocols, rows, schema, ratings) and ``bot.models``.
"""
