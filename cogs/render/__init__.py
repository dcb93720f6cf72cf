"""Pure renderers: text, buttons and pictures made from a table's views and events.

Nothing here sends, awaits or changes anything; a renderer is a function of what the table
service shows it. ``pictures/`` draws the table and hand pictures (Pillow). May import
``discord`` (for its component types), ``bot.models`` and the rules library's views.
"""
