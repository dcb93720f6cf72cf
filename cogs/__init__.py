"""The Discord surface: slash commands (``commands/``), component routing, click
handlers and answering an interaction (``clicks/``), the messages kept in step with a
table (``upkeep/``) and pure renderers with the words every message uses (``render/``);
``ids`` is the custom-id scheme.

The cogs translate: a click or a command becomes one call to the table service
(``bot.tables``) and its outcome becomes a message. They may import ``discord``,
``bot.tables``, ``bot.models``, ``bot.settings`` and the rules library's public names;
never the store (``bot.store``), and never a live game: they render the snapshots the table
service takes (``bot.tables.snapshots``), and ``tests/test_codebase.py`` checks that no
module here reads a session's game.
"""
