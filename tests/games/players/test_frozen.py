"""``hard-2026-12`` is the hard level as it played in December 2026, frozen: on fixed
positions it makes the moves the ``reorg`` revision's hard made (``frozen-hard.json``, made
by ``python -m research.frozen_fixture --rev reorg``), whatever the hard level changes;
``play`` accepts it and the bot does not offer it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import games
from bot.models import ComputerLevel
from cogs.ids import COMPUTER_LEVELS
from games.cli import play
from games.players import levels, perspective, player
from games.players.frozen import BUDGETS, LEVEL, FrozenHardPlayer
from games.players.match import Match, make_player, play_match

FIXTURE = json.loads(Path(__file__).with_name("frozen-hard.json").read_text())


def position(entry):
    game = games.new_game(entry["game"], entry["players"], {}, seed=entry["seed"])
    for line in entry["history"]:
        actor, _, text = line.partition(" ")
        game.apply(int(actor), text)
    return perspective(game, game.to_act)


@pytest.mark.parametrize("entry", FIXTURE["entries"],
                         ids=lambda e: f"{e['game']}-{len(e['history'])}-{e['budget']}")
def test_the_frozen_level_makes_the_reorg_revisions_moves(entry):
    p = position(entry)
    frozen = player(LEVEL) if entry["budget"] is None else FrozenHardPlayer(entry["budget"])
    assert str(frozen.decide(p, random.Random(entry["rng"])).action) == entry["action"]


def test_the_fixture_covers_every_game_at_its_frozen_budget():
    full = {e["game"] for e in FIXTURE["entries"] if e["budget"] is None}
    assert full == set(games.names()) == set(BUDGETS)


def test_play_accepts_the_frozen_level_and_the_bot_does_not_offer_it():
    assert LEVEL in levels()
    assert LEVEL.value not in {level.value for level in ComputerLevel}
    assert sorted(COMPUTER_LEVELS) == ["easy", "hard"]  # the lobby's chooser: nothing else
    match = Match("fiasco", (LEVEL, "hard"), 1, seed=3, budget=60)
    assert isinstance(make_player(LEVEL, 60), FrozenHardPlayer)
    assert play_match(match)["seats"] == [LEVEL, "hard"]


def test_the_command_line_plays_it_beside_hard(capsys):
    # ``python -m games play --seats hard,hard-2026-12,...`` is checked from outside too.
    assert play.main(["fiasco", "--seats", "hard,hard-2026-12,easy,easy", "--games", "1",
                      "--seed", "2", "--budget", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seats"] == ["hard", "hard-2026-12", "easy", "easy"]
    assert set(out["decision_ms"]) == {"hard", "hard-2026-12", "easy"}
