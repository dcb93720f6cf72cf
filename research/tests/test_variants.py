"""``python -m research.variants``: a seat ``hard@key=value`` plays as that variant of hard.

It had stopped working without a test noticing (the match looked every seat up as a
:class:`Level`, and a variant's name is none).
"""

from __future__ import annotations

import json

import pytest

from games.fazes.computer.advice import FazesAdvice
from games.fizzbin.computer.advice import FizzbinAdvice
from games.players.advice import KnowledgeOnly, advice_for
from games.players.hard import HardPlayer
from research import variants


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


def test_a_fazes_variant_sets_its_advice_and_leaves_the_level_s_own_alone():
    made = variants.variant("fazes", "hard@pool=0@blend=0.5")
    assert isinstance(made, HardPlayer) and isinstance(made.advice, FazesAdvice)
    assert made.advice.pool == 0 and made.advice.blend == 0.5
    level = advice_for("fazes")
    assert isinstance(level, FazesAdvice) and level.pool > 0 and level.blend != 0.5


def test_a_plain_variant_searches_with_the_knowledge_alone_in_its_own_game_only():
    made = variants.variant("fumblaroo", "hard@plain")
    assert isinstance(made.advice, KnowledgeOnly)
    assert made._advice("fumblaroo") is made.advice
    assert isinstance(made._advice("fazes"), FazesAdvice)  # another game: that game's own


def test_a_variant_of_another_level_is_refused():
    with pytest.raises(ValueError, match="hard level only"):
        variants.variant("fizzbin", "easy@cards=3")


def test_variants_play_in_workers_and_pair_with_the_reports_saved_games(capsys, tmp_path):
    # The workers come from a fork server, which knows only the registered levels: each
    # registers the variants as it starts. --against pairs the games with saved ones.
    saved = tmp_path / "games"
    key = "fizzbin:hard vs easy, shortest options:4:200"
    saved.write_text("".join(json.dumps({"key": key, "index": g,
                                         "won": [g == 0, g != 0, False, False]}) + "\n"
                             for g in range(4)))
    record = tmp_path / "record"
    code = variants.main(["fizzbin", "--seats", "hard@cards=3,easy,easy,easy", "--games", "4",
                          "--seed", "1", "--rotate", "--duplicate", "--budget", "200",
                          "--options", '{"hands": 1}', "--workers", "2",
                          "--against", str(saved), "--record", str(record)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    won = [json.loads(line)["won"][0] for line in record.read_text().splitlines()]
    assert len(won) == 4 and out["group_wins"] == sum(won)
    assert out["paired"]["hard_wins"] == 1
    assert out["paired"]["variant_only"] == sum(won[1:])
    assert out["paired"]["hard_only"] == (not won[0])
    low, high = out["wilson"]
    assert low <= out["share"] <= high


def test_against_pairs_a_variant_against_easy_players_only():
    with pytest.raises(SystemExit, match="against easy players"):
        variants.main(["fizzbin", "--seats", "hard@cards=3,hard,easy,easy", "--games", "4",
                       "--seed", "1", "--rotate", "--duplicate", "--against", "x"])
