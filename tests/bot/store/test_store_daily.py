"""The daily deals in the store, on SQLite and on PostgreSQL (``tests/stores.py``): a try
claimed with its table, once per person, game and day; scored with its result; read by the
boards and the streaks."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.models import StoredTable, TableStatus
from bot.store.api import DailyTaken, Store
from tests.bot.store.test_store import GUILD, OTHER_GUILD, T0, make_result, make_table
from tests.stores import Backend

DAY = "2025-03-01"


def daily_table(table_id: str, *, host: int = 1, day: str = DAY, game: str = "fiasco",
                guild_id: int | None = GUILD, minutes: int = 0) -> StoredTable:
    """A new daily table (a lobby, as the bot creates one before starting it)."""
    table = make_table(table_id, game=game, guild_id=guild_id,
                       created_at=T0 + timedelta(minutes=minutes))
    return table.model_copy(update={"daily": day, "host_id": host})


async def test_a_daily_table_claims_its_hosts_one_try(store: Store, backend: Backend) -> None:
    await store.create_table(daily_table("d1", host=1))
    mine = await store.daily_try(DAY, "fiasco", 1)
    assert mine is not None and (mine.table_id, mine.guild_id, mine.started_at) == ("d1", GUILD, T0)
    assert not mine.finished and mine.score is None and mine.finished_at is None

    # A second try at the same deal, from anywhere, is refused and writes nothing.
    with pytest.raises(DailyTaken):
        await store.create_table(daily_table("d2", host=1, guild_id=OTHER_GUILD))
    assert await store.get_table("d2") is None
    assert await backend.count("SELECT COUNT(*) FROM daily_tries") == 1

    # Another person, another game, another day: each a try of its own.
    await store.create_table(daily_table("d3", host=2))
    await store.create_table(daily_table("d4", host=1, game="fumblaroo"))
    await store.create_table(daily_table("d5", host=1, day="2025-03-02"))
    assert await backend.count("SELECT COUNT(*) FROM daily_tries") == 4
    # A table that is not a daily deal claims nothing.
    await store.create_table(make_table("plain"))
    assert await backend.count("SELECT COUNT(*) FROM daily_tries") == 4


async def test_two_tries_at_once_make_one(store: Store, backend: Backend) -> None:
    outcomes = await asyncio.gather(
        *(store.create_table(daily_table(f"race{n}", host=7)) for n in range(5)),
        return_exceptions=True)
    assert sum(1 for o in outcomes if o is None) == 1
    assert all(isinstance(o, DailyTaken) for o in outcomes if o is not None)
    assert await backend.count("SELECT COUNT(*) FROM daily_tries") == 1
    assert await backend.count("SELECT COUNT(*) FROM tables") == 1


async def test_the_result_scores_the_try_and_the_board_reads_it(store: Store) -> None:
    for n, host in enumerate((1, 2, 3)):
        await store.create_table(daily_table(f"d{host}", host=host, minutes=n))
    await store.create_table(daily_table("far", host=4, guild_id=OTHER_GUILD))
    result = make_result("d2", [(2, 2), (None, 1), (None, 3)], finished_at=T0 + timedelta(hours=1))
    result = result.model_copy(update={"daily": DAY, "rated": False})
    assert await store.record_result(result)

    board = await store.daily_board(GUILD, "fiasco", DAY)
    assert [t.user_id for t in board] == [1, 2, 3]  # in the order they started
    scored = board[1]
    assert (scored.score, scored.place) == (80, 2)
    assert scored.finished and scored.finished_at == T0 + timedelta(hours=1)
    assert not board[0].finished and not board[2].finished
    assert [t.user_id for t in await store.daily_board(OTHER_GUILD, "fiasco", DAY)] == [4]
    assert await store.daily_board(GUILD, "fiasco", "2025-03-02") == []
    # Not rated: counted in the player's games, no rating.
    [stats] = await store.stats(GUILD, 2)
    assert stats.games == 1 and stats.rating is None


async def test_the_days_a_person_finished_give_their_streak(store: Store) -> None:
    days = ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-05"]
    for n, day in enumerate(days):
        await store.create_table(daily_table(f"s{n}", host=9, day=day))
        finished = make_result(f"s{n}", [(9, 1), (None, 2)]).model_copy(update={"daily": day})
        assert await store.record_result(finished)
    await store.create_table(daily_table("s9", host=9, day="2025-03-06"))  # not finished
    found = await store.daily_days("fiasco", [9, 10], until="2025-03-06")
    assert found == {9: ["2025-03-05", "2025-03-03", "2025-03-02", "2025-03-01"], 10: []}
    assert (await store.daily_days("fiasco", [9], until="2025-03-02")) == {
        9: ["2025-03-02", "2025-03-01"]}
    assert (await store.daily_days("fiasco", [9], until="2025-03-06", limit=1)) == {
        9: ["2025-03-05"]}


async def test_a_finished_daily_table_claims_nothing_again(store: Store) -> None:
    """The final table of a daily game is saved with its result: no second claim."""
    table = daily_table("d1", host=1)
    await store.create_table(table)
    final = table.model_copy(update={"status": TableStatus.FINISHED, "version": 4,
                                     "record": {"seed": 7, "actions": [{"seat": 0,
                                                                         "play": "S4"}]}})
    result = make_result("d1", [(1, 1), (None, 2)]).model_copy(update={"daily": DAY})
    assert await store.record_result(result, table=final)
    mine = await store.daily_try(DAY, "fiasco", 1)
    assert mine is not None and mine.score == 90 and mine.place == 1
