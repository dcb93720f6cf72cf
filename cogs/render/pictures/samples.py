"""Draw sample pictures of every game for the docs.

    .venv/bin/python -m cogs.render.pictures.samples docs/pictures

For each game at its largest player count, a seeded random game is stopped where
cards lie on the table, and its table picture and the hand of the player to act
are written as ``<game>-table.png`` and ``<game>-hand.png``, with the alt text of
each beside it in ``README.md``. The same command always writes the same files.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import games
from cogs.render.pictures.picture import hand_picture, table_picture
from games.core.game import Game
from games.core.zones import ZoneKind

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def sample_game(name: str) -> Game[Any]:
    """A game of ``name`` at its largest table, stopped with cards on the table."""
    cls = games.get(name)
    rng = random.Random(f"samples:{name}")
    game = games.new_game(name, cls.max_players, seed=11)
    for _ in range(400):
        if game.over:
            break
        view = game.view_for(None)
        if len(view.trick) >= 2 or (not view.trick and _face_up(game) >= 3):
            break
        seat = game.to_act
        assert seat is not None  # a game that is not over has someone to act
        game.apply(seat, rng.choice(game.legal_actions()))
    return game


def _face_up(game: Game[Any]) -> int:
    return sum(len(z.cards or ()) for z in game.view_for(None).zones
               if z.kind in (ZoneKind.FACE_UP, ZoneKind.PILE))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cogs.render.pictures.samples FOLDER", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# Sample pictures", "",
             "Drawn by `python -m cogs.render.pictures.samples docs/pictures`: each game at its "
             "largest table, the table message's picture and the hand of the player to act "
             "(cards that cannot be played now are dimmed). Below each, the alt text the "
             "bot sends with it.", ""]
    for name in games.names():
        game = sample_game(name)
        names = NAMES[: game.players]
        table = table_picture(game, names)
        seat = game.to_act if game.to_act is not None else 0
        view = game.view_for(seat)
        cards = [c for z in view.zones if z.owner == seat and z.cards is not None
                 and z.kind in (ZoneKind.HAND, ZoneKind.FACE_UP) for c in z.cards]
        hand = hand_picture(game, seat, cards, game.legal_actions(seat))
        title = games.get(name).title
        lines += [f"## {title}", ""]
        for kind, picture in (("table", table), ("hand", hand)):
            if picture is None:
                continue
            file = f"{name}-{kind}.png"
            (out / file).write_bytes(picture.png)
            lines += [f"![{title} {kind}]({file})", "", f"> {picture.alt}", ""]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
