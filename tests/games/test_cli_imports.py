"""The command line's modules import one way: ``replay`` dispatches to ``play`` and ``hint``;
they, and the terminal table, import only ``common`` of the command line (no cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games.cli

CLI = Path(games.cli.__file__).parent
# Which command-line modules each may import.
ALLOWED = {
    "replay": {"common", "hint", "play"},
    "play": {"common", "terminal"},
    "hint": {"common"},
    "terminal": set(),
    "common": set(),
}


def cli_imports(source: str) -> set[str]:
    """The ``games.cli`` modules ``source`` imports, by their short names."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "games.cli":
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.cli."):
            found.add((node.module or "").removeprefix("games.cli."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("games.cli.") for a in node.names
                      if a.name.startswith("games.cli.")}
    return found


@pytest.mark.parametrize("module", sorted(ALLOWED))
def test_each_command_line_module_imports_only_what_it_may(module):
    assert cli_imports((CLI / f"{module}.py").read_text()) <= ALLOWED[module]


def test_every_command_line_module_is_covered():
    assert {p.stem for p in CLI.glob("*.py")} - {"__init__"} == set(ALLOWED)


def test_the_scan_sees_a_planted_import_of_replay():
    assert cli_imports("from games.cli.replay import read_text\nfrom games.cli import hint\n") \
        == {"replay", "hint"}
