"""Fizzbin's options (``rules/fizzbin.md``, "Options")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.core.game import Options

MAX_HANDS = 15


class FizzbinOptions(Options):
    """``hands``: how many hands make the match; ``time``: day and night by the clock, or fixed."""

    hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 5
    time: Literal["clock", "day", "night"] = "clock"
