"""Fibonachos' options (``rules/fibonachos.md``, "Options")."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from games.core.game import Options

MIN_ROUNDS = 1
MAX_ROUNDS = 5


class FibonachosOptions(Options):
    """``rounds``: how many rounds the game lasts (1 to 5, three by default)."""

    rounds: Annotated[int, Field(ge=MIN_ROUNDS, le=MAX_ROUNDS)] = Field(
        3, description="How many rounds the game lasts")
