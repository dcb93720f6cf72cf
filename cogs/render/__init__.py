"""Pure renderers: text, buttons and pictures made from a table's views and events.

Nothing here sends, awaits or changes anything; a renderer is a function of a snapshot the
table service takes (``bot.tables.snapshots``), never of the live game. ``pictures/`` draws
the table and hand pictures (Pillow); ``text`` holds the words every message uses
(sentences, counted words, clipped fields, escaped names), ``embeds`` what every embed
shares, ``static_view`` the bot's own view of buttons, ``rules`` a game's rules in pages.
May import the shared modules of ``cogs`` (``ids``, ``options``), ``discord`` (for its
component types), ``bot.models``, the table service's snapshots and words (``bot.tables``)
and the rules library's views.
"""
