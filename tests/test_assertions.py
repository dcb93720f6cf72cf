"""Every test asserts something: a test that only runs code passes whatever the code does.

A test checks when its own body (functions nested in it included) has an ``assert``, a
``pytest.raises``/``warns``/``fail`` or a ``raise AssertionError``, or when it calls a
helper of the tests (defined in its module, or imported from another module under
``tests/``) that does, however deep. The fake Discord's teardown check of what the bot
sent (``FakeDiscord.assert_no_violations``) comes on top and counts for none.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
Function = ast.FunctionDef | ast.AsyncFunctionDef
PYTEST_CHECKS = frozenset({"raises", "warns", "fail", "deprecated_call"})


def modules(root: Path) -> dict[str, ast.Module]:
    """Every module under ``root`` (a ``tests`` folder), by its dotted name."""
    return {".".join(path.relative_to(root.parent).with_suffix("").parts):
            ast.parse(path.read_text(), str(path)) for path in sorted(root.rglob("*.py"))}


def functions(tree: ast.AST) -> dict[str, Function]:
    """The functions defined anywhere in ``tree``, by name (the first of a name)."""
    found: dict[str, Function] = {}
    for node in ast.walk(tree):
        if isinstance(node, Function):
            found.setdefault(node.name, node)
    return found


def helpers(name: str, known: dict[str, ast.Module], defined: dict[str, dict[str, Function]]
            ) -> dict[str, tuple[str, Function]]:
    """What module ``name`` may call of the tests' own code, as it calls it (``helper`` or
    ``module.helper``): its functions, and those it imports from modules under tests/
    (``defined``: each module's functions)."""
    found = {f: (name, node) for f, node in defined[name].items()}
    for node in known[name].body:
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        for alias in node.names:
            called = alias.asname or alias.name
            if alias.name in defined.get(node.module, {}):
                found[called] = (node.module, defined[node.module][alias.name])
            elif (module := f"{node.module}.{alias.name}") in known:  # a module of helpers
                found.update({f"{called}.{f}": (module, helper)
                              for f, helper in defined[module].items()})
    return found


def checks_itself(node: ast.AST) -> bool:
    """Whether ``node`` asserts, expects an exception, or fails, in its own code."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Assert):
            return True
        if isinstance(inner, ast.Raise) and inner.exc is not None \
                and "AssertionError" in ast.unparse(inner.exc):
            return True
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                and isinstance(inner.func.value, ast.Name) \
                and inner.func.value.id == "pytest" and inner.func.attr in PYTEST_CHECKS:
            return True
    return False


def calls(node: ast.AST) -> set[str]:
    """The names ``node`` calls: ``helper(...)`` and ``module.helper(...)``."""
    found = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            if isinstance(inner.func, ast.Name):
                found.add(inner.func.id)
            elif isinstance(inner.func, ast.Attribute) and isinstance(inner.func.value, ast.Name):
                found.add(f"{inner.func.value.id}.{inner.func.attr}")
    return found


def unchecked(root: Path) -> list[str]:
    """The tests under ``root`` that check nothing, as ``module:line name``."""
    known = modules(root)
    defined = {name: functions(tree) for name, tree in known.items()}
    scopes = {name: helpers(name, known, defined) for name in known}
    verdicts: dict[int, bool] = {}

    def checks(module: str, node: Function, path: frozenset[int]) -> bool:
        if id(node) not in verdicts:
            verdicts[id(node)] = checks_itself(node) or any(
                checks(*scopes[module][called], path | {id(node)})
                for called in calls(node) & scopes[module].keys()
                if id(scopes[module][called][1]) not in path | {id(node)})
        return verdicts[id(node)]

    found = []
    for name, tree in known.items():
        if not name.rpartition(".")[2].startswith("test_"):
            continue
        tests = [node for node in tree.body if isinstance(node, Function)]
        tests += [f for c in tree.body if isinstance(c, ast.ClassDef) and c.name.startswith("Test")
                  for f in c.body if isinstance(f, Function)]
        found += [f"{name}:{test.lineno} {test.name}" for test in tests
                  if test.name.startswith("test") and not checks(name, test, frozenset())]
    return found


def test_every_test_checks_something():
    assert unchecked(TESTS) == []


def test_the_check_finds_a_test_that_only_runs_code(tmp_path: Path):
    root = tmp_path / "tests"
    (root / "games").mkdir(parents=True)
    (root / "helpers.py").write_text(
        "def checked(x):\n    assert x\n\ndef quiet(x):\n    return x\n\n"
        "def deeper(x):\n    checked(x)\n")
    (root / "games" / "test_planted.py").write_text(
        "import pytest\nfrom tests import helpers\nfrom tests.helpers import deeper, quiet\n\n"
        "def test_runs_only():\n    quiet(1)\n\n"
        "def test_own():\n    assert quiet(1)\n\n"
        "def test_through_a_helper():\n    deeper(1)\n\n"
        "def test_through_a_module():\n    helpers.checked(1)\n\n"
        "def test_raises():\n    with pytest.raises(ValueError):\n        int('x')\n\n"
        "class TestGrouped:\n    def test_quiet(self):\n        quiet(2)\n")
    assert unchecked(root) == ["tests.games.test_planted:5 test_runs_only",
                               "tests.games.test_planted:22 test_quiet"]
