"""What keeps the messages of a table in step with it: the public table message
(``publisher``), the hand menus that follow the game (``live_menus``), the end of a game
(``ending``), hand pictures that arrive late, and the guard against places that go away
(``guard``), with what a table needs of its channel (``permissions``) and the cooldowns of
what writes (``cooldowns``);
``tasks`` waits for their background tasks to end.
May import ``cogs.render``, the shared modules of ``cogs``, ``bot.tables`` and
``bot.models``; never ``cogs.clicks`` or ``cogs.commands``, nor the store.
"""
