"""Fumblaroo's options (``rules/fumblaroo.md``, "Options")."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from games.core.game import Options

MIN_TARGET = 5
MAX_TARGET = 25


class FumblarooOptions(Options):
    """``target``: the total (5 to 25, default 10) that a single leader must reach to win."""

    target: Annotated[int, Field(ge=MIN_TARGET, le=MAX_TARGET)] = Field(
        10, description="The total a single leader must reach to win")
