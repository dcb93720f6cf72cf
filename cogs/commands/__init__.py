"""The slash commands, one cog per concern (tables, browse, daily, rules, stats, settings,
help).

Each command translates its options into one call to the table service (``bot.tables``)
and its outcome into an answer rendered by ``cogs.render``. May import ``cogs.*``,
``bot.tables``, ``bot.models`` and the rules library's public names; never the store.
``play`` builds ``/play <game>`` from each game's options (``cogs.options``).
"""
