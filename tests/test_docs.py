"""The rules shipped in docs/rules are the project's rules, word for word."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_RULES = REPO.parent / "shared" / "rules"


def test_docs_rules_are_the_shared_rules_word_for_word():
    shared = sorted(SHARED_RULES.glob("*.md"))
    assert shared, f"the project's rules are missing from {SHARED_RULES}"
    for source in shared:
        copy = REPO / "docs" / "rules" / source.name
        assert copy.is_file(), f"docs/rules/{source.name} is missing"
        assert copy.read_text() == source.read_text(), f"docs/rules/{source.name} is out of date"
