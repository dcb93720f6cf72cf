"""The Discord surface: slash commands (``commands/``), component routing and click
handlers (``clicks/``), the messages kept in step with a table (``upkeep/``) and pure
renderers with the words every message uses (``render/``). What all of them share sits
here: ``ids`` (the custom-id scheme), ``options`` (a game's options as slash-command
parameters), ``answers`` (saying something to a person, an apology for a failure, how
old an interaction is) and ``discord_internals`` (every call that reaches into
discord.py's private attributes). The folders are layers in that order: ``commands``
above ``clicks`` above ``upkeep`` above ``render`` above the shared modules (an
import-linter contract, ``tests/test_codebase.py``).

The cogs translate: a click or a command becomes one call to the table service
(``bot.tables``) and its outcome becomes a message. They may import ``discord``,
``bot.tables``, ``bot.models``, ``bot.settings`` and the rules library's public names;
never the store (``bot.store``), and never a live game: they render the snapshots the table
service takes (``bot.tables.snapshots``), and ``tests/test_codebase.py`` checks that no
module here reads a session's game.
"""
