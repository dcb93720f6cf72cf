"""``scripts/install`` (used by ``scripts/run`` and ``scripts/test``) installs only when
``pyproject.toml`` changed, and quietly. Run on a copy, with a stand-in ``.venv/bin/python``
that records how it was called instead of running pip."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FAKE_PYTHON = """#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/../calls"
echo "setuptools: some editable-install warning" >&2
[[ -f "$(dirname "$0")/../fail" ]] && { echo "pip: no such package" >&2; exit 1; }
exit 0
"""


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "install", tmp_path / "scripts" / "install")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return tmp_path


def install(copy: Path, *extras: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(copy / "scripts" / "install"), *extras], cwd=copy,
                          capture_output=True, text=True, timeout=60, check=False)


def calls(copy: Path) -> list[str]:
    path = copy / ".venv" / "calls"
    return path.read_text().splitlines() if path.exists() else []


def test_it_installs_once_then_not_until_pyproject_changes(copy: Path):
    first = install(copy)
    assert first.returncode == 0
    assert calls(copy) == ["-m pip install --quiet --disable-pip-version-check -e ."]
    assert "warning" not in first.stderr and first.stdout == ""  # pip's noise is in the log
    assert "setuptools" in (copy / ".venv" / "install.log").read_text()
    again = install(copy)
    assert again.returncode == 0 and again.stderr == "" and len(calls(copy)) == 1
    (copy / "pyproject.toml").write_text((copy / "pyproject.toml").read_text() + "\n# changed\n")
    assert install(copy).returncode == 0 and len(calls(copy)) == 2


def test_the_test_extras_install_once_and_cover_a_plain_install(copy: Path):
    assert install(copy).returncode == 0
    assert install(copy, "test").returncode == 0
    assert calls(copy)[-1].endswith("-e .[test]")
    assert install(copy).returncode == 0 and install(copy, "test").returncode == 0
    assert len(calls(copy)) == 2


def test_a_failed_install_shows_its_log_and_is_tried_again(copy: Path):
    (copy / ".venv" / "fail").touch()
    failed = install(copy)
    assert failed.returncode == 1 and "pip: no such package" in failed.stderr
    (copy / ".venv" / "fail").unlink()
    assert install(copy).returncode == 0 and len(calls(copy)) == 2
