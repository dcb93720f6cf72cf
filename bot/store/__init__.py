"""Where tables, results, ratings and server settings are kept.

``api`` holds the protocols (split by concern) and the store's errors, ``connect`` opens the
store a ``DATABASE_URL`` names, ``rows`` the layout both backends share, ``ratings`` and
``schema`` the maths and migrations they share; ``sqlite/`` and ``postgres/`` are the two
backends, each with its migrations. May import ``bot.models`` and the rules library
(``games``) only: never the table service (``bot.tables``), ``discord`` or ``cogs``.
"""
