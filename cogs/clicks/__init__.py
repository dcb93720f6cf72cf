"""Component routing and the handlers behind every button and menu.

``router`` turns a custom id (``cogs.ids``) into a handler call, with no in-memory view, so
buttons work across restarts; ``handlers`` makes one call into the table service per click
and answers exactly once; ``browsing`` does the same for Watch, a watcher's view and the
``/tables`` list; ``deadline`` keeps every answer within Discord's 3 s; ``rules`` answers
a ``Rules`` button (and ``/rules``) with a page. May import ``cogs.upkeep``,
``cogs.render``, the shared modules of ``cogs``, ``bot.tables`` and ``bot.models``; never
``cogs.commands`` nor the store.
"""
