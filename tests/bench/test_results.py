"""``bench.results`` runs and reports both ways of ending a game, with the ratio."""

from __future__ import annotations

from bench.results import main


def test_the_results_bench_reports_the_reference_and_the_ratio(capsys):
    assert main(["--quick", "--people", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("2 people, record_result") and "ratio" not in lines[1]
    assert lines[2].startswith("2 people, record_with_ratings") and "ratio" in lines[2]
