"""The garbage collector's meter: what ``python -m bot`` logs of its collections, and
what ``bench.bot`` reads back from that log."""

from __future__ import annotations

import gc
import logging

from bench.bot import gc_figures
from bot import __main__ as bot_main
from bot import gctune


def test_tune_collects_the_young_and_middle_generations_less_often():
    before = gc.get_threshold()
    try:
        gctune.tune()
        assert gc.get_threshold() == (gctune.YOUNG_THRESHOLD, gctune.MIDDLE_THRESHOLD,
                                      before[2])
        assert gctune.YOUNG_THRESHOLD > 700 and gctune.MIDDLE_THRESHOLD > 10  # CPython's
    finally:
        gc.set_threshold(*before)


def test_the_meter_counts_each_generation_and_its_cpu():
    meter = gctune.PauseMeter()
    meter.install()
    try:
        gc.collect(0)
        gc.collect(2)
        gc.collect(2)
    finally:
        meter.uninstall()
    # Collections the interpreter made on its own while these ran count too: at least these.
    assert meter.by_generation[0] >= 1 and meter.by_generation[2] >= 2
    assert meter.collections == sum(meter.by_generation)
    assert all(cpu >= 0 for cpu in meter.cpu_by_generation)
    assert meter.longest_cpu <= sum(meter.cpu_by_generation) + 1e-9
    meter.reset()
    assert meter.collections == 0 and meter.by_generation == [0, 0, 0]
    assert meter.cpu_by_generation == [0.0, 0.0, 0.0]


def test_the_bench_reads_back_the_summary_the_bot_logs(caplog, monkeypatch):
    meter = gctune.PauseMeter()
    meter.collections, meter.by_generation = 9, [6, 2, 1]
    meter.cpu_by_generation = [0.012, 0.0301, 0.5]
    meter.longest, meter.longest_cpu = 0.61, 0.5
    monkeypatch.setattr(gctune, "METER", meter)
    with caplog.at_level(logging.INFO, logger=bot_main.log.name):
        bot_main.log_collections()
    figures = gc_figures(caplog.text)
    assert figures["collections"] == 9
    assert figures["longest_ms"] == 610.0 and figures["longest_cpu_ms"] == 500.0
    assert figures["by_generation"] == [6, 2, 1]
    assert figures["cpu_ms_by_generation"] == [12, 30, 500]
