"""The table of how far a faze moves a margin (``games/fazes/computer/spreads.py``) is
what its command makes, for every number of players and faze."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.faze_spreads import FAZES, PLAYERS, calibrate, main, module_text, scale
from games.fazes.computer import spreads
from games.fazes.computer.spreads import FAZES_PLAYED, SCALES, SEED


def test_the_table_holds_every_number_of_players_and_faze_and_nothing_else():
    assert set(SCALES) == {(n, f) for n in PLAYERS for f in FAZES}
    assert all(v > 0 for v in SCALES.values())


def test_the_shipped_module_is_the_command_s_text_of_its_table():
    assert Path(spreads.__file__).read_text() == module_text(SCALES, fazes=FAZES_PLAYED, seed=SEED)


@pytest.mark.parametrize("cell", [(4, 6), (8, 2)])
def test_a_cell_of_the_table_is_what_the_command_measures_again(cell):
    assert scale(*cell, fazes=FAZES_PLAYED, seed=SEED) == SCALES[cell]


def test_the_last_faze_moves_a_margin_most_and_more_players_move_it_less():
    # Madness scores everything at once; a faze among more players gives each fewer points.
    for n in PLAYERS:
        assert max(FAZES, key=lambda f: SCALES[(n, f)]) == 6
    assert SCALES[(3, 6)] > SCALES[(8, 6)]


def test_the_command_writes_a_module_of_the_same_shape(tmp_path, capsys):
    out = tmp_path / "spreads.py"
    assert main(["--fazes", "3", "--seed", "5", "--out", str(out)]) == 0
    namespace: dict[str, object] = {}
    exec(out.read_text(), namespace)  # the module the command just wrote
    assert namespace["FAZES_PLAYED"] == 3 and namespace["SEED"] == 5
    assert "--fazes 3 --seed 5" in out.read_text()
    assert namespace["SCALES"] == {(n, f): scale(n, f, fazes=3, seed=5)
                                   for n in PLAYERS for f in FAZES}
    assert main(["--fazes", "2"]) == 0 and "8 players, faze 6:" in capsys.readouterr().out


def test_calibrating_fits_each_curve_at_least_as_well_as_the_widths_it_is_compared_with(capsys):
    out = calibrate(40, players=4, seed=3)
    assert [a["after_faze"] for a in out["after"]] == [1, 2, 3, 4, 5]
    for after in out["after"]:
        fitted, shares = after["fitted"]["log_loss"], after["shares_fitted"]["log_loss"]
        assert fitted <= min(after["guessed"]["log_loss"], after["measured"]["log_loss"])
        assert shares <= after["shares_measured"]["log_loss"]
    assert main(["--calibrate", "2", "--players", "3"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["players"] == 3 and printed["games"] == 2 and len(printed["after"]) == 5
