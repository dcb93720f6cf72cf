"""The ``python -m games play`` contract: the ``--json`` object, rotation, ties, bad
arguments; and the terminal table driven through standard input."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys

import pytest

import games
from games.cli import play
from games.cli.terminal import Table
from games.players import match as match_module
from games.players.match import Match, game_seed, play_game, processes
from tests.voice import card_codes

KEYS = {"game", "players", "seats", "games", "seed", "wins", "mean_place", "mean_score",
        "decision_ms", "longest_game"}


def run_json(capsys, *argv: str) -> dict:
    assert play.main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_the_json_object_has_every_key_and_a_value_per_player(capsys):
    out = run_json(capsys, "fiasco", "--players", "3", "--seats", "hard,easy,random",
                   "--games", "3", "--seed", "4", "--json", "--budget", "60")
    assert set(out) == KEYS
    assert (out["game"], out["players"], out["games"]) == ("fiasco", 3, 3)
    assert out["seats"] == ["hard", "easy", "random"]
    for key in ("wins", "mean_place", "mean_score"):
        assert len(out[key]) == 3
    assert set(out["decision_ms"]) == {"hard", "easy", "random"}
    assert all(set(t) == {"median", "p99"} for t in out["decision_ms"].values())
    assert all(0 <= t["median"] <= t["p99"] for t in out["decision_ms"].values())
    assert all(1 <= place <= 3 for place in out["mean_place"])


def first_wave_game(seed: int):
    """A fiasco game for three of the first wave's random players, by the rules core alone."""
    game = games.new_game("fiasco", 3, seed=seed)
    while not game.over:
        rng = random.Random(f"fivefold-computer:{seed}:{len(game.history)}")
        game.apply(game.to_act, rng.choice(game.legal_actions()))
    return game


# Random players' choices do not depend on who sits where, so each game's winners by
# position are known without the command; game 11 of seed 1 is a tie.
SEED, COUNT = 1, 13


@pytest.fixture(scope="module")
def winners_by_position():
    return [set(first_wave_game(game_seed(SEED, g)).winners) for g in range(COUNT)]


@pytest.mark.parametrize("rotate", [False, True])
def test_wins_count_every_winner_of_a_tie_and_follow_the_rotation(
        capsys, winners_by_position, rotate):
    assert any(len(w) > 1 for w in winners_by_position), "the case must hold a tie"
    argv = ["fiasco", "--seats", "random,random,random", "--games", str(COUNT),
            "--seed", str(SEED), "--json"] + (["--rotate"] if rotate else [])
    out = run_json(capsys, *argv)
    shift = 1 if rotate else 0
    expected = [sum((i + shift * g) % 3 in winners_by_position[g] for g in range(COUNT))
                for i in range(3)]
    assert out["wins"] == expected
    assert sum(out["wins"]) > COUNT


def test_with_rotation_player_i_sits_at_i_plus_g(capsys):
    match = Match("fiasco", ("easy", "random", "random"), games=3, seed=9, rotate=True)
    for g in range(3):
        rotated = play_game(match, g)
        # The same game with the seats written out where they sit, unrotated.
        where = [match.position(i, g) for i in range(3)]
        seats = tuple(match.seats[where.index(p)] for p in range(3))
        fixed = play_game(Match("fiasco", seats, games=3, seed=9), g)
        assert rotated.won == tuple(fixed.won[where[i]] for i in range(3))
        assert rotated.scores == tuple(fixed.scores[where[i]] for i in range(3))


def test_duplicate_deals_repeat_each_deal_once_per_position():
    match = Match("fiasco", ("random",) * 3, games=6, seed=2, rotate=True, duplicate=True)
    assert [match.deal_index(g) for g in range(6)] == [0, 0, 0, 1, 1, 1]
    assert match.position(0, 1) == 1 and match.position(2, 1) == 0


def test_worker_processes_give_the_same_object(capsys):
    argv = ["fumblaroo", "--seats", "hard,easy,random", "--games", "2", "--seed", "5",
            "--json", "--rotate", "--budget", "60"]
    one = run_json(capsys, *argv)
    two = run_json(capsys, *argv, "--workers", "2")
    one.pop("decision_ms"), two.pop("decision_ms")
    assert one == two


def _mark_seen_in_worker() -> str:
    return str(getattr(match_module, "_MARK", "not set"))


def test_games_are_played_in_processes_not_forked_from_the_caller(monkeypatch):
    """A pool's workers start afresh (a fork server), not as copies of the caller: a
    caller running threads, as this test runner does, could leave a forked copy locked."""
    monkeypatch.setattr(match_module, "_MARK", "set in the caller", raising=False)
    with processes(1) as pool:
        assert pool.submit(_mark_seen_in_worker).result(timeout=60) == "not set"


def test_a_short_strength_smoke_through_python_m_games():
    run = subprocess.run(
        [sys.executable, "-m", "games", "play", "fazes", "--players", "4", "--seats",
         "hard,easy,easy,easy", "--games", "2", "--seed", "1", "--rotate", "--json",
         "--options", '{"fazes": [1]}', "--budget", "100"],
        capture_output=True, text=True, check=True)
    out = json.loads(run.stdout)
    assert out["games"] == 2 and sum(out["wins"]) >= 2
    assert run.stdout.count("\n") == 1


BAD = [
    (["nogame"], "unknown game"),
    (["fiasco", "--seats", "random,wizard"], "unknown seat 'wizard'"),
    (["fiasco", "--players", "3", "--seats", "random,random"], "--players is 3"),
    (["fumblaroo", "--players", "4"], "Fumblaroo is for exactly 3 players, not 4"),
    (["fiasco", "--seats", "random"], "Fiasco is for 2 to 6 players, not 1"),
    (["fiasco", "--seats", "random,random", "--games", "0", "--json"], "at least 1"),
    (["fiasco", "--seats", "random,random", "--workers", "0", "--json"], "at least 1"),
    (["fiasco", "--seats", "random,random", "--budget", "0", "--json"], "at least 1"),
    (["fiasco", "--seats", "random,random", "--options", "{bad", "--json"], "not JSON"),
    (["fiasco", "--seats", "random,random", "--options", "[1]", "--json"], "JSON object"),
    (["fiasco", "--seats", "random,random", "--options", '{"colour": 1}'], "unknown options"),
    (["fiasco", "--seats", "random,random", "--options", '{"length": 3}'], "bad options"),
    (["fiasco", "--seats", "human,random", "--json"], "computers only"),
    (["fiasco", "--seats", "random,random", "--duplicate"], "needs --rotate"),
    (["fiasco", "--players", "two"], "invalid int value"),
    (["fiasco", "--frobnicate"], "unrecognized arguments"),
    ([], "required"),
]


def _words(value: object) -> str:
    return " ".join(value) if isinstance(value, list) else ""


@pytest.mark.parametrize(("argv", "message"), BAD, ids=_words)
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv, message):
    assert play.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("play: ")
    assert message in captured.err


def table(seats: tuple[str, ...], lines: str, games_: int = 1, name: str = "fiasco") -> str:
    match = Match(name, seats, games=games_, seed=3, budget=40)
    out = io.StringIO()
    assert Table(match, io.StringIO(lines), out).run() == 0
    return out.getvalue()


def test_a_person_plays_a_whole_game_by_numbers_and_notation():
    text = table(("human", "easy", "hard"), "1\n" * 400)
    assert "Your hand: " in text and "Your move" in text
    assert "Player> 1\n" in text
    assert "Game over. Scores: Player " in text
    assert "Goodbye" not in text


def test_a_wrong_line_gets_the_reason_and_the_same_question_again():
    text = table(("human", "random"), "xyzzy\n0\nplay ZZ\n1\nquit\n")
    assert "unknown verb 'xyzzy'" in text
    assert "choose a number from 1 to" in text
    assert "there is no card 'ZZ'" in text
    assert text.count("Player> ") >= 5
    assert text.rstrip().endswith("Goodbye.")


def test_notation_picks_the_action_it_names():
    game = games.new_game("fiasco", 2, seed=game_seed(3, 0))  # the table's first game
    first = game.legal_actions()[0]
    text = table(("human", "random") if game.to_act == 0 else ("random", "human"),
                 f"{str(first).upper()}\nquit\n")
    assert f"Player> {str(first).upper()}\n" in text
    assert "not one of your legal actions" not in text


def test_end_of_input_ends_the_session_cleanly():
    assert table(("human", "random"), "").rstrip().endswith("Goodbye.")


def test_computers_alone_are_shown_in_words_to_the_end():
    text = table(("easy", "random"), "", games_=2)
    assert text.count("Game over.") == 2 and "Your move" not in text


def test_the_terminal_table_through_python_m_games():
    run = subprocess.run(
        [sys.executable, "-m", "games", "play", "fumblaroo", "--seats", "human,easy,random",
         "--budget", "40"], input="2\n1\nquit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stderr == ""
    assert "Your move" in run.stdout and run.stdout.rstrip().endswith("Goodbye.")


def test_quit_ends_the_session_even_with_more_lines_to_read():
    text = table(("human", "random"), "quit\n" + "1\n" * 50)
    assert text.count("Player> ") == 1
    assert text.rstrip().endswith("Goodbye.")


# --- the terminal table speaks with the bot's voice -------------------------------------


def test_without_a_seed_each_run_deals_anew_and_prints_the_seed_that_repeats_it(
        monkeypatch, capsys):
    monkeypatch.setattr(play, "fresh_seed", lambda: 41)
    argv = ["fiasco", "--seats", "easy,random", "--budget", "40"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert play.main(argv) == 0
    first = capsys.readouterr().out
    assert first.startswith("Seed 41: --seed 41 deals these games again.\n")
    assert play.main([*argv, "--seed", "41"]) == 0
    assert capsys.readouterr().out == first  # the same games, move for move
    seeds = {play.build_match(play.parser().parse_args(["fiasco"])).seed for _ in range(2)}
    monkeypatch.undo()
    fresh = {play.build_match(play.parser().parse_args(["fiasco"])).seed for _ in range(3)}
    assert seeds == {41} and len(fresh) > 1  # really fresh once not stubbed


def test_the_person_plays_under_a_name_and_reads_the_bots_sentences():
    text = table(("human", "easy"), "1\n" * 3 + "quit\n")
    assert "You plays" not in text and "You wins" not in text and "You's" not in text
    assert re.search(r"\n  Player (plays|collects) ", text)
    assert " of Player" not in text and "face_up" not in text and "taken of" not in text
    game = games.new_game("fiasco", 2, seed=game_seed(3, 0))
    assert "▶ " in text and f"  {game.goal}" in text


def test_the_hand_is_sorted_and_written_as_the_buttons_write_it():
    game = games.new_game("fumblaroo", 3, seed=game_seed(3, 0))
    text = table(("human", "easy", "easy"), "quit\n", name="fumblaroo")
    seat = 0
    held = [c for z in game.view_for(seat).zones if z.name == f"hand:{seat}" for c in z.cards]
    sorted_hand = game.sorted_hand(held)
    assert f"Your hand: {game.cards_label(sorted_hand)}\n" in text
    assert f"In words: {', '.join(map(game.card_name, sorted_hand))}\n" in text
    assert card_codes("fumblaroo", text.split("Your move")[0]) == []


def test_a_fizzbin_discard_is_two_short_questions_naming_piles_by_player():
    lines = "1\n" + "1\n" + "2\n" + "quit\n"  # draw, the first card, the second pile
    text = table(("human", "easy", "easy", "easy"), lines, name="fizzbin")
    assert "Where does " in text
    where = text.split("Where does ")[1].split("Player> ")[0]
    assert "  1. Discard " in where and "onto your pile" in where
    assert "onto Computer 1's pile" in where and len(re.findall(r"\n  \d+\. ", where)) == 4
    assert "discard " not in text.split("Where does ")[0].split("Your move")[-1]  # no codes
    assert re.search(r"\n  Player discards .+ onto Computer 1's pile", text)


def test_a_refused_move_gets_the_rules_own_reason_and_help_and_hint_answer():
    game = games.new_game("fiasco", 2, seed=game_seed(3, 0))
    seat = game.to_act
    game.apply(seat, game.legal_actions()[0])
    game.apply(game.to_act, game.legal_actions()[0])
    mine = {c.text for c in game.hands[0]}  # type: ignore[attr-defined]
    missing = next(c for c in game.deck_in_play() if c.text not in mine and c.suit)
    text = table(("human", "random"), f"1\nhelp\nhint\nplay {missing.text}\nquit\n")
    assert f"you do not hold {game.card_label(missing)}" in text
    assert "not one of your legal actions" not in text
    assert "Type the number of a move" in text
    hint = re.search(r"\n  Hint: (.+)\n", text)
    assert hint is not None and hint.group(1).endswith(".") and "%" not in hint.group(1)
