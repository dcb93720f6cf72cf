"""``docs/table.md`` is what ``python -m tests.table_doc`` prints, and no card in it (or in
anything else a person read of those games) is written in record notation."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import games
from tests.table_doc import BEYOND, Reading, main, page, read_every_game
from tests.voice import card_codes

DOC = Path(__file__).resolve().parents[1] / "docs" / "table.md"
_READ: list[Reading] = []


async def readings() -> list[Reading]:
    """Every game as a person read it, played once for the tests of this file."""
    if not _READ:
        _READ.extend(await read_every_game())
    return _READ


async def test_the_committed_table_page_is_what_the_command_prints():
    expected = page(await readings())
    assert DOC.read_text(encoding="utf-8") == expected, (
        "docs/table.md is out of date: run python -m tests.table_doc > docs/table.md")


async def test_no_text_a_person_reads_writes_a_card_in_record_notation():
    read = await readings()
    assert [r.game for r in read] == [*games.names(), BEYOND]
    for reading in read[:-1]:
        every = "\n".join(reading.texts)
        # The reading covers the whole game: the hint, events, the result, the pictures.
        for said in ("Hint:", " wins", " is over.**", "Players:", "Your hand."):
            assert said in every, f"{reading.game}: nothing read says {said!r}"
    beyond = "\n".join(read[-1].texts)
    for said in ("Watch", "Stop watching", "fumblaroo", "Fiasco"):
        assert said in beyond, f"nothing read beyond one table says {said!r}"
    for reading in read:
        named = games.names() if reading.game == BEYOND else [reading.game]
        coded = {text: codes for text in reading.texts for game in named
                 if (codes := card_codes(game, text))}
        assert not coded, f"{reading.game}: cards in record notation: {coded}"


FACT = re.compile(r"(?<![\w*])([A-Z][a-z]+(?: [a-z]+)?): ([^·\n;]+?)(?= ·|\n|$|;|\.)")
"""A fact as the table, the menu and the alt text write it: ``Prize: 🌶️1``, ``Trump: Red``."""


async def test_each_fact_is_said_once_in_a_message():
    for reading in await readings():
        for text in reading.texts:
            twice = [fact for fact, n in Counter(FACT.findall(text)).items() if n > 1]
            assert not twice, f"{reading.game}: {twice} said twice in {text!r}"


def test_without_the_test_extras_the_command_says_what_it_needs(monkeypatch, capsys):
    monkeypatch.setattr("tests.table_doc.missing_extras", lambda: ["aiohttp"])
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "needs the test extras (missing: aiohttp)" in err and "pip install" in err


def test_the_notation_finder_reads_labels_and_codes_apart():
    import doctest

    import tests.voice

    assert doctest.testmod(tests.voice).failed == 0
    assert card_codes("fazes", "bob leads 🟩2; Out of play: 🔲2 🔲3") == []
    assert card_codes("fazes", "bob leads G2; Out of play: B2 B3") == ["G2", "B2", "B3"]
