"""The examples in the Fumblaroo modules' docstrings run and hold."""

from __future__ import annotations

import doctest

import pytest

from games.fumblaroo import cards, deal, scoring


@pytest.mark.parametrize("module", [cards, deal, scoring], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
