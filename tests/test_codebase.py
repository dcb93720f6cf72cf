"""The layer rules as tests: imports point down only, as Python loads them.

The layers and folder roles are described in ``docs/architecture.md`` and, folder by
folder, in each package's ``__init__`` docstring ("may import ..."). They are written down
as ``import-linter`` contracts in ``pyproject.toml`` (``[tool.importlinter]``), which
``lint-imports`` checks on the import graph of ``games``, ``bot`` and ``cogs`` (every
import counted: relative ones, those inside a function or behind ``if TYPE_CHECKING``)::

    games/  <-  bot/ (bot/store/, bot/tables/)  <-  cogs/

* ``games``, the rules library (the computer players included), imports nothing of ``bot``
  or ``cogs``, nor ``discord``, ``asyncio``, ``aiosqlite`` or ``asyncpg``: it could be
  published on its own.
* A game's rules never import the computer knowledge kept beside them
  (``games/<game>/computer/``): the computer players read the rules, never the reverse.
* ``bot`` never imports ``cogs`` (it loads them as extensions, by name), and imports
  ``discord`` only in its start-up modules. Inside it the start-up (``__main__``, ``app``)
  sits above the table service (``bot.tables``), which sits above the settings, the store
  (``bot.store``: never the table service) and the models.
* A computer's worker side (``bot.thinking``, ``bot.workers``) imports the rules and the
  computer players alone: no discord.py, aiohttp, store or table service.
* Inside ``cogs``, the slash commands (``commands/``) sit above the click handlers
  (``clicks/``), which sit above the messages kept in step with a table (``upkeep/``),
  above the pure renderers (``render/``), above what all of them share (``answers``,
  ``discord_internals``, ``ids``, ``options``).
* ``cogs`` never imports the store (``bot.store``): it asks the table service, through its
  public modules (``bot/tables/service.py`` lists them), never its parts' insides (the
  action path, the scheduler, the computers...).
* ``cogs`` never reads a live game: it renders snapshots the table service takes
  (``bot/tables/snapshots.py``). No module there reads ``.game`` of a session (or of
  anything but a stored table, a snapshot or a stats row, where it is a game's name), and
  only the lobby (a game's class) and the pictures with their samples (games that sit at
  no table: samples, tests, benchmarks) import the ``Game`` class. Import-linter sees
  modules, not names, so these two are checked here on the source (:func:`imports_of`).

Each contract, and each check on the source, is shown to fail when an import it forbids
is planted in a copy of the tree.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

import games

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "bot", "cogs")


# --- the import contracts (import-linter) -------------------------------------------------

def contracts(root: Path = REPO) -> dict[str, str]:
    """Each contract of ``root``'s ``pyproject.toml``: its id and its name."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c["name"] for c in config["tool"]["importlinter"]["contracts"]}


def contract_options(contract: str) -> dict[str, object]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    [found] = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == contract]
    return dict(found)


@dataclass(frozen=True)
class Linted:
    """What ``lint-imports`` said of a tree: the ids of the contracts it found broken, and
    its report (which names each forbidden import as ``importer -> imported``)."""

    broken: frozenset[str]
    report: str


def lint(root: Path) -> Linted:
    """Run ``lint-imports`` (no cache) on the tree at ``root`` with its own ``pyproject.toml``.

    It runs in a process of its own, in ``root``, so that the packages it finds are
    ``root``'s (a planted copy's), not those this test process imported."""
    command = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(command), "--no-cache", "--no-logo"], cwd=root,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "1000"})
    status = {}
    for line in done.stdout.splitlines():
        found = re.fullmatch(r"(.+) (KEPT|BROKEN)( \(\d+ ignored imports?\))?", line)
        if found:
            status[found[1]] = found[2]
    names = contracts(root)
    assert set(status) == set(names.values()), done.stdout + done.stderr
    assert done.returncode == (1 if "BROKEN" in status.values() else 0), done.stdout + done.stderr
    return Linted(frozenset(c for c, name in names.items() if status[name] == "BROKEN"),
                  done.stdout)


def test_every_import_contract_holds():
    linted = lint(REPO)
    assert linted.broken == frozenset(), linted.report


def test_every_game_keeps_its_computer_package_where_the_contract_protects_it():
    assert contract_options("rules-apart")["protected_modules"] == ["games.*.computer"]
    for name in games.names():
        assert (REPO / "games" / name / "computer" / "__init__.py").is_file(), name


def copied(tmp_path: Path, packages: tuple[str, ...] = PACKAGES) -> Path:
    """A copy of ``packages``' Python sources (and the ``pyproject.toml`` that holds the
    contracts) under ``tmp_path``, to plant imports in."""

    def not_source(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if n == "__pycache__"
                or (not n.endswith(".py") and not Path(folder, n).is_dir())]

    for package in packages:
        shutil.copytree(REPO / package, tmp_path / package, ignore=not_source)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def plant(root: Path, where: str, line: str) -> None:
    path = root / where
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def module_of(where: str) -> str:
    """``games/core/seats.py`` -> ``games.core.seats`` (a package is its ``__init__``)."""
    return where.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


CONTRACT_PLANTS = [
    ("games-pure", "games/core/seats.py", "from discord.ui import View", "discord"),
    ("games-pure", "games/core/seats.py", "import asyncio", "asyncio"),
    ("games-pure", "games/core/seats.py", "import aiosqlite as db", "aiosqlite"),
    ("games-pure", "games/players/base.py", "def later():\n    import asyncpg", "asyncpg"),
    ("layers", "games/core/seats.py", "from bot import models", "bot.models"),
    ("layers", "games/players/base.py", "if TYPE_CHECKING:\n    from cogs.ids import TABLE",
     "cogs.ids"),
    ("layers", "bot/tables/actions.py", "from cogs.ids import HAND_TEMPLATE", "cogs.ids"),
    ("rules-apart", "games/fiasco/game.py", "from games.fiasco.computer import thumb",
     "games.fiasco.computer.thumb"),
    ("rules-apart", "games/fiasco/scoring.py", "from .computer import knowledge",
     "games.fiasco.computer.knowledge"),
    ("rules-apart", "games/fizzbin/__init__.py", "from . import computer",
     "games.fizzbin.computer"),
    ("rules-apart", "games/core/game.py", "import games.fazes.computer.fast",
     "games.fazes.computer.fast"),
    ("bot-layers", "bot/store/rows.py", "from bot.tables.timers import CHOICES",
     "bot.tables.timers"),
    # relative, out of bot/store/sqlite/migrations/ into bot/
    ("bot-layers", "bot/store/sqlite/migrations/__init__.py",
     "from ....tables import session", "bot.tables.session"),
    ("bot-layers", "bot/store/api.py", "from bot.settings import Settings", "bot.settings"),
    ("bot-layers", "bot/models.py", "if TYPE_CHECKING:\n    from bot.tables.session import Session",
     "bot.tables.session"),
    ("bot-discord", "bot/tables/actions.py", "from discord import Embed", "discord"),
    ("worker", "bot/thinking.py", "from bot.tables.session import Session",
     "bot.tables.session"),
    ("cogs-no-store", "cogs/upkeep/ending.py", "from bot import store", "bot.store"),
    ("cogs-no-store", "cogs/render/table.py", "from bot.store.api import Store", "bot.store.api"),
    ("cogs-public", "cogs/clicks/handlers.py", "from bot.tables.scheduler import Scheduler",
     "bot.tables.scheduler"),
    ("cogs-public", "cogs/render/table.py", "from bot.tables.checks import require_game",
     "bot.tables.checks"),
    ("cogs-layers", "cogs/upkeep/publisher.py", "from cogs.clicks.deadline import BUSY",
     "cogs.clicks.deadline"),
    ("cogs-layers", "cogs/render/hand.py", "def later():\n    from cogs.upkeep import guard",
     "cogs.upkeep.guard"),
    ("cogs-layers", "cogs/ids.py", "from cogs.render.text import clip", "cogs.render.text"),
    # checks imports session: a circle, even behind TYPE_CHECKING
    ("acyclic", "bot/tables/session.py",
     "if TYPE_CHECKING:\n    from bot.tables.checks import require_open", ".session -> .checks"),
    ("acyclic", "games/core/cards.py", "from games.core.game import Game", ".cards -> .game"),
    # the rules page's cog imports clicks: a rules button's answer importing it back closes one
    ("acyclic", "cogs/clicks/rules.py", "from cogs.commands.rules import Rules",
     ".clicks -> .commands"),
]


@pytest.mark.parametrize(("contract", "where", "line", "caught"), CONTRACT_PLANTS)
def test_the_contract_fails_on_a_planted_import(tmp_path: Path, contract: str, where: str,
                                                line: str, caught: str):
    copy = copied(tmp_path)
    plant(copy, where, line)
    linted = lint(copy)
    # Other contracts may break too, through the planted import (a worker imports the rules).
    assert contract in linted.broken, linted.report
    if caught.startswith("."):  # a circle: named by one of the imports that close it
        assert caught in linted.report, linted.report
    else:
        assert f"{module_of(where)} -> {caught} " in linted.report, linted.report


def test_every_contract_is_shown_to_fail():
    assert {contract for contract, *_ in CONTRACT_PLANTS} == set(contracts())


@pytest.mark.parametrize(("where", "line", "broken"), [
    ("games/fiasco/computer/thumb.py", "from games.fiasco.computer import bits", set()),
    ("cogs/render/table.py", "from bot.tables.snapshots import TableSnapshot", set()),
    # The players may import a game's computer package, but they find it by name
    # (games/players/__init__.py): a plain import would close a circle between the packages.
    ("games/players/base.py", "import games.fumblaroo.computer.knowledge", {"acyclic"}),
])
def test_an_import_the_contracts_allow_keeps_them(tmp_path: Path, where: str, line: str,
                                                  broken: set[str]):
    copy = copied(tmp_path)
    plant(copy, where, line)
    linted = lint(copy)
    assert linted.broken == broken, linted.report


# --- a package's __init__ imports nothing ---------------------------------------------------

def importing_inits(root: Path) -> list[str]:
    """``file:line`` of each import in a package ``__init__.py`` of ``bot/`` or ``cogs/``: a
    package there is its docstring alone, so importing one module (a worker's, the store's)
    loads that module and what it imports, never its package's neighbours."""
    found = []
    for package in ("bot", "cogs"):
        for path in sorted((root / package).rglob("__init__.py")):
            where = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=where)):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.append(f"{where}:{node.lineno}")
    return found


def test_the_packages_of_bot_and_cogs_import_nothing():
    assert (REPO / "bot" / "__init__.py").is_file(), "the check scans no file"
    found = importing_inits(REPO)
    assert not found, "imports in a package's __init__.py:\n" + "\n".join(found)


def test_the_package_check_fails_on_a_planted_import(tmp_path: Path):
    copy = copied(tmp_path, ("bot", "cogs"))
    plant(copy, "bot/__init__.py", "from bot.app import create_bot")
    plant(copy, "cogs/render/pictures/__init__.py", "if True:\n    import discord")
    [first, second] = importing_inits(copy)
    assert first.startswith("bot/__init__.py:") and second.startswith(
        "cogs/render/pictures/__init__.py:")


# --- the Game class in cogs, on the source ------------------------------------------------

@dataclass(frozen=True)
class Rule:
    """No ``.py`` file under ``folder`` (but the ``exempt`` ones) imports a ``forbidden``
    name. A forbidden name covers what it holds (``games.core.game`` forbids
    ``games.core.game.Game``); names and exemptions may use ``*`` wildcards."""

    folder: str
    forbidden: frozenset[str]
    exempt: frozenset[str] = frozenset()


COGS_GAME = Rule("cogs", frozenset({"games.core.game.Game", "games.core.Game", "games.Game"}),
                 exempt=frozenset({"cogs/render/lobby.py", "cogs/render/pictures/picture.py",
                                   "cogs/render/pictures/samples.py"}))
"""Cogs import the Game class only for a game's class or a game at no table."""


def module_name(path: Path, root: Path) -> str:
    """``root/games/core/seats.py`` -> ``games.core.seats`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> set[str]:
    """Every module or name ``path`` imports, as absolute dotted names (relative imports
    resolved)."""
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
            # ``from pkg import name`` names ``pkg.name`` as well.
            found.update(".".join(filter(None, (module, alias.name))) for alias in node.names)
    return found


def forbids(rule: Rule, module: str) -> bool:
    return any(fnmatchcase(module, name) or fnmatchcase(module, f"{name}.*")
               for name in rule.forbidden)


def scanned(root: Path, rule: Rule) -> list[str]:
    """The files ``rule`` holds for, as paths from ``root``."""
    paths = (p.relative_to(root).as_posix() for p in sorted((root / rule.folder).rglob("*.py")))
    return [p for p in paths if not any(fnmatchcase(p, pattern) for pattern in rule.exempt)]


def violations(root: Path, rule: Rule) -> list[str]:
    """``file: name`` for each import ``rule`` forbids in the tree at ``root``."""
    return [f"{where}: {module}" for where in scanned(root, rule)
            for module in sorted(imports_of(root / where, root)) if forbids(rule, module)]


def test_cogs_import_the_game_class_only_for_a_games_class_or_a_game_at_no_table():
    assert scanned(REPO, COGS_GAME), "the rule scans no file"
    found = violations(REPO, COGS_GAME)
    assert not found, "imports the rule forbids:\n" + "\n".join(found)


@pytest.mark.parametrize(("where", "line", "caught"), [
    ("cogs/upkeep/publisher.py", "from games.core.game import Game", "games.core.game.Game"),
    ("cogs/render/table.py", "from games.core import Game", "games.core.Game"),
])
def test_the_game_class_check_fails_on_a_planted_import(tmp_path: Path, where: str, line: str,
                                                        caught: str):
    copy = copied(tmp_path, ("cogs",))
    before = set(violations(copy, COGS_GAME))
    plant(copy, where, line)
    new = set(violations(copy, COGS_GAME)) - before
    assert new == {f"{where}: {caught}"}, new


# --- the Discord layer reads snapshots, never a live game ---------------------------------

NAME_HOLDERS = frozenset({"table", "menu", "shown", "stat", "game", "self"})
"""What a cogs module may read ``.game`` of: a stored table (``session.table.game``), a
snapshot, a stats row, a button's own field; there it is a game's name. Anything else,
above all a :class:`~bot.tables.session.Session` (``session.game``, ``s.game``), holds the
live game."""


def holder(node: ast.expr) -> str | None:
    """The name ``.game`` is read of: ``session`` in ``session.game``, ``table`` in
    ``session.table.game``; None for anything else (a call's result, a subscript)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def live_game_reads(root: Path) -> list[str]:
    """``file:line: code`` for each read of a live game under ``root/cogs``: ``x.game`` of
    anything but a :data:`NAME_HOLDERS`, and ``getattr(x, "game")``."""
    found = []
    for path in sorted((root / "cogs").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=where)):
            if isinstance(node, ast.Attribute) and node.attr == "game":
                read = holder(node.value) not in NAME_HOLDERS
            else:
                read = (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "getattr" and len(node.args) >= 2
                        and isinstance(node.args[1], ast.Constant)
                        and node.args[1].value == "game")
            if read:
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_discord_layer_never_reads_a_live_game():
    assert (REPO / "cogs" / "upkeep" / "publisher.py").is_file(), "the check scans no file"
    found = live_game_reads(REPO)
    assert not found, "reads of a live game in cogs/:\n" + "\n".join(found)


@pytest.mark.parametrize(("where", "line", "caught"), [
    ("cogs/upkeep/publisher.py", "def peek(session):\n    return session.game.to_act",
     "session.game"),
    ("cogs/upkeep/guard.py", "def started(tables):\n    return [s for s in tables if s.game]",
     "s.game"),
    ("cogs/render/table.py", "def peek(self):\n    return self.session.game", "self.session.game"),
    ("cogs/upkeep/ending.py", "def peek(session):\n    return getattr(session, 'game')",
     "getattr(session, 'game')"),
])
def test_the_live_game_check_fails_on_a_planted_read(tmp_path: Path, where: str, line: str,
                                                     caught: str):
    copy = copied(tmp_path, ("cogs",))
    assert live_game_reads(copy) == []
    plant(copy, where, line)
    [found] = live_game_reads(copy)
    assert found.startswith(f"{where}:") and found.endswith(caught), found


def test_the_live_game_check_lets_a_game_name_be_read(tmp_path: Path):
    copy = copied(tmp_path, ("cogs",))
    plant(copy, "cogs/upkeep/publisher.py",
          "def name(session, shown):\n    return session.table.game, shown.game")
    assert live_game_reads(copy) == []
