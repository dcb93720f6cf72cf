"""Seasons: each calendar month (UTC) is a season of every game's board in every server.

Every finished game counts, and when rated rates, its people twice in one transaction: in
the all-time ratings and in the season of the month it ended in, with the same maths
(:mod:`bot.store.ratings`). A season starts with nobody rated and ends with its month; its
end is an event people read (``/leaderboard period:last`` names its champion, ``/stats``
says where each player finished), never a reset of the all-time ratings.
"""

from __future__ import annotations

import datetime as dt

from bot.models import season_of


def season_before(season: str) -> str:
    """The season before ``season`` (``2026-01`` -> ``2025-12``)."""
    year, month = map(int, season.split("-"))
    return f"{year - 1}-12" if month == 1 else f"{year}-{month - 1:02d}"


def season_words(season: str) -> str:
    """``2026-06`` -> ``June 2026``."""
    year, month = map(int, season.split("-"))
    return dt.date(year, month, 1).strftime("%B %Y")


__all__ = ["season_before", "season_of", "season_words"]
