"""``python -m research.pool_sizes``: a pool's effective size, tempered or not."""

from __future__ import annotations

import json

from research import pool_sizes


def test_a_smaller_temper_keeps_at_least_as_many_worlds(capsys):
    assert pool_sizes.main(["fumblaroo", "--positions", "6", "--size", "64",
                            "--tempers", "1,0.5"]) == 0
    out = json.loads(capsys.readouterr().out)
    one, half = out["effective_size"]["1.0"], out["effective_size"]["0.5"]
    assert 1 <= one["least"] <= one["median"] <= half["median"] <= 64
    assert sum(s["positions"] for s in out["by_stage"].values()) == 6
