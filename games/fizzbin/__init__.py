"""Fizzbin: draw and discard until the stack runs out, then the best hand wins."""

from games.fizzbin.deal import FizzbinDeal
from games.fizzbin.game import Fizzbin
from games.fizzbin.options import FizzbinOptions
from games.fizzbin.scoring import HandRank

__all__ = ["Fizzbin", "FizzbinDeal", "FizzbinOptions", "HandRank"]
