"""Fibonachos: win tricks for Spicy cards, or none at all; Fibonachos turn into trumps."""

from games.fibonachos.deal import FibonachosDeal
from games.fibonachos.game import Fibonachos
from games.fibonachos.options import FibonachosOptions

__all__ = ["Fibonachos", "FibonachosDeal", "FibonachosOptions"]
