"""Where tables, results, ratings and server settings are kept.

``api`` holds the protocols (one per concern: tables in play, results and ratings, server
settings) and the store's errors; ``connect`` opens the store a database URL names;
``rows`` the layout and the row mapping both backends share, ``common`` what both do the
same way above their SQL; ``ratings`` and ``schema`` the maths and migrations they share;
``migrate`` copies a SQLite database into PostgreSQL. ``sqlite/`` and ``postgres/`` are the
two backends, each with its migrations. May import ``bot.models`` and the rules library
(``games``) only: never the table service (``bot.tables``), the settings, ``discord`` or
``cogs``.
"""
