"""Finding a card written in record notation where a person reads.

A person reads a card as the game writes it for people (``Game.card_label``: ``♥️10``,
``🗡️4``, ``👑K``) or in words (``Game.card_name``: "10 of hearts"); the notation (``TH``,
``S4``, ``K``) belongs to records and the command line's JSON. :func:`card_codes` names
every card of a game that a text writes in notation.

>>> card_codes("fizzbin", "Take ♠️Q from alice's pile")
[]
>>> card_codes("fizzbin", "Computer 1 discards QS onto alice's pile")
['QS']
>>> card_codes("fiasco", "the Fiasco costs Computer 1 B7 and 👑K; play F")
['B7', 'F']
"""

from __future__ import annotations

import functools
import re

import games


@functools.cache
def _patterns(game: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Every label of ``game``'s cards (to blank out first), and every code of them.

    Fibonachos' Spicy cards are written as bare numbers in the notation (``2``): a number
    in a sentence is no card code, so they are left out of the codes (their label,
    ``🌶️2``, is still blanked out).
    """
    cls = games.get(game)
    cards = list(cls.every_card())
    labels = sorted({cls.card_label(c) for c in cards}, key=len, reverse=True)
    codes = sorted({c.text for c in cards if not c.text.isdigit()}, key=len, reverse=True)
    return (re.compile("|".join(map(re.escape, labels))),
            re.compile(r"(?<![\w])(" + "|".join(map(re.escape, codes)) + r")(?![\w])"))


def card_codes(game: str, text: str) -> list[str]:
    """Every card of ``game`` that ``text`` writes in record notation, in order."""
    labels, codes = _patterns(game)
    return codes.findall(labels.sub(" ", text))


def cards_named(game: str, text: str) -> set[str]:
    """The cards of ``game`` that ``text`` names as people read them, in notation.

    >>> sorted(cards_named("fizzbin", "Take ♠️Q from alice's pile; ♥️10 ♥️1"))
    ['QS', 'TH']
    """
    cls = games.get(game)
    by_label = {cls.card_label(c): c.text for c in cls.every_card()}
    return {by_label[found] for found in _patterns(game)[0].findall(text)
            if found in by_label}


__all__ = ["card_codes", "cards_named"]
