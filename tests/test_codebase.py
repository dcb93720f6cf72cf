"""The layer rules as tests: imports point down only.

The layers and folder roles are described in ``docs/architecture.md`` and, folder by
folder, in each package's ``__init__`` docstring ("may import ..."). Here they are checked::

    games/  <-  bot/ (bot/store/, bot/tables/)  <-  cogs/

* ``games``, the rules library (the computer players included), imports nothing of ``bot``
  or ``cogs``, nor ``discord``, ``asyncio``, ``aiosqlite`` or ``asyncpg``: it could be
  published on its own.
* A game's rules never import the computer knowledge kept beside them
  (``games/<game>/computer/``): the computer players read the rules, never the reverse.
* ``bot`` never imports ``cogs`` (it loads them as extensions, by name), and imports
  ``discord`` only in its start-up modules.
* The store (``bot/store``) imports nothing of the table service (``bot/tables``).
* ``cogs`` never imports the store (``bot.store``): it asks the table service.
* ``cogs`` never reads a live game: it renders snapshots the table service takes
  (``bot/tables/snapshots.py``). No module there reads ``.game`` of a session (or of
  anything but a stored table, a snapshot or a stats row, where it is a game's name), and
  only the lobby (a game's class) and the pictures with their samples (games that sit at
  no table: samples, tests, benchmarks) import the ``Game`` class.

The scan is :func:`imports_of`, on the source (``ast``), so that an import inside a function
or behind ``if TYPE_CHECKING`` counts too. The last tests prove that each rule fails when an
import it forbids is planted in a copy of the tree.
"""

from __future__ import annotations

import ast
import shutil
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

import games

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Rule:
    """No ``.py`` file under ``folder`` (but the ``exempt`` ones) imports a ``forbidden``
    module. A forbidden name covers its submodules (``bot`` forbids ``bot.tables.actions``);
    names and exemptions may use ``*`` wildcards (``games.*.computer``, ``games/players/*``)."""

    folder: str
    forbidden: frozenset[str]
    exempt: frozenset[str] = frozenset()


GAMES = "games imports nothing of bot, cogs, discord, asyncio, aiosqlite or asyncpg"
COMPUTER = "a game's rules never import its computer package"
BOT_DISCORD = "bot imports discord only in its start-up modules"
BOT_COGS = "bot never imports cogs"
STORE_TABLES = "the store imports nothing of the table service"
COGS_STORE = "cogs never import the store"
COGS_GAME = "cogs import the Game class only for a game's class or a game at no table"
RULES = {
    GAMES: Rule("games", frozenset({"bot", "cogs", "discord", "asyncio", "aiosqlite",
                                    "asyncpg"})),
    COMPUTER: Rule("games", frozenset({"games.*.computer"}),
                   exempt=frozenset({"games/*/computer/*", "games/players/*"})),
    BOT_DISCORD: Rule("bot", frozenset({"discord"}),
                      exempt=frozenset({"bot/__main__.py", "bot/app.py"})),
    BOT_COGS: Rule("bot", frozenset({"cogs"})),
    STORE_TABLES: Rule("bot/store", frozenset({"bot.tables"})),
    COGS_STORE: Rule("cogs", frozenset({"bot.store"})),
    COGS_GAME: Rule("cogs", frozenset({"games.core.game.Game", "games.core.Game", "games.Game"}),
                    exempt=frozenset({"cogs/render/lobby.py", "cogs/render/pictures/__init__.py",
                                      "cogs/render/pictures/samples.py"})),
}


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


def forbids(rule: Rule, module: str) -> bool:
    return any(fnmatchcase(module, name) or fnmatchcase(module, f"{name}.*")
               for name in rule.forbidden)


def scanned(root: Path, rule: Rule) -> list[str]:
    """The files ``rule`` holds for, as paths from ``root``."""
    paths = (p.relative_to(root).as_posix() for p in sorted((root / rule.folder).rglob("*.py")))
    return [p for p in paths if not any(fnmatchcase(p, pattern) for pattern in rule.exempt)]


def violations(root: Path, rule: Rule) -> list[str]:
    """``file: module`` for each import ``rule`` forbids in the tree at ``root``."""
    return [f"{where}: {module}" for where in scanned(root, rule)
            for module in sorted(imports_of(root / where, root)) if forbids(rule, module)]


@pytest.mark.parametrize("rule", RULES)
def test_the_layer_rule_holds(rule: str):
    assert scanned(REPO, RULES[rule]), "the rule scans no file"
    found = violations(REPO, RULES[rule])
    assert not found, "imports the rule forbids:\n" + "\n".join(found)


def test_the_computer_players_are_part_of_the_pure_core():
    assert (REPO / "games" / "players").is_dir()
    assert any(p.startswith("games/players/") for p in scanned(REPO, RULES[GAMES]))


def test_every_games_rules_are_kept_apart_from_its_computer_package():
    files = scanned(REPO, RULES[COMPUTER])
    for name in games.names():
        assert (REPO / "games" / name / "computer").is_dir(), name
        assert f"games/{name}/game.py" in files
        assert not any(p.startswith(f"games/{name}/computer/") for p in files)


# --- each rule fails on a planted import, in a copy of the tree ---------------------------

def planted(tmp_path: Path, package: str) -> Path:
    """A copy of ``package``'s Python sources under ``tmp_path``, to plant imports in."""

    def not_source(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if n == "__pycache__"
                or (not n.endswith(".py") and not Path(folder, n).is_dir())]

    shutil.copytree(REPO / package, tmp_path / package, ignore=not_source)
    return tmp_path


def plant(root: Path, where: str, line: str) -> None:
    path = root / where
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


PLANTS = [
    (GAMES, "games/core/seats.py", "from discord.ui import View", "discord.ui"),
    (GAMES, "games/core/seats.py", "import asyncio", "asyncio"),
    (GAMES, "games/core/seats.py", "import aiosqlite as db", "aiosqlite"),
    (GAMES, "games/core/seats.py", "import asyncpg", "asyncpg"),
    (GAMES, "games/core/seats.py", "from bot import models", "bot.models"),
    # relative, out of games/core/ into the repository root
    (GAMES, "games/core/seats.py", "from ... import cogs", "cogs"),
    (GAMES, "games/players/base.py", "def later():\n    import discord", "discord"),
    (COMPUTER, "games/fiasco/game.py", "from games.fiasco.computer import thumb",
     "games.fiasco.computer"),
    (COMPUTER, "games/fiasco/scoring.py", "from .computer import knowledge",
     "games.fiasco.computer.knowledge"),
    (COMPUTER, "games/fizzbin/__init__.py", "from . import computer", "games.fizzbin.computer"),
    (COMPUTER, "games/core/game.py", "import games.fazes.computer.fast", "games.fazes.computer"),
    (BOT_DISCORD, "bot/tables/actions.py", "from discord import Embed", "discord"),
    (BOT_DISCORD, "bot/store/rows.py", "if TYPE_CHECKING:\n    import discord", "discord"),
    (BOT_COGS, "bot/tables/actions.py", "from cogs.ui import clip", "cogs.ui"),
    (BOT_COGS, "bot/app.py", "from cogs.commands import tables", "cogs.commands.tables"),
    (STORE_TABLES, "bot/store/rows.py", "from bot.tables.timers import CHOICES",
     "bot.tables.timers"),
    # relative, out of bot/store/sqlite/migrations/ into bot/
    (STORE_TABLES, "bot/store/sqlite/migrations/__init__.py", "from ....tables import session",
     "bot.tables.session"),
    (COGS_STORE, "cogs/render/table.py", "from bot.store.api import Store", "bot.store.api"),
    (COGS_STORE, "cogs/upkeep/ending.py", "from bot import store", "bot.store"),
    (COGS_GAME, "cogs/upkeep/publisher.py", "from games.core.game import Game",
     "games.core.game.Game"),
    (COGS_GAME, "cogs/render/table.py", "from games.core import Game", "games.core.Game"),
]


@pytest.mark.parametrize(("rule", "where", "line", "caught"), PLANTS)
def test_the_rule_fails_on_a_planted_import(tmp_path: Path, rule: str, where: str, line: str,
                                            caught: str):
    copy = planted(tmp_path, RULES[rule].folder.split("/")[0])
    before = set(violations(copy, RULES[rule]))
    plant(copy, where, line)
    new = set(violations(copy, RULES[rule])) - before
    assert new and all(v.startswith(f"{where}: ") for v in new), new
    assert any(v.split(": ")[1].startswith(caught) for v in new), new


def test_every_rule_is_shown_to_fail():
    assert {rule for rule, *_ in PLANTS} == set(RULES)


@pytest.mark.parametrize(("where", "line"), [
    ("games/fiasco/computer/thumb.py", "from games.fiasco.computer import bits"),
    ("games/players/base.py", "import games.fumblaroo.computer.knowledge"),
])
def test_the_computer_package_and_the_players_may_import_it(tmp_path: Path, where: str,
                                                            line: str):
    copy, rule = planted(tmp_path, "games"), RULES[COMPUTER]
    before = violations(copy, rule)
    plant(copy, where, line)
    assert violations(copy, rule) == before


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
    copy = planted(tmp_path, "cogs")
    assert live_game_reads(copy) == []
    plant(copy, where, line)
    [found] = live_game_reads(copy)
    assert found.startswith(f"{where}:") and found.endswith(caught), found


def test_the_live_game_check_lets_a_game_name_be_read(tmp_path: Path):
    copy = planted(tmp_path, "cogs")
    plant(copy, "cogs/upkeep/publisher.py",
          "def name(session, shown):\n    return session.table.game, shown.game")
    assert live_game_reads(copy) == []
