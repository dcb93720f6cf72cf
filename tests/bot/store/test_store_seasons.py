"""Seasons in the store, on SQLite and on PostgreSQL: every result rates its people all time
and in the season (calendar month, UTC) it ended in, with the same maths; a season's board,
and where a player finished each past season."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store.api import Store
from bot.store.ratings import display_rating, humans, rate_game
from tests.bot.store.test_store import GUILD, OTHER_GUILD, make_result

MAY = datetime(2026, 5, 31, 23, 59, tzinfo=UTC)
JUNE = datetime(2026, 6, 1, 0, 0, 30, tzinfo=UTC)


async def test_a_result_rates_all_time_and_in_its_season(store: Store) -> None:
    may = make_result("m1", [(1, 1), (2, 2)], finished_at=MAY)
    assert await store.record_result(may)
    assert await store.record_result(make_result("j1", [(2, 1), (3, 2)], finished_at=JUNE))

    in_may, total = await store.leaderboard(GUILD, "fiasco", season="2026-05")
    assert total == 2 and [r.user_id for r in in_may] == [1, 2]
    in_june, _ = await store.leaderboard(GUILD, "fiasco", season="2026-06")
    assert [r.user_id for r in in_june] == [2, 3] and all(r.games == 1 for r in in_june)
    forever, total = await store.leaderboard(GUILD, "fiasco")
    assert total == 3
    assert {r.user_id: r.games for r in forever} == {1: 1, 2: 2, 3: 1}  # never reset

    # A season's ratings start afresh, with the all-time maths: Ben's June rating is his
    # rating after one game as a new player, not his all-time one after two.
    fresh = rate_game(humans(make_result("x", [(2, 1), (3, 2)]).players), {})
    ben = next(r for r in in_june if r.user_id == 2)
    assert ben.rating == display_rating(*fresh[2])  # type: ignore[arg-type]
    assert ben.rating != next(r for r in forever if r.user_id == 2).rating
    assert (await store.leaderboard(GUILD, "fiasco", season="2026-07")) == ([], 0)
    assert (await store.leaderboard(OTHER_GUILD, "fiasco", season="2026-06")) == ([], 0)


async def test_a_game_counted_but_not_rated_puts_nobody_on_the_seasons_board(
    store: Store
) -> None:
    alone = make_result("solo", [(1, 1), (None, 2)], finished_at=JUNE)
    hinted = make_result("hint", [(1, 1), (2, 2)], finished_at=JUNE).model_copy(
        update={"rated": False})
    assert await store.record_result(alone) and await store.record_result(hinted)
    assert (await store.leaderboard(GUILD, "fiasco", season="2026-06")) == ([], 0)
    [stats] = await store.stats(GUILD, 1)
    assert stats.games == 2 and stats.rating is None


async def test_where_a_player_finished_each_past_season(store: Store) -> None:
    for n, order in enumerate([(1, 2, 3), (1, 3, 2), (2, 1, 3)]):
        players = [(user, place) for place, user in enumerate(order, start=1)]
        assert await store.record_result(make_result(f"m{n}", players, finished_at=MAY))
    assert await store.record_result(
        make_result("apr", [(3, 1), (1, 2)], finished_at=datetime(2026, 4, 2, tzinfo=UTC)))
    assert await store.record_result(make_result("jun", [(3, 1), (1, 2)], finished_at=JUNE))
    assert await store.record_result(
        make_result("far", [(1, 1), (2, 2)], finished_at=MAY, game="fumblaroo"))

    board, _ = await store.leaderboard(GUILD, "fiasco", season="2026-05")
    standings = await store.season_standings(GUILD, 1, before="2026-06")
    assert [(s.season, s.game) for s in standings] == [
        ("2026-05", "fiasco"), ("2026-05", "fumblaroo"), ("2026-04", "fiasco")]
    may = standings[0]
    assert may.place == [r.user_id for r in board].index(1) + 1 and may.players == 3
    assert may.rating == next(r.rating for r in board if r.user_id == 1)
    assert (may.games, may.wins) == (3, 2)
    april = standings[2]
    assert (april.place, april.players) == (2, 2)
    # The season under way is not over: it is not among them; a limit keeps the latest.
    assert all(s.season < "2026-06" for s in standings)
    assert len(await store.season_standings(GUILD, 1, before="2026-07", limit=1)) == 1
    assert (await store.season_standings(GUILD, 1, before="2026-07", limit=1))[0].season == \
        "2026-06"
    assert await store.season_standings(OTHER_GUILD, 1, before="2026-07") == []
