"""Which bot a bench runs: this tree's, another revision's, or either with libraries hidden.

A change is measured beside what it replaced *in the same run* (``bench.bot --versus``),
rounds interleaved, so that a machine that gets busier mid-run moves both sides alike.
The reference is described by a spec:

``rev=REV``
    the bot's code (``bot``, ``cogs``, ``games`` and the test runner) as it was at the
    git revision ``REV``, extracted into a temporary folder;
``without=NAME[,NAME...]``
    libraries hidden from the bot process as if they were not installed: ``speed`` (what
    ``discord.py[speed]`` adds: orjson for discord.py's payloads, aiodns, Brotli,
    zstandard), ``uvloop``, and ``httptools`` (without it the bot's REST calls go through
    aiohttp, as before ``bot/rest.py``);
``python=PATH``
    the bot run by another interpreter (a virtual environment's ``bin/python`` with the
    project's dependencies installed): which Python an operator should run it on;
``rev=REV+without=NAME``
    any of them joined by ``+``.

The bot runs as ``python -c RUNNER HIDDEN PORT``: :data:`RUNNER` hides the libraries
(``sys.modules[name] = None``, so ``import name`` fails as for a missing package), then
runs ``tests.run_bot_against_fake`` from the code's folder. orjson is hidden only while
discord.py and aiohttp import (they choose their JSON then): the store's own use of it is
part of the code, measured with ``rev=``.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("bot", "cogs", "games", "tests/__init__.py", "tests/run_bot_against_fake.py")
"""What a revision's bot needs from its tree."""

LIBRARIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # name: (modules hidden for good, modules hidden while discord.py imports)
    "speed": (("aiodns", "brotli", "zstandard"), ("orjson",)),
    "uvloop": (("uvloop",), ()),
    "httptools": (("httptools",), ()),  # REST calls through aiohttp again (bot/rest.py)
}

RUNNER = """\
import json, runpy, sys
hidden = json.loads(sys.argv.pop(1))
for name in hidden["always"] + hidden["while_discord"]:
    sys.modules[name] = None
import discord  # noqa: E402, F401 (its speed-ups are chosen as it imports)
for name in hidden["while_discord"]:
    del sys.modules[name]
runpy.run_module("tests.run_bot_against_fake", run_name="__main__", alter_sys=True)
"""


class CodeError(ValueError):
    """A spec that names no bot this bench can run."""


@dataclass(frozen=True)
class BotCode:
    """A bot to run: the folder its code is in, and the libraries hidden from it."""

    label: str
    root: Path = ROOT
    always: tuple[str, ...] = ()
    while_discord: tuple[str, ...] = ()
    python: str | None = None
    """The interpreter that runs the bot; None: the bench's own."""

    def command(self, python: str, port: int) -> list[str]:
        """The command line of this bot against the fake Discord on ``port``, run by
        :attr:`python` if set, else by ``python``."""
        hidden = {"always": list(self.always), "while_discord": list(self.while_discord)}
        return [self.python or python, "-c", RUNNER, json.dumps(hidden), str(port)]

    def env(self) -> dict[str, str]:
        """What the bot process's environment adds: where its code is."""
        return {"PYTHONPATH": str(self.root)}


THIS = BotCode("this tree")
"""The bot as this tree has it, with every library installed."""


def extract(rev: str, into: Path) -> Path:
    """The bot's code at git revision ``rev``, written below ``into``; its folder."""
    folder = into / f"rev-{rev.replace('/', '-')}"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *CODE],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True,
                       capture_output=True)
    except subprocess.CalledProcessError as exc:
        raise CodeError(f"cannot read revision {rev!r} from git: "
                        f"{exc.stderr.decode(errors='replace').strip()}") from None
    return folder


def scratch() -> Path:
    """A temporary folder for extracted revisions, removed when the bench exits."""
    folder = Path(tempfile.mkdtemp(prefix="fivefold-botcode-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def parse(spec: str, into: Path | None = None) -> BotCode:
    """The bot ``spec`` describes (see the module); a revision is extracted below ``into``
    (a new temporary folder if None). CodeError says what is wrong with ``spec``."""
    if not spec:
        return THIS
    root, python = ROOT, None
    always: list[str] = []
    during: list[str] = []
    for part in filter(None, spec.split("+")):
        key, _, value = part.partition("=")
        if key == "rev" and value:
            root = extract(value, into or scratch())
        elif key == "without" and value:
            for name in value.split(","):
                if name not in LIBRARIES:
                    raise CodeError(f"without={name}: the libraries are "
                                    f"{', '.join(LIBRARIES)}")
                always += LIBRARIES[name][0]
                during += LIBRARIES[name][1]
        elif key == "python" and value:
            python = interpreter(value)
        else:
            raise CodeError(f"{part!r}: a reference is rev=REV, without=NAME, python=PATH, "
                            "or several joined by +")
    return BotCode(spec, root, tuple(always), tuple(during), python)


def interpreter(path: str) -> str:
    """``path`` as an absolute path (the bot runs in a folder of its own), if it runs Python
    with discord.py importable; CodeError says why not. A bare name is looked up on PATH."""
    found = shutil.which(path)
    if found is None:
        raise CodeError(f"python={path}: not an interpreter with discord.py installed "
                        "(no such program)")
    found = os.path.abspath(found)
    try:
        subprocess.run([found, "-c", "import discord"], capture_output=True, check=True,
                       timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", b"") or str(exc).encode()
        raise CodeError(f"python={path}: not an interpreter with discord.py installed "
                        f"({detail.decode(errors='replace').strip()[-200:]})") from None
    return found


__all__ = ["LIBRARIES", "RUNNER", "THIS", "BotCode", "CodeError", "extract", "interpreter",
           "parse"]
