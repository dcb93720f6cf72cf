"""The command line of the rules library: ``python -m games replay|play|hint``.

``replay`` (the entry point), ``play`` (a table in the terminal, or games between computers
measured as JSON), ``hint`` (what a computer would do), ``terminal`` (the terminal table)
and ``common`` (what they share: one-line argument errors, reading a record). May import
everything in ``games``; nothing imports it back.
"""
