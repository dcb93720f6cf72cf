"""Fazes' options (``rules/fazes.md``, "Options")."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from games.core.game import Options

ALL_FAZES = (1, 2, 3, 4, 5, 6)

FazeNumber = Annotated[int, Field(ge=1, le=6)]


class FazesOptions(Options):
    """``fazes``: the fazes to play, in order; repeats allowed (default: 1 to 6).

    Any non-empty list: the rules set no maximum length.
    """

    fazes: list[FazeNumber] = Field(default_factory=lambda: list(ALL_FAZES), min_length=1,
                                    description="The fazes to play, in order; repeats allowed")
