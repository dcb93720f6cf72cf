"""A game's rules in brief, as ``/rules`` and the ``Rules`` buttons show them."""

from __future__ import annotations

from typing import Any

import games
from cogs.ui import clip
from games.core.game import Game


def options_text(game: str, chosen: dict[str, object]) -> str:
    """Every option of ``game`` with its value (the defaults included)."""
    model = games.get(game).options_model
    parts = []
    for name, info in model.model_fields.items():
        value = chosen.get(name, info.get_default(call_default_factory=True))
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, list | tuple):
            value = ",".join(map(str, value))
        parts.append(f"{name}: {value}")
    return ", ".join(parts) or "none"


def player_range(cls: type[Game[Any]]) -> str:
    """``exactly 3 players`` or ``3 to 8 players``."""
    if cls.min_players == cls.max_players:
        return f"exactly {cls.min_players} players"
    return f"{cls.min_players} to {cls.max_players} players"


def rules_text(game: str) -> str:
    """The summary of ``game``, its options with their defaults, and who may play."""
    cls = games.get(game)
    return clip(f"{cls.summary.strip()}\n\n**Options** (with their defaults): "
                f"{options_text(game, {})}. For {player_range(cls)}.", 2000)


__all__ = ["options_text", "player_range", "rules_text"]
