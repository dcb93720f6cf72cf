"""``python -m bench.variants``: a seat ``hard@key=value`` plays as that variant of hard.

It had stopped working without a test noticing (the match looked every seat up as a
:class:`Level`, and a variant's name is none).
"""

from __future__ import annotations

import json

import pytest

from bench import variants
from games.fizzbin.computer.advice import FizzbinAdvice
from games.players.hard import HardPlayer


def test_a_variant_seat_plays_a_short_match_and_is_reported_under_its_name(capsys):
    seat = "hard@cards=3@budget=200"
    code = variants.main(["fizzbin", "--seats", f"{seat},easy,easy,easy",
                          "--games", "2", "--seed", "1", "--json",
                          "--options", '{"hands": 1}'])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seats"][0] == seat
    assert seat in out["decision_ms"]
    assert sum(out["wins"]) >= 2


def test_a_variant_sets_the_advice_and_the_player():
    made = variants.variant("fizzbin", "hard@targets=2@budget=300")
    assert isinstance(made, HardPlayer) and made.budget == 300
    assert isinstance(made.advice, FizzbinAdvice) and made.advice.targets == 2


def test_a_variant_of_another_level_is_refused():
    with pytest.raises(ValueError, match="hard level only"):
        variants.variant("fizzbin", "easy@cards=3")
