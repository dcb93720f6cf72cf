"""Events: what an action did, in words, returned by ``apply``.

The rules core does not know players' names, so an event's ``template`` refers
to the players it names by position (``{0}``, ``{1}``) and is filled in by
whoever renders it.

>>> e = Event("play", "{0} played K", (2,))
>>> e.describe(["Ana", "Ben", "Cy"])
'Cy played K'
>>> str(e)
'seat 2 played K'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a kind for code, a template for people."""

    kind: str
    template: str
    players: tuple[int, ...] = ()

    def describe(self, names: Sequence[str]) -> str:
        """The event in words, with the players' names filled in."""
        return self.template.format(*(names[p] for p in self.players))

    def __str__(self) -> str:
        return self.template.format(*(f"seat {p}" for p in self.players))
