"""The PostgreSQL store on asyncpg, for several bot processes sharing one database.

May import ``bot.store`` (its protocols, rows, common parts, schema, ratings) and
``bot.models``.
"""
