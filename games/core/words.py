"""Words, written one way for the rules, the bot's messages and the terminal alike.

Counted words come from :func:`games.core.counted.plural` (given here too, as ``plural``).

The table in words, one voice for the bot's table message, its hand menu and the
terminal: the rest reads a :class:`~games.core.game.View` (what one viewer may see) and
the players' names, and writes cards as the game writes them for people
(:meth:`~games.core.game.Game.card_label`): the facts with the cards left in the stock,
and the cards on the table (the trick, face-up cards, the top of each pile). The Discord
layer adds mentions, countdowns and buttons around these lines; the terminal prints them
as they are.

>>> import games
>>> game = games.new_game("fizzbin", 2, {"time": "day"}, seed=1)
>>> fact_words(game.view_for(None), ["Ana", "Ben"])
['Time: day', 'Special: K and 2', 'Forced: Q and 4', 'Stack: 38 cards left']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.core.counted import plural
from games.core.zones import ZoneKind, ZoneView, zone_title

if TYPE_CHECKING:  # the rules import this module: its game types are for annotations only
    from games.core.game import Game, View


def fact_words(view: View, names: Sequence[str], *, said: str = "") -> list[str]:
    """The public facts as ``Name: value``, then the shared stock as a count of cards left
    ("Spicy: 14 cards left"), unless a fact of the game's own names it.

    ``said``: a sentence shown beside them (what the rules ask of a player): a fact whose
    value it says already ("red is trump") is left out, so each fact is said once.
    """
    facts = [f"{name}: {value}" for name, value in view.facts
             if value and not says(said, value)]
    stock = next((z for z in view.zones if z.kind is ZoneKind.STOCK and z.owner is None), None)
    told = {name.lower() for name, _ in view.facts}
    if stock is not None and stock.count and zone_title(stock, names).lower() not in told:
        facts.append(f"{zone_title(stock, names)}: {plural(stock.count, 'card')} left")
    return facts


def says(sentence: str, value: str) -> bool:
    """Whether ``sentence`` says ``value`` as words of its own, in any case.

    >>> says("follow Green; red is trump", "Red"), says("a reddish card", "Red")
    (True, False)
    """
    return bool(sentence) and re.search(
        rf"(?<!\w){re.escape(value.casefold())}(?!\w)", sentence.casefold()) is not None


def zone_text(game: type[Game[Any]], zone: ZoneView) -> str:
    """A zone's cards as people read them, or how many lie face down."""
    if zone.cards is None:
        return f"{plural(zone.count, 'card')} face down"
    if not zone.cards:
        return "empty"
    if zone.kind is ZoneKind.WASTE:
        return plural(zone.count, "card")
    return game.cards_label(zone.cards)


def table_lines(game: type[Game[Any]], view: View, names: Sequence[str]) -> list[str]:
    """The cards on the table: the trick (who played what), face-up cards, piles' tops."""
    lines = []
    if view.trick:
        lines.append("On the table: " + " · ".join(
            f"{names[p]} {game.card_label(c)}" for p, c in view.trick))
    on_table = tuple(c for _, c in view.trick)
    told = {name.lower() for name, _ in view.facts}  # a fact says it already (the prize)
    shared = [z for z in view.zones if z.cards and z.owner is None
              and zone_title(z, names).lower() not in told
              and (z.kind is ZoneKind.FACE_UP
                   or (z.kind is ZoneKind.TRICK and z.cards != on_table))]
    if shared:
        lines.append(" · ".join(f"{zone_title(z, names)}: {zone_text(game, z)}"
                                for z in shared))
    for kind, label in ((ZoneKind.FACE_UP, "Face up"), (ZoneKind.PILE, "Piles")):
        owned = [(z, z.top) for z in view.zones if z.kind is kind and z.owner is not None]
        shown = [f"{names[z.owner]} {game.card_label(top)}"  # type: ignore[index]
                 + (f" ({z.count})" if kind is ZoneKind.PILE else "")
                 for z, top in owned if top is not None]
        if shown:
            lines.append(f"{label}: " + " · ".join(shown))
    return lines


__all__ = ["fact_words", "plural", "says", "table_lines", "zone_text"]
