"""The timer choices, their words and the deadline maths (bot.timers), and the server's
stored default (the store's get_timer / set_timer: in the store contract, test_store.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.models import Seat, StoredTable
from bot.tables.timers import (
    CHOICES,
    SERVER_CHOICES,
    TableTimer,
    choice_of,
    choice_words,
    countdown,
    deadline_after,
    half_time,
    seconds_for,
    table_timer,
    timer_of,
    timer_words,
)
from games.core.errors import SetupError

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def test_each_choice_gives_its_seconds_and_off_gives_none() -> None:
    assert [seconds_for(c) for c in CHOICES] == [0, 30, 60, 120, 300, 10]
    assert not table_timer("off", "fazes").on
    with pytest.raises(SetupError, match=r"no timer '3m'.*off, 30s, 1m, 2m, 5m, tournament"):
        seconds_for("3m")


def test_the_tournament_timer_is_fiascos_alone() -> None:
    assert table_timer("tournament", "fiasco") == TableTimer(10, tournament=True)
    for game in ("fazes", "fibonachos", "fizzbin", "fumblaroo"):
        with pytest.raises(SetupError, match="Fiasco's rule"):
            table_timer("tournament", game)
    assert "tournament" not in SERVER_CHOICES


def test_a_deadline_is_the_turns_start_plus_the_timer_and_half_time_halfway() -> None:
    timer = table_timer("2m", "fiasco")
    deadline = deadline_after(T0, timer)
    assert deadline == T0 + dt.timedelta(minutes=2)
    assert half_time(deadline, timer) == T0 + dt.timedelta(minutes=1)
    assert deadline_after(T0, table_timer("off", "fiasco")) is None
    assert countdown(T0 + dt.timedelta(seconds=0.2)) == f"<t:{int(T0.timestamp()) + 1}:R>"


def test_a_table_stored_before_timers_keeps_the_bots_turn_timeout() -> None:
    old = StoredTable(id="t", guild_id=1, channel_id=2, host_id=3, game="fiasco",
                      seats=[Seat(user_id=3, name="ana")], created_at=T0, updated_at=T0)
    assert old.turn_seconds is None and old.deadline is None and old.seats[0].timeouts == 0
    assert timer_of(old, 45) == TableTimer(45)
    chosen = old.model_copy(update={"turn_seconds": 0.0})
    assert timer_of(chosen, 45) == TableTimer(0)


def test_a_rematch_can_ask_for_the_timer_a_table_had() -> None:
    table = StoredTable(id="t", guild_id=1, channel_id=2, host_id=3, game="fiasco",
                        created_at=T0, updated_at=T0)
    assert choice_of(table) is None  # stored before timers: the server's default
    for choice in CHOICES:
        timer = table_timer(choice, "fiasco")
        opened = table.model_copy(update={"turn_seconds": timer.seconds,
                                          "tournament": timer.tournament})
        assert choice_of(opened) == choice
    assert choice_of(table.model_copy(update={"turn_seconds": 45.0})) is None


def test_timers_in_words() -> None:
    assert timer_words(table_timer("30s", "fazes")).startswith("30 seconds a turn")
    assert timer_words(table_timer("5m", "fazes")).startswith("5 minutes a turn")
    assert timer_words(table_timer("off", "fazes")) == "off"
    assert "random card" in timer_words(table_timer("tournament", "fiasco"))
    assert choice_words(None, 120) == "the bot's default (2 minutes)"
    assert choice_words(None, 0) == "the bot's default (off)"
    assert choice_words("1m", 0) == "1 minute"
