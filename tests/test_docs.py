"""The repository carries the rules and rule vectors its tests need (``docs/rules/``, the
project's copy of the shared ``rules/``: ``.ci/run`` diffs the two when the shared folder
is there)."""

from __future__ import annotations

from pathlib import Path

import pytest

import games

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "rules"


def test_the_rules_overview_is_in_the_repository():
    assert "Hidden information" in (RULES / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", games.names())
def test_every_registered_game_has_its_rules_in_docs(game: str):
    rules = RULES / f"{game}.md"
    assert rules.is_file(), f"docs/rules/{game}.md is missing"
    assert games.get(game).title.lower() in rules.read_text(encoding="utf-8").lower()
