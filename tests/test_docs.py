"""The docs hold what they promise.

The repository carries the rules and rule vectors its tests need (``docs/rules/``, the
project's copy of the shared ``rules/``: ``.ci/run`` diffs the two when the shared folder
is there). The player's and operator's reference (``README.md``, ``docs/operating.md``,
``docs/performance.md``) cites only what exists: every setting and nothing else, bench
scripts that are in ``bench/``, the code's constants, links and anchors that resolve, and
the rules bench's figures as its saved run has them.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

import games
from bot.settings import Settings

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "rules"


def test_the_rules_overview_is_in_the_repository():
    assert "Hidden information" in (RULES / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", games.names())
def test_every_registered_game_has_its_rules_in_docs(game: str):
    rules = RULES / f"{game}.md"
    assert rules.is_file(), f"docs/rules/{game}.md is missing"
    assert games.get(game).title.lower() in rules.read_text(encoding="utf-8").lower()


README = REPO / "README.md"
OPERATING = REPO / "docs" / "operating.md"
PERFORMANCE = REPO / "docs" / "performance.md"
REFERENCE = (README, OPERATING, PERFORMANCE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`[^`\n]*`")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def settings() -> set[str]:
    return {name.upper() for name in Settings.model_fields}


def table_first_cells(markdown: str, header: str) -> list[str]:
    """The first cell of each row of the table whose header row starts with ``header``."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip())
    return rows


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of ``markdown`` (code blocks left out)."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", markdown).splitlines():
        if not line.startswith("#"):
            continue
        title = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def test_every_setting_is_documented_in_the_settings_table_and_only_settings():
    rows = table_first_cells(text(OPERATING), "setting")
    documented = {cell.strip("`") for cell in rows}
    assert documented == settings(), (
        f"docs/operating.md's settings table misses {sorted(settings() - documented)} "
        f"and names {sorted(documented - settings())}, which bot/settings.py does not have")


def test_the_settings_performance_md_names_are_settings():
    for cell in table_first_cells(text(PERFORMANCE), "setting"):
        for name in re.findall(r"`([A-Z_]+)`", cell):
            assert name in settings(), f"docs/performance.md names {name}, not a setting"


def test_every_env_name_the_readme_gives_is_a_setting():
    """The README names settings in passing (`TURN_TIMEOUT`): each must exist."""
    code_constants = {"FIVEFOLD_TEST_POSTGRES_URL"}  # the tests' own, not the bot's
    names = set(re.findall(r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`", text(README)))
    assert names, "the README names no setting at all"
    assert names - code_constants <= settings(), sorted(names - code_constants - settings())


def test_every_bench_command_named_is_a_script_in_bench():
    """A measurement the docs cite must come from a script that stays in ``bench/``."""
    for path in REFERENCE:
        modules = set(re.findall(r"python -m bench\.(\w+)", text(path)))
        modules |= set(re.findall(r"`bench\.(\w+)", text(path)))
        missing = sorted(m for m in modules if not (REPO / "bench" / f"{m}.py").is_file())
        assert not missing, f"{path.name} cites bench.{missing}, not in bench/"
    assert "bot" in set(re.findall(r"python -m bench\.(\w+)", text(PERFORMANCE)))


def test_the_constants_performance_md_names_exist_with_their_values():
    rows = table_first_cells(text(PERFORMANCE), "constant")
    assert rows
    for cell in rows:
        dotted = cell.strip("`")
        module, _, name = dotted.rpartition(".")
        assert hasattr(importlib.import_module(module), name), f"{dotted} does not exist"


@pytest.mark.parametrize("doc", REFERENCE, ids=lambda p: p.name)
def test_every_relative_link_and_anchor_resolves(doc: Path):
    for target in LINK.findall(INLINE.sub("", FENCE.sub("", text(doc)))):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        where = (doc.parent / file).resolve() if file else doc
        assert where.exists(), f"{doc.name} links to {target}: no such file"
        if anchor:
            assert where.suffix == ".md", f"{doc.name} links to {target}"
            assert anchor in anchors(text(where)), f"{doc.name} links to {target}: no such heading"


def test_the_rules_figures_in_performance_md_are_those_of_the_saved_run():
    saved = json.loads(text(REPO / "bench" / "rules-results.json"))
    doc = text(PERFORMANCE)
    assert "bench/rules-results.json" in doc
    for fast in saved["fast"]:
        playouts = f"{fast['per_s']['median']:,.0f}"
        row = f"| {fast['game'].capitalize()} | {fast['players']} | {playouts} ("
        assert row in doc, f"docs/performance.md's rules table does not say {row}"
        assert f"| {fast['mid_game_per_300ms']['median']:,.0f} |" in doc
