"""Fiasco: collect the cards of your own suit and Kings by winning pots; dodge the Fiascos."""

from games.fiasco.game import Fiasco, FiascoDeal
from games.fiasco.options import FiascoOptions

__all__ = ["Fiasco", "FiascoDeal", "FiascoOptions"]
