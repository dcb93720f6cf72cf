"""A computer's worker process carries the rules and the computer players, nothing more.

The fork server of the worker pools imports :data:`bot.workers.PRELOAD` once, and a worker
unpickles its question (:class:`bot.thinking.Question`) and the function answering it
(:func:`bot.thinking.think`) by their modules' names. Importing those in a fresh
interpreter must leave discord.py, aiohttp, the databases' drivers, the store, the table
service and the cogs out of ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import bot.thinking
import bot.workers
from bot.tables.computers import Computers

REPO = Path(__file__).resolve().parents[2]
KEPT_OUT = ("discord", "aiohttp", "aiosqlite", "asyncpg", "cogs", "bot.store", "bot.tables",
            "bot.app", "bot.settings")
"""Packages and modules no computer worker imports (a name covers its submodules)."""


def loaded_by_a_worker(*also: str) -> list[str]:
    """The modules of :data:`KEPT_OUT` that importing a worker's modules (and ``also``)
    loads, in a fresh interpreter."""
    script = (
        "import importlib, json, sys\n"
        "import bot.workers\n"
        f"for name in [*bot.workers.PRELOAD, 'bot.thinking', *{also!r}]:\n"
        "    importlib.import_module(name)\n"
        f"kept_out = {KEPT_OUT!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules\n"
        "                        if any(m == k or m.startswith(k + '.') for k in kept_out))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=True)
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_a_computer_worker_loads_no_discord_no_store_and_no_table_service():
    assert loaded_by_a_worker() == []


def test_what_crosses_to_a_worker_comes_from_the_module_the_workers_preload():
    assert "bot.thinking" in bot.workers.PRELOAD
    assert bot.thinking.think.__module__ == bot.thinking.Question.__module__ == "bot.thinking"
    assert Computers(workers=1, budget=1.0).thinker is bot.thinking.think


def test_the_check_sees_a_module_a_worker_should_not_load():
    # A worker that imported the table service's facade would carry the settings and the
    # store's protocols with it: the same scan reports them.
    loaded = loaded_by_a_worker("bot.tables.service")
    assert {"bot.tables.service", "bot.settings", "bot.store.api"} <= set(loaded)
