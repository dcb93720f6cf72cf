"""The application: the process (start-up, settings, logs, shards, health, the worker
processes that end with it) and the domain models (``models``: a table, a seat, a result)
that the table service and the store share.

``tables/`` is the table service, ``store/`` where tables, results and settings are kept.
``bot`` may import the rules library (``games``) and ``discord`` only in its start-up
modules (``__main__``, ``app``); never ``cogs`` (``app`` loads them as extensions by name).
``bot.app.create_bot(settings)`` builds the bot without starting it (for tests and
embedding); ``python -m bot`` runs it. This file imports nothing, so importing any part of
``bot`` (the store, the models, a worker) loads that part and what it imports, never
discord.py or the table service with it.
"""
