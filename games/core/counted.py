"""Counted words: every place that writes a number with its noun ("3 cards", "1 minute")
calls :func:`plural`, so "1 minutes" cannot be typed by hand anywhere;
``tests/games/test_words.py`` looks for hand-made plurals in the source. It lives in the
rules core, in a module that imports nothing, because the rules count too (a stock's
cards, a player's tricks, an option's entries) and every layer may import it.
"""

from __future__ import annotations


def plural(count: float, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, which takes an ``s`` (or is ``many``) unless the count is one.

    Whole counts show whole, others as briefly as they read (``1.5``).

    >>> plural(1, "card"), plural(2, "card"), plural(0, "pt"), plural(-1, "pt")
    ('1 card', '2 cards', '0 pts', '-1 pt')
    >>> plural(1.0, "hour"), plural(1.5, "hour"), plural(30.0, "second")
    ('1 hour', '1.5 hours', '30 seconds')
    >>> plural(2, "entry", "entries")
    '2 entries'
    """
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{shown} {word}" if abs(count) == 1 else f"{shown} {many or word + 's'}"


__all__ = ["plural"]
