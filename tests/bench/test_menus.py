"""``python -m bench.menus``: a smoke test of the output's shape, never of a speed."""

from __future__ import annotations

import json

import pytest

from bench import menus


def test_a_short_run_against_a_revision_times_both_sides_and_writes_the_figures(
        tmp_path, capsys):
    path = tmp_path / "menus.json"
    assert menus.main(["--states", "1", "--repeats", "1", "--rounds", "2",
                       "--this", "HEAD", "--versus", "HEAD", "--json", str(path)]) == 0
    result = json.loads(path.read_text())
    assert result["positions"] == 5  # one a game
    assert result["this"] == "HEAD" and result["versus"] == "HEAD"
    for name in ("this_menu_us", "reference_menu_us", "this_table_us", "reference_table_us",
                 "menu_us_ratio", "table_us_ratio"):
        assert set(result[name]) == {"median", "min", "max"}
        assert 0 < result[name]["min"] <= result[name]["median"] <= result[name]["max"]
    out = capsys.readouterr().out
    assert "a seat's hand menu" in out and "HEAD / HEAD" in out


def test_a_revision_git_does_not_know_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        menus.main(["--versus", "no-such-revision", "--rounds", "1"])
    assert exit_.value.code == 2
    assert "cannot read revision" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "said"), [
    (["--states", "0"], "at least 1"), (["--repeats", "0"], "at least 1"),
    (["--rounds", "0"], "at least 1"), (["--this", "HEAD"], "--this goes with --versus")])
def test_bad_arguments_are_refused(argv, said, capsys):
    with pytest.raises(SystemExit) as exit_:
        menus.main(argv)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err
