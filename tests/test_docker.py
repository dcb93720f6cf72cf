"""The Dockerfile keeps what the README promises (CI builds the image when a Docker daemon
answers; these read the recipe everywhere): the database on the volume whatever ``.env``
says, the dependencies in a layer of their own, a health check."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from bot.settings import Settings

REPO = Path(__file__).resolve().parents[1]
LINES = [line.strip() for line in (REPO / "Dockerfile").read_text().splitlines()
         if line.strip() and not line.lstrip().startswith("#")]


def final_stage() -> list[str]:
    starts = [i for i, line in enumerate(LINES) if line.startswith("FROM ")]
    return LINES[starts[-1]:]


def test_the_database_path_is_set_after_the_env_file_and_is_on_the_volume():
    stage = final_stage()
    assert 'VOLUME ["/data"]' in stage
    [entrypoint] = [line for line in stage if line.startswith("ENTRYPOINT")]
    assert entrypoint == 'ENTRYPOINT ["/usr/bin/env", "DATABASE_PATH=/data/fivefold.db"]'
    # .env.example's own value is what used to win, and it is not on the volume.
    example = Settings(_env_file=REPO / ".env.example")  # type: ignore[call-arg]
    assert not example.database_path.startswith("/data/")


def test_the_dependencies_install_before_the_code_is_copied():
    build = LINES[: [i for i, line in enumerate(LINES) if line.startswith("FROM ")][-1]]
    deps = next(i for i, line in enumerate(build) if "-r requirements.txt" in line)
    first_code = next(i for i, line in enumerate(build)
                      if re.match(r"COPY (games|bot|cogs|README)", line))
    assert build[:deps].count("COPY pyproject.toml ./") == 1
    assert deps < first_code
    assert any("--no-deps" in line for line in build[first_code:])


def test_the_image_has_a_health_check_the_package_installs():
    [check] = [line for line in final_stage() if line.startswith("HEALTHCHECK")]
    assert check.endswith('CMD ["fivefold-health"]')
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["fivefold-health"] == "bot.health:main"
    assert any(line.startswith("ENV ") and "HEALTH_FILE=" in " ".join(final_stage())
               for line in final_stage())
