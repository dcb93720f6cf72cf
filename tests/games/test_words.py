"""Counted words come from one helper, :func:`games.core.counted.plural`, in every layer.

The scan looks for a plural made by hand (a suffix or a word chosen by comparing a count
with one) in the source of ``games``, ``bot`` and ``cogs``; the planted lines show that it
finds each shape. Agreeing a verb with its subject ("Ana wins", "Ana and Bo win") is not a
counted word and is left alone.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from games.core import counted, words
from games.core.counted import plural

REPO = Path(__file__).resolve().parents[2]
HELPER = REPO / "games" / "core" / "counted.py"
HAND_MADE = (
    re.compile(r"""(["'])\1 if [^\n]*?== ?1 else (["'])s\2"""),  # "" if n == 1 else "s"
    re.compile(r"""(["'])s\1 if [^\n]*?(?:!= ?1|> ?1) else (["'])\2"""),  # "s" if n > 1 else ""
    # "entry" if n == 1 else "entries": the same word but its ending, chosen by the count
    re.compile(r"""(["'])(\w+)\w\1 if [^\n]*?== ?1 else (["'])\2\w+\3"""),
)


def hand_made_plurals(root: Path) -> list[str]:
    """``path:line: text`` of every hand-made plural under ``root``'s three packages."""
    found = []
    for package in ("games", "bot", "cogs"):
        for path in sorted((root / package).rglob("*.py")):
            if path == HELPER:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if any(shape.search(line) for shape in HAND_MADE):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


@pytest.mark.parametrize("module", [counted, words])
def test_the_helpers_examples_hold(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_one_of_anything_is_singular_and_everything_else_plural() -> None:
    assert [plural(n, "minute") for n in (0, 1, 2)] == ["0 minutes", "1 minute", "2 minutes"]
    assert plural(1.0, "hour") == "1 hour" and plural(0.5, "hour") == "0.5 hours"
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "entry", "entries") \
        == "3 entries"


def test_no_plural_is_made_by_hand() -> None:
    assert hand_made_plurals(REPO) == []


@pytest.mark.parametrize("line", [
    'return f"{minutes} minute" + ("" if minutes == 1 else "s")',
    "text = f\"{k} more card{'s' if k > 1 else ''} each\"",
    "text = f\"{n} trick{'' if n == 1 else 's'}\"",
    "text = f\"at least {least} {'entry' if least == 1 else 'entries'}\"",
])
def test_the_scan_finds_a_planted_plural(tmp_path: Path, line: str) -> None:
    planted = tmp_path / "bot" / "planted.py"
    planted.parent.mkdir()
    planted.write_text(f"def words(n):\n    {line}\n", encoding="utf-8")
    assert hand_made_plurals(tmp_path) == [f"bot/planted.py:2: {line}"]


@pytest.mark.parametrize("line", [
    "text = f\"{names} win{'s' if len(winners) == 1 else ''}\"",
    'verb = "leads" if len(self.plays) == 1 else "plays"',
])
def test_a_verb_chosen_by_a_count_is_no_counted_word(tmp_path: Path, line: str) -> None:
    planted = tmp_path / "games" / "planted.py"
    planted.parent.mkdir()
    planted.write_text(line + "\n", encoding="utf-8")
    assert hand_made_plurals(tmp_path) == []
