"""Fizzbin's options (``rules/fizzbin.md``, "Options")."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.core.game import Options

MAX_HANDS = 15


class FizzbinOptions(Options):
    """``hands``: how many hands make the match; ``time``: day and night by the clock, or fixed."""

    hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = Field(
        5, description="How many hands make the match")
    time: Literal["clock", "day", "night"] = Field(
        "clock", description="Day or night by the server's clock, or always day, or always night")
