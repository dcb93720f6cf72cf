"""The layer rules of ``ARCHITECTURE.md`` as tests: imports point down only.

* ``games`` (the rules core and the computer players) imports nothing of ``bot`` or ``cogs``,
  nor ``discord``, ``asyncio``, ``aiosqlite`` or ``asyncpg``: it could be published on its own.
* ``bot`` imports ``discord`` only in its start-up modules, and never ``cogs`` (it loads the
  cogs as extensions, by name).

The scan is :func:`imports_of`, on the source (``ast``), so that an import inside a function
or behind ``if TYPE_CHECKING`` counts too. The last tests prove that this very scan catches
each kind of import statement, by planting one in a copy of the tree.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GAMES_FORBIDDEN = frozenset({"bot", "cogs", "discord", "asyncio", "aiosqlite", "asyncpg"})
BOT_STARTUP = frozenset({"bot/__main__.py", "bot/app.py"})


def module_name(path: Path, root: Path) -> str:
    """``root/games/core/seats.py`` -> ``games.core.seats`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> set[str]:
    """Every module ``path`` imports, as absolute dotted names (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package.pop()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if module:
                found.add(module)
            # ``from pkg import mod`` may name a module: count ``pkg.mod`` as well.
            found.update(".".join(filter(None, (module, alias.name))) for alias in node.names)
    return found


def violations(root: Path, package: str, forbidden: Iterable[str], *,
               allowed_in: frozenset[str] = frozenset()) -> list[str]:
    """``file: module`` for each import under ``root/package`` of a forbidden top package."""
    forbidden = frozenset(forbidden)
    found = []
    for path in sorted((root / package).rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where in allowed_in:
            continue
        for module in sorted(imports_of(path, root)):
            if module.split(".")[0] in forbidden:
                found.append(f"{where}: {module}")
    return found


def test_games_imports_nothing_of_bot_cogs_discord_asyncio_or_aiosqlite():
    assert violations(REPO, "games", GAMES_FORBIDDEN) == []


def test_the_computer_players_are_part_of_the_pure_core():
    assert (REPO / "games" / "players").is_dir()
    assert any(p.startswith("games/players/") for p in scanned(REPO, "games"))


def scanned(root: Path, package: str) -> list[str]:
    return [p.relative_to(root).as_posix() for p in (root / package).rglob("*.py")]


def test_bot_imports_discord_only_in_its_start_up_modules():
    assert violations(REPO, "bot", {"discord"}, allowed_in=BOT_STARTUP) == []


def test_bot_never_imports_cogs():
    assert violations(REPO, "bot", {"cogs"}) == []


# --- the scan itself, on a planted copy of the tree --------------------------------------

@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A copy of ``games`` and ``bot`` to plant forbidden imports in."""
    for package in ("games", "bot"):
        shutil.copytree(REPO / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    assert violations(tmp_path, "games", GAMES_FORBIDDEN) == []
    return tmp_path


@pytest.mark.parametrize(("line", "caught"), [
    ("from discord.ui import View", "discord.ui"),
    ("import asyncio", "asyncio"),
    ("import aiosqlite as db", "aiosqlite"),
    ("from bot import sessions", "bot"),
    ("from ... import cogs", "cogs"),  # relative, out of games/core/ into the repository root
    ("def later():\n    import discord", "discord"),
])
def test_the_scan_catches_an_import_planted_in_the_rules_core(planted: Path, line: str,
                                                              caught: str):
    seats = planted / "games" / "core" / "seats.py"
    seats.write_text(seats.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    found = violations(planted, "games", GAMES_FORBIDDEN)
    assert found and all(v.startswith("games/core/seats.py: ") for v in found), found
    assert any(v.split(": ")[1].startswith(caught) for v in found), found


def test_the_scan_catches_bot_importing_discord_or_cogs_outside_start_up(planted: Path):
    turns = planted / "bot" / "tables" / "actions.py"
    turns.write_text(turns.read_text(encoding="utf-8")
                     + "\nfrom discord import Embed\nfrom cogs.ui import clip\n", encoding="utf-8")
    assert violations(planted, "bot", {"discord"}, allowed_in=BOT_STARTUP) == [
        "bot/tables/actions.py: discord", "bot/tables/actions.py: discord.Embed"]
    assert violations(planted, "bot", {"cogs"}) == ["bot/tables/actions.py: cogs.ui",
                                                    "bot/tables/actions.py: cogs.ui.clip"]
