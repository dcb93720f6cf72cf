"""``python -m research.seeing``: the seeing player sees, only inside its context; the output's
shape and the pairing with a saved match (a smoke, never a strength)."""

from __future__ import annotations

import json
import random

import pytest

import games
from games.players import decide, knowledge_for, perspective
from games.players.advice import advice_for
from games.players.match import GameResult
from research import seeing


def _fazes_at_the_start():
    game = games.new_game("fazes", 4, {"fazes": [1]}, seed=7)
    return game, perspective(game, game.to_act)


def test_inside_the_context_every_world_is_the_true_one_and_outside_it_is_sampled():
    know = knowledge_for("fazes")
    truth = lambda game: repr(know.from_game(game))  # noqa: E731
    with seeing.seeing("fazes"):
        game, p = _fazes_at_the_start()  # made inside: the one the worlds are taken from
        worlds = {repr(know.sample(p, random.Random(s))) for s in range(5)}
        assert worlds == {truth(game)}
    # Back out, the knowledge deals the hidden hands again: five seeds, five worlds, none
    # of them (at 39 hidden cards) the true one.
    game, p = _fazes_at_the_start()
    worlds = {repr(know.sample(p, random.Random(s))) for s in range(5)}
    assert len(worlds) == 5 and truth(game) not in worlds


def test_the_context_puts_back_what_it_replaced_even_when_the_game_fails():
    know = knowledge_for("fumblaroo")
    sample, new_game = type(know).__dict__.get("sample"), games.new_game
    with pytest.raises(RuntimeError), seeing.seeing("fumblaroo"):
        assert games.new_game is not new_game
        raise RuntimeError("a game that fails")
    assert games.new_game is new_game
    assert type(know).__dict__.get("sample") is sample


@pytest.mark.parametrize("name", ["fiasco", "fizzbin"])
def test_a_game_whose_hard_level_draws_its_own_worlds_is_refused(name):
    with pytest.raises(ValueError, match="draws its own worlds"), seeing.seeing(name):
        pass


def test_a_short_run_prints_the_share_and_pairs_it_with_the_saved_match(tmp_path, capsys):
    # A saved match of the same key: the hard level won games 0 and 2 of the four.
    saved = tmp_path / "strength.json.games"
    key = "fazes:hard vs easy, shortest options:4:200"
    saved.write_text("".join(
        json.dumps({"seed": 1, "key": key, "index": g, "won": [g % 2 == 0, False, False, False],
                    "places": [1, 2, 3, 4], "scores": [0, 0, 0, 0], "actions": 52, "ms": []})
        + "\n" for g in range(4)))
    assert seeing.main(["fazes", "--options", '{"fazes": [1]}', "--games", "4",
                        "--budget", "200", "--against", str(saved)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and out["group"] == [0]
    assert 0 <= out["group_wins"] <= 4 and out["share"] == out["group_wins"] / 4
    assert out["wilson"][0] <= out["share"] <= out["wilson"][1]
    assert set(out["decision_ms"]) == {"hard", "easy"}
    paired = out["paired"]
    assert paired["hard_wins"] == 2
    # Won by the seeing player and not by hard, and back: the difference is the wins'.
    assert paired["seeing_only"] - paired["hard_only"] == out["group_wins"] - 2


def test_pairing_with_a_file_without_the_match_is_refused(tmp_path):
    saved = tmp_path / "empty.games"
    saved.write_text("")
    with pytest.raises(SystemExit, match="does not hold the first 4 games"):
        seeing.main(["fazes", "--options", '{"fazes": [1]}', "--games", "4",
                     "--budget", "100", "--against", str(saved)])


def test_the_hard_levels_own_draws_are_the_true_world_too_and_its_weighing_comes_back():
    # Fazes' advice weighs a pool of worlds of its own: inside the context it draws
    # through the knowledge, so the hard player's worlds are the true one as well.
    advice = advice_for("fazes")
    pool = advice.pool
    with seeing.seeing("fazes"):
        game, p = _fazes_at_the_start()
        truth = repr(knowledge_for("fazes").from_game(game))
        assert {repr(advice.sample(p, random.Random(s))) for s in range(5)} == {truth}
    assert advice.pool == pool > 0


def test_fazes_weighing_comes_back_even_when_the_game_fails():
    advice = advice_for("fazes")
    pool = advice.pool
    with pytest.raises(RuntimeError), seeing.seeing("fazes"):
        assert advice.pool == 0
        raise RuntimeError("a game that fails")
    assert advice.pool == pool > 0


def test_fumblaroos_weighed_pool_is_put_aside_too_so_its_worlds_are_the_true_one():
    # Mid-hand, after bids and plays: Fumblaroo's advice would draw from a pool weighed
    # by them; inside the context it draws the true world, and the pool comes back.
    advice = advice_for("fumblaroo")
    pool = advice.pool
    with seeing.seeing("fumblaroo"):
        game = games.new_game("fumblaroo", 3, {"target": 5}, seed=4)
        rng = random.Random(4)
        for _ in range(8):
            game.apply(game.to_act, decide("easy", perspective(game, game.to_act), rng).action)
        p = perspective(game, game.to_act)
        truth = _hands(knowledge_for("fumblaroo").from_game(game))
        assert {_hands(advice.sample(p, random.Random(s))) for s in range(5)} == {truth}
    assert advice.pool == pool > 0
    assert _hands(advice.sample(p, random.Random(0))) != truth


def _hands(world):
    return tuple(world.hands), world.stage, world.trump


def _fumblaroo_in(stage: str, seed: int = 4):
    game = games.new_game("fumblaroo", 3, {"target": 5}, seed=seed)
    rng = random.Random(seed)
    while game.stage.value != stage:
        game.apply(game.to_act, decide("easy", perspective(game, game.to_act), rng).action)
    return game, perspective(game, game.to_act)


def test_with_stages_the_worlds_are_true_in_those_stages_only():
    know = knowledge_for("fumblaroo")
    with seeing.seeing("fumblaroo", frozenset({"bidding"})):
        game, p = _fumblaroo_in("bidding")
        assert {_hands(know.sample(p, random.Random(s))) for s in range(5)} == {
            _hands(know.from_game(game))}
        game, p = _fumblaroo_in("playing")  # the same game's seed, its tricks
        worlds = {_hands(know.sample(p, random.Random(s))) for s in range(5)}
        assert len(worlds) == 5 and _hands(know.from_game(game)) not in worlds


def test_stages_must_be_the_games_own():
    with pytest.raises(SystemExit) as stop:
        seeing.main(["fumblaroo", "--games", "3", "--budget", "50", "--stages", "bidding,tea"])
    assert stop.value.code == 2
    with pytest.raises(SystemExit):
        seeing.main(["fazes", "--games", "4", "--budget", "50", "--stages", "bidding"])


def test_a_run_seeing_in_the_bidding_only_says_so(capsys):
    assert seeing.main(["fumblaroo", "--options", '{"target": 5}', "--games", "3",
                        "--budget", "100", "--stages", "bidding,dealer's choice"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 3
    assert out["match"] == ("hard vs easy (hard seeing every card in bidding, "
                            "dealer's choice)")


def _saved_match(path, key, won_by_hard):
    """Append a saved match of ``key`` to ``path``: hard (player 0) won the games listed."""
    with path.open("a") as out:
        for g, won in enumerate(won_by_hard):
            out.write(json.dumps({"seed": 1, "key": key, "index": g,
                                  "won": [won, not won, False], "places": [1, 2, 3],
                                  "scores": [0, 0, 0], "actions": 30, "ms": []}) + "\n")


def test_pairing_takes_the_match_the_report_shows_not_an_older_longer_one(tmp_path):
    # An older hard level's 6 games (it won them all), then the report's 3 (it won one).
    saved = tmp_path / "strength.json.games"
    _saved_match(saved, "fumblaroo:hard vs easy, shortest options:6:None", [True] * 6)
    _saved_match(saved, "fumblaroo:hard vs easy, shortest options:3:None", [False, True, False])
    results = [GameResult(won=(True, False, False), places=(1, 2, 3), scores=(0, 0, 0),
                          actions=30, decision_ms=()) for _ in range(3)]
    match = "fumblaroo:hard vs easy, shortest options:None"
    # Without the report beside it, the longest match is all there is to go by.
    assert seeing.paired(results, saved, match)["hard_wins"] == 3
    report = tmp_path / "strength.json"
    report.write_text(json.dumps({"games": {"fumblaroo": {
        "hard vs easy, shortest options": {"games": 3, "group_wins": 1}}}}))
    assert seeing.reported_games(saved, "fumblaroo:hard vs easy, shortest options") == 3
    assert seeing.paired(results, saved, match) == {"hard_wins": 1, "seeing_only": 2,
                                                    "hard_only": 0}
    # A report without the match leaves the longest again.
    report.write_text(json.dumps({"games": {}}))
    assert seeing.paired(results, saved, match)["hard_wins"] == 3
