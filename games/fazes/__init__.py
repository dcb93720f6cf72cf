"""Fazes: six deals of tricks, each scored its own way; the lowest total wins."""

from games.fazes.game import Fazes, FazesDeal
from games.fazes.options import FazesOptions

__all__ = ["Fazes", "FazesDeal", "FazesOptions"]
