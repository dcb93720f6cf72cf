"""bench.strength_check: a strength report's rows are their saved games, and its games are
what today's players play."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bench import strength, strength_check
from games.players.match import play_game


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A small report's raw results: Fumblaroo at target 5, hard against easy and easy
    against random, three games each at a tiny budget."""
    results = tmp_path / "raw.json"
    assert strength.main(["--only", "fumblaroo", "--games", "3", "--budget", "30",
                          "--sets", "shortest", "--matches", "hard-easy,easy-random",
                          "--workers", "1", "--json", str(results),
                          "--out", str(tmp_path / "report.md"),
                          "--notes", str(tmp_path / "none.md")]) == 0
    return results


def games_lines(results: Path) -> list[dict]:
    return [json.loads(line) for line in
            results.with_name(results.name + ".games").read_text().splitlines()]


def append_line(results: Path, row: dict) -> None:
    with results.with_name(results.name + ".games").open("a") as f:
        f.write(json.dumps(row) + "\n")


def by_label(checked: list[strength_check.Checked]) -> dict[str, strength_check.Checked]:
    return {one.label: one for one in checked}


def test_the_games_just_played_hold_and_each_carries_the_digest_of_its_moves(saved):
    assert all(line.get("moves") for line in games_lines(saved))
    checked = strength_check.check(saved, workers=1, replays=3)
    assert [one.label for one in checked] == ["hard vs easy, shortest options",
                                             "easy vs random, shortest options"]
    assert all(one.ok and sorted(one.replayed) == [0, 1, 2] for one in checked), checked


def test_a_level_that_plays_differently_does_not_hold(saved, monkeypatch):
    # a level whose search is given more simulated moves decides differently somewhere;
    # the easy and random players do not search, so their match still holds
    def another_level(match, index):
        return play_game(dataclasses.replace(match, budget=match.budget * 4), index)

    monkeypatch.setattr(strength_check, "play_game", another_level)
    checked = by_label(strength_check.check(saved, workers=1, replays=3))
    hard = checked["hard vs easy, shortest options"]
    assert not hard.ok and "replays differently" in hard.line()
    assert "moves " in hard.line()
    assert checked["easy vs random, shortest options"].ok


def test_a_changed_game_record_shows_in_its_replay_and_in_its_row(saved):
    row = next(line for line in games_lines(saved) if line["index"] == 1
               and line["key"].startswith("fumblaroo:easy vs random"))
    append_line(saved, dict(row, scores=[s + 1 for s in row["scores"]]))
    checked = by_label(strength_check.check(saved, workers=1, replays=3))
    one = checked["easy vs random, shortest options"]
    assert "game 1 replays differently (scores" in one.line()
    assert "mean_score is" in one.line() and "from its games" in one.line()
    assert checked["hard vs easy, shortest options"].ok


def test_a_row_that_is_not_what_its_games_add_up_to_does_not_hold(saved):
    raw = json.loads(saved.read_text())
    row = raw["games"]["fumblaroo"]["hard vs easy, shortest options"]
    row["group_wins"] += 1
    row["decision_ms"]["hard"]["median"] += 1.0
    saved.write_text(json.dumps(raw))
    one = by_label(strength_check.check(saved, workers=1, replays=0))[
        "hard vs easy, shortest options"]
    assert "group_wins is" in one.line()
    assert "hard's median decision time" in one.line()


def test_results_made_at_another_budget_than_the_level_has_now_do_not_hold(tmp_path,
                                                                          monkeypatch):
    results = tmp_path / "raw.json"
    assert strength.main(["--only", "fumblaroo", "--games", "3", "--sets", "shortest",
                          "--matches", "easy-random", "--workers", "1", "--json",
                          str(results), "--out", str(tmp_path / "report.md"),
                          "--notes", str(tmp_path / "none.md")]) == 0
    assert strength_check.check(results, workers=1)[0].ok
    monkeypatch.setattr(strength_check, "budget_for", lambda name: 1234)
    [one] = strength_check.check(results, workers=1)
    assert "the results name the hard level's budget 20,000, but it is 1,234 now" in one.line()


def test_a_row_missing_its_games_does_not_hold(saved):
    games_file = saved.with_name(saved.name + ".games")
    kept = [line for line in games_file.read_text().splitlines()
            if "easy vs random" not in line]
    games_file.write_text("\n".join(kept) + "\n")
    one = by_label(strength_check.check(saved, workers=1, replays=1))[
        "easy vs random, shortest options"]
    assert "3 of its 3 games are not in the games file (the first: game 0)" in one.line()


def test_pin_records_the_digest_of_games_saved_without_one_and_then_compares_it(saved):
    key = "fumblaroo:hard vs easy, shortest options:3:30"
    for line in games_lines(saved):  # as games saved before the digest was recorded
        if line["key"] == key:
            line.pop("moves")
            append_line(saved, line)
    assert strength_check.check(saved, workers=1, replays=1)[0].ok  # outcome alone
    [game] = strength_check.check(saved, workers=1, replays=1, pin=True)[0].replayed
    last = [line for line in games_lines(saved) if line["key"] == key]
    pinned = [line for line in last if line["index"] == game][-1]
    assert pinned["moves"] and all("moves" not in line for line in last[-4:-1])
    # the pinned game is replayed first, and its moves are now compared
    append_line(saved, dict(pinned, moves="0" * 16))
    one = strength_check.check(saved, workers=1, replays=1)[0]
    assert one.replayed == (game,)
    assert f"game {game} replays differently (moves 0000000000000000 then" in one.line()


def test_the_command_exits_1_naming_what_does_not_hold_and_2_when_it_cannot_read(
        saved, tmp_path, capsys):
    assert strength_check.main([str(saved), "--workers", "1"]) == 0
    assert "2 of 2 matches hold." in capsys.readouterr().out
    raw = json.loads(saved.read_text())
    raw["games"]["fumblaroo"]["easy vs random, shortest options"]["wins"][0] += 1
    saved.write_text(json.dumps(raw))
    assert strength_check.main([str(saved), "--workers", "1"]) == 1
    out = capsys.readouterr().out
    assert "fumblaroo, easy vs random, shortest options: DOES NOT HOLD: wins is" in out
    assert "1 of 2 matches hold." in out
    assert strength_check.main([str(tmp_path / "nothing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        strength_check.main([str(saved), "--only", "chess"])
