"""Fiasco's options (``rules/fiasco.md``, "Options")."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from games.core.errors import SetupError
from games.core.game import Options


class FiascoOptions(Options):
    """``length``: one Counting Round or play to 42; ``teams`` at 4 or 6; 2-player ``suits``."""

    length: Literal["quick", "extended"] = Field(
        "quick", description="Quick: one Counting Round; extended: play on until someone has 42")
    teams: bool = Field(False, description="Partners sit across and add up their scores (4 or 6 "
                                           "players)")
    suits: Literal["six", "four", "double"] = Field(
        "six", description="Two players only: six suits, four (the two claimed and two more), or "
                           "double (two each)")

    def check(self, players: int) -> None:
        """Raise :class:`SetupError` if these options do not fit ``players``: teams are for
        four or six, the other ``suits`` for two."""
        if self.teams and players not in (4, 6):
            raise SetupError(f"teams are for 4 or 6 players, not {players}")
        if self.suits != "six" and players != 2:
            raise SetupError(f"suits: {self.suits} is for 2 players only, not {players}")
