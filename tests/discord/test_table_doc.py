"""``docs/table.md`` is what ``python -m tests.table_doc`` prints: it never drifts."""

from __future__ import annotations

from pathlib import Path

from tests.table_doc import render_doc

DOC = Path(__file__).resolve().parents[2] / "docs" / "table.md"


async def test_the_committed_table_page_is_what_the_command_prints():
    expected = await render_doc()
    assert DOC.read_text(encoding="utf-8") == expected, (
        "docs/table.md is out of date: run python -m tests.table_doc > docs/table.md")
