"""Lists shown a page at a time (the leaderboard, ``/tables``): the page's size and where
an offset's page starts."""

from __future__ import annotations

PAGE_SIZE = 10
"""Rows on one page: a phone screen of a leaderboard or of the open tables."""


def page_start(offset: int, total: int) -> int:
    """``offset`` moved to the start of its page, and to the last page if it is past the end.

    >>> page_start(13, 40), page_start(95, 40), page_start(-3, 40), page_start(0, 0)
    (10, 30, 0, 0)
    """
    last = max(0, (total - 1) // PAGE_SIZE * PAGE_SIZE)
    return min(max(0, offset) // PAGE_SIZE * PAGE_SIZE, last)


__all__ = ["PAGE_SIZE", "page_start"]
