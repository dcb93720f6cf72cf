"""Component routing and the handlers behind every button and menu.

``router`` turns a custom id (``cogs.ids``) into a handler call, with no in-memory view, so
buttons work across restarts; ``handlers`` makes one call into the table service per click
and answers exactly once; ``browsing`` does the same for Watch, a watcher's view and the
``/tables`` list; ``deadline`` keeps every answer within Discord's 3 s; ``answers`` says
something to a person (and apologises for a failure); ``discord_internals`` holds every
call that reaches into discord.py's private attributes (answers and edits without the
message read back, a click's reference cycles cut, the gateway parser the deadline's gate
wraps). May import ``cogs.*``, ``bot.tables`` and ``bot.models``; never the store.
"""
