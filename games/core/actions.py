"""Actions as immutable values whose text form is the record notation.

An action is a verb with at most one card and one further argument (a suit
letter, a player index, or ``stack``): ``play S4``, ``choose S``, ``draw 2``,
``discard 7C 1``, ``order``. Each game names its verbs in a :class:`Verb`
enumeration (the values are the notation's words) and declares what each takes in a
:class:`Grammar`, which parses text case-insensitively.

>>> from games.core.cards import Card, Deck
>>> class Toy(Verb):
...     PLAY = "play"
...     CHOOSE = "choose"
>>> g = Grammar({Toy.PLAY: (Param.CARD,), Toy.CHOOSE: (Param.SUIT,)},
...             deck=Deck([Card("S4", "S", 4)]), suits="SR", players=3)
>>> a = g.parse("PLAY s4")
>>> a, str(a), a.verb is Toy.PLAY
(Action('play S4'), 'play S4', True)
>>> str(g.parse("choose r"))
'choose R'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum

from games.core.cards import Card, Deck
from games.core.errors import UnknownAction, clip


class Param(Enum):
    """The kinds of argument a verb takes."""

    CARD = "card"
    SUIT = "suit"
    PLAYER = "player"
    SOURCE = "source"  # "stack" or a player index (whose pile)


STACK = "stack"


class Verb(StrEnum):
    """The base of every game's verbs: a member is the word the notation writes.

    A game subclasses it (``class FiascoVerb(Verb)``) and compares an action's verb with
    its members, never with a string, so that the type checker catches a misspelt verb.
    Members are strings, equal to and hashing like their words.
    """


def is_number(token: str) -> bool:
    """Whether ``token`` is a whole number in ASCII digits (no superscript, no full-width).

    >>> is_number("12"), is_number("²"), is_number("-1")
    (True, False, False)
    """
    return token.isascii() and token.isdigit()


def index_below(token: str, bound: int) -> int | None:
    """``token`` as a whole number ``0 <= n < bound``, or None if it is not one.

    Never calls ``int()`` on a long token: Python refuses to convert more than 4,300
    digits, and a player number that long is simply no player.

    >>> index_below("02", 3), index_below("3", 3), index_below("9" * 5000, 3)
    (2, None, None)
    """
    if not is_number(token):
        return None
    digits = token.lstrip("0") or "0"
    if len(digits) > len(str(bound)):
        return None
    value = int(digits)
    return value if value < bound else None


@dataclass(frozen=True, slots=True)
class Action:
    """A player's decision: ``verb``, an optional ``card`` and an optional ``arg``."""

    verb: Verb
    card: Card | None = None
    arg: str | None = None

    def __str__(self) -> str:
        parts: list[str] = [self.verb]
        if self.card is not None:
            parts.append(self.card.text)
        if self.arg is not None:
            parts.append(self.arg)
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @property
    def player_arg(self) -> int:
        """``arg`` read as a player index (for verbs that take one)."""
        assert self.arg is not None and self.arg.isdigit()
        return int(self.arg)


class Grammar:
    """The verbs of one game and how to read them."""

    __slots__ = ("_by_word", "deck", "players", "suits", "verbs")

    def __init__(
        self,
        verbs: Mapping[Verb, tuple[Param, ...]],
        *,
        deck: Deck,
        suits: str,
        players: int,
    ) -> None:
        self.verbs = dict(verbs)
        self._by_word = {verb.value: verb for verb in self.verbs}
        self.deck = deck
        self.suits = suits.upper()
        self.players = players

    def parse(self, text: str) -> Action:
        """The action written ``text``; :class:`UnknownAction` naming what is wrong.

        The notation is ASCII: letters whose case maps onto ASCII (the long s U+017F, the
        Kelvin sign) are not the letters they map to, as superscript digits are no digits.
        """
        if not text.isascii():
            raise UnknownAction(f"{clip(text.strip())} is not an action: actions are written "
                                "in plain ASCII letters and digits, like 'play S4'")
        tokens = text.split()
        if not tokens:
            raise UnknownAction("an empty action")
        verb = self._verb(tokens[0])
        params = self.verbs[verb]
        args = tokens[1:]
        if len(args) != len(params):
            usage = " ".join([verb, *(f"<{p.value}>" for p in params)])
            raise UnknownAction(f"{clip(text.strip(), 60)} does not read as {usage!r}")
        card: Card | None = None
        arg: str | None = None
        for param, token in zip(params, args, strict=True):
            if param is Param.CARD:
                card = self.deck.parse(token)
            else:
                arg = self._parse_arg(param, token)
        return Action(verb, card, arg)

    def _verb(self, token: str) -> Verb:
        """The verb written ``token``, in any case; :class:`UnknownAction` listing the verbs."""
        verb = self._by_word.get(token.lower())
        if verb is not None:
            return verb
        known = ", ".join(sorted(self.verbs))
        raise UnknownAction(f"unknown verb {clip(token)} (this game has: {known})")

    def _parse_arg(self, param: Param, token: str) -> str:
        if param is Param.SUIT:
            letter = token.upper()
            if len(letter) != 1 or letter not in self.suits:
                raise UnknownAction(f"unknown suit {clip(token)} "
                                    f"(suits are {', '.join(self.suits)})")
            return letter
        if param is Param.SOURCE and token.lower() == STACK:
            return STACK
        player = index_below(token, self.players)
        if player is not None:
            return str(player)
        what = "'stack' or a player" if param is Param.SOURCE else "a player"
        raise UnknownAction(f"{clip(token)} is not {what} (players are 0 to {self.players - 1})")
