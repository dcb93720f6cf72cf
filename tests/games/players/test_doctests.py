"""The examples in the computer players' docstrings run and hold."""

from __future__ import annotations

import doctest

import pytest

import games.players
from games.players import hard, match, search


@pytest.mark.parametrize("module", [games.players, hard, match, search], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
