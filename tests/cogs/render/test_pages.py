"""Lists a page at a time: an offset from a button (old, forged or past the end after rows
went) always lands on the start of a page that exists."""

import doctest

import pytest

from cogs.render import pages
from cogs.render.pages import PAGE_SIZE, page_start


@pytest.mark.parametrize(("offset", "total", "start"), [
    (0, 0, 0), (0, 25, 0), (9, 25, 0), (10, 25, 10), (19, 25, 10),
    (20, 25, 20), (40, 25, 20),  # past the end: the last page
    (30, 30, 20),  # a full last page
    (-5, 25, 0),  # a forged negative offset
])
def test_an_offset_moves_to_the_start_of_its_page_and_never_past_the_last(
        offset: int, total: int, start: int):
    assert PAGE_SIZE == 10
    assert page_start(offset, total) == start


def test_the_examples_in_the_docstring_hold():
    assert doctest.testmod(pages).attempted > 0
    assert doctest.testmod(pages).failed == 0
