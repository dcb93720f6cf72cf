"""Every rule vector (``docs/rules/vectors/<game>/*.json``) replays to its
expected output through ``python -m games replay -``; every registered game has vectors."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from tests.vectors import VECTORS, check_vector, vector_files


def _all_vectors() -> list[Path]:
    """Every vector file of every game folder, or the missing folder itself (so that the
    test fails rather than skips on an empty parameter set)."""
    if not VECTORS.is_dir():
        return [VECTORS]
    return [path for folder in sorted(VECTORS.iterdir()) if folder.is_dir()
            for path in sorted(folder.glob("*.json"))] or [VECTORS]


ALL_VECTORS = _all_vectors()


@pytest.mark.parametrize(
    "path", ALL_VECTORS, ids=[f"{path.parent.name}/{path.stem}" for path in ALL_VECTORS]
)
def test_rule_vector_replays_as_expected(path: Path):
    assert path.is_file(), f"no rule vectors in {path}"
    check_vector(path)


@pytest.mark.parametrize("game", games.names())
def test_every_registered_game_has_rule_vectors(game: str):
    assert VECTORS.is_dir(), f"the rule vectors are missing: {VECTORS}"
    assert vector_files(game)
