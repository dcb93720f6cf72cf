"""``scripts/install`` (used by ``scripts/run`` and ``scripts/test``) installs only when
``pyproject.toml`` changed, and quietly. Run on a copy, with a stand-in ``.venv/bin/python``
that records how it was called instead of running pip."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
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


def postgres_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(REPO / "scripts" / "postgres"), *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_postgres_script_says_how_to_use_it():
    for args in ((), ("start",), ("begin", "/tmp/x")):
        done = postgres_script(*args)
        assert done.returncode == 1 and "usage: scripts/postgres start DIR" in done.stderr


@pytest.fixture
def reachable_folder():
    """A new folder (as ``mktemp -d`` makes) in the system's temporary one, which the script
    gives to the server's user (pytest's ``tmp_path`` lies under a folder of root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="fivefold-test-pg-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_postgres_script_refuses_a_folder_its_user_cannot_enter(tmp_path):
    """As root the server runs as another user, who cannot enter pytest's private folders."""
    from tests.stores import need_postgres

    need_postgres()
    if os.geteuid() != 0:
        pytest.skip("not root: the script runs the server as this user, who can enter it")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    done = postgres_script("start", str(private / "pg"))
    assert done.returncode == 1 and "cannot enter" in done.stderr, done.stderr


async def test_the_postgres_script_starts_a_server_as_a_non_root_user_and_stops_it(
    reachable_folder,
):
    """What CI and ./scripts/test run: a real server on a loopback port, then nothing left."""
    import asyncpg

    from tests.stores import need_postgres

    need_postgres()  # the same reason to skip as every PostgreSQL test (no binaries here)
    folder = reachable_folder
    started = postgres_script("start", str(folder))
    try:
        assert started.returncode == 0, started.stderr
        url = started.stdout.strip()
        assert url.startswith("postgresql://fivefold:") and "@127.0.0.1:" in url
        assert (folder / "url").read_text().strip() == url
        conn = await asyncpg.connect(url)
        try:
            owner = await conn.fetchval("SELECT current_setting('data_directory')")
            assert Path(owner).parent == folder
        finally:
            await conn.close()
        pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
        assert os.stat(f"/proc/{pid}").st_uid != 0  # PostgreSQL refuses root; so do we
    finally:
        stopped = postgres_script("stop", str(folder))
    assert stopped.returncode == 0, stopped.stderr
    assert not (folder / "data" / "postmaster.pid").exists()
    assert postgres_script("stop", str(folder)).returncode == 0  # stopping twice is harmless


def test_the_run_script_says_what_it_does_without_installing(tmp_path):
    """``./scripts/run --help`` explains itself, before (and without) any install."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "run", tmp_path / "scripts" / "run")
    for flag in ("--help", "-h"):
        done = subprocess.run(["bash", str(tmp_path / "scripts" / "run"), flag], cwd=tmp_path,
                              capture_output=True, text=True, timeout=30, check=False)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.startswith("usage: ./scripts/run")
        assert "Starts the Fivefold Discord bot" in done.stdout and "DISCORD_TOKEN" in done.stdout
    assert not (tmp_path / ".venv").exists()  # nothing was installed to say it
