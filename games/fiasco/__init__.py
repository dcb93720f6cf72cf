"""Fiasco: collect the cards of your own suit and Kings by winning pots; dodge the Fiascos."""

from games.fiasco.deal import FiascoDeal
from games.fiasco.game import Fiasco
from games.fiasco.options import FiascoOptions

__all__ = ["Fiasco", "FiascoDeal", "FiascoOptions"]
