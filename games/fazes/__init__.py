"""Fazes: six deals of tricks, each scored its own way; the lowest total wins."""

from games.fazes.deal import FazesDeal
from games.fazes.game import Fazes
from games.fazes.options import FazesOptions

__all__ = ["Fazes", "FazesDeal", "FazesOptions"]
