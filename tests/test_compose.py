"""``compose.yaml`` holds what "Running at scale" in ``docs/operating.md`` promises.

No Docker daemon runs in CI, so the file is read, not run: PostgreSQL on a volume
with ``pg_isready`` as its health check; bot processes built from this repository's
image, each waiting for a healthy database, checked by ``fivefold-health``, on
PostgreSQL, and together holding every shard exactly once (their environment goes
through the bot's own :class:`~bot.settings.Settings`).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import Settings
from bot.store.url import parse_database_url

REPO = Path(__file__).resolve().parents[1]
INTERPOLATION = re.compile(r"\$\{(\w+)(?::?[?-][^}]*)?\}")


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text())
    return loaded


def bots(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: service for name, service in spec["services"].items()
            if name.startswith("bot")}


def interpolate(value: str) -> str:
    """What compose makes of ``${VAR}`` with every variable set to ``secret``."""
    return INTERPOLATION.sub("secret", value)


def settings_of(service: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The bot's settings in ``service``: its environment, read as the bot reads it."""
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    for name, value in service["environment"].items():
        monkeypatch.setenv(name, interpolate(str(value)))
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_postgres_keeps_its_data_on_a_volume_and_says_when_it_is_ready() -> None:
    spec = compose()
    postgres = spec["services"]["postgres"]
    assert postgres["image"].startswith("postgres:")
    [mount] = postgres["volumes"]
    volume, _, target = mount.partition(":")
    assert target == "/var/lib/postgresql/data" and volume in spec["volumes"]
    test = postgres["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL" and test[1].startswith("pg_isready ")
    env = postgres["environment"]
    assert f"-U {env['POSTGRES_USER']}" in test[1] and f"-d {env['POSTGRES_DB']}" in test[1]
    assert "?" in env["POSTGRES_PASSWORD"]  # compose refuses to start without one


def test_every_bot_is_the_image_checked_by_fivefold_health_after_a_healthy_database() -> None:
    services = bots(compose())
    assert len(services) >= 2
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert "fivefold-health" in scripts
    for name, service in services.items():
        assert service["build"] == "." and (REPO / "Dockerfile").is_file(), name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert service["healthcheck"]["test"] == ["CMD", "fivefold-health"], name
        assert service["stop_signal"] == "SIGTERM", name


def test_the_bots_share_the_database_and_hold_every_shard_exactly_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = compose()
    postgres = spec["services"]["postgres"]["environment"]
    held: list[int] = []
    counts = set()
    for service in bots(spec).values():
        settings = settings_of(service, monkeypatch)
        where = parse_database_url(settings.store_url)
        assert where.backend == "postgresql"
        assert f"@postgres:5432/{postgres['POSTGRES_DB']}" in interpolate(
            service["environment"]["DATABASE_URL"])
        assert settings.shard_count is not None and settings.shard_ids is not None
        counts.add(settings.shard_count)
        held.extend(settings.shard_ids)
    [count] = counts
    assert sorted(held) == list(range(count)), "each shard in exactly one process"
