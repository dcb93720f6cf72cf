"""Fumblaroo: three-player Euchre with a 27-card deck, both 2s high in trump."""

from games.fumblaroo.deal import FumblarooDeal
from games.fumblaroo.game import Fumblaroo
from games.fumblaroo.options import FumblarooOptions

__all__ = ["Fumblaroo", "FumblarooDeal", "FumblarooOptions"]
