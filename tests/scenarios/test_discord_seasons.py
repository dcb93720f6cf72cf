"""Seasons through the fake Discord: ``/leaderboard`` shows this month's season by default,
last month's (over, with its champion) or all time on request, and ``/stats`` says where a
player finished the past seasons; nobody's all-time rating is reset."""

from __future__ import annotations

import datetime as dt

from bot.models import GameResult, ResultPlayer
from cogs import ids
from tests.answers import answered_privately, answered_publicly, updated_the_message
from tests.botdriver import running_bot
from tests.fakediscord.fixtures import FakeWorld
from tests.scenarios.test_discord_stats import board_lines

NOW = dt.datetime(2026, 6, 15, 12, 0, tzinfo=dt.UTC)
IN_MAY = dt.datetime(2026, 5, 20, 12, 0, tzinfo=dt.UTC)


async def finished(bot, guild_id: int, user_ids: list[int], *, table_id: str,
                   when: dt.datetime) -> None:
    """A finished Fiasco of ``user_ids`` (all people), first place first, ending ``when``."""
    players = [ResultPlayer(seat=i, user_id=uid, name=f"p{uid}", score=100 - i, place=i + 1,
                            winner=i == 0) for i, uid in enumerate(user_ids)]
    assert await bot.store.record_result(GameResult(
        table_id=table_id, guild_id=guild_id, game="fiasco", finished_at=when,
        players=players, record={}))


async def test_the_leaderboard_shows_this_months_season_last_months_and_all_time(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, clock=lambda: NOW) as bot:
        may_players = [world.carol.id, *range(7000, 7011)]  # twelve people in May, best first
        await finished(bot, world.guild.id, may_players, table_id="may", when=IN_MAY)
        await finished(bot, world.guild.id, [world.bob.id, world.alice.id], table_id="june",
                       when=NOW)

        shown = await fake.slash(world.carol, world.table, "leaderboard", {"game": "fiasco"})
        assert answered_publicly(shown), shown
        board = shown.message
        assert "Fiasco leaderboard · June 2026 season" in board.text
        assert [line["user"] for line in board_lines(board)] == [world.bob.id, world.alice.id]
        assert "The June 2026 season ends with the month" in board.text
        assert "all-time ratings never reset" in board.text

        last = await fake.slash(world.carol, world.table, "leaderboard",
                                {"game": "fiasco", "period": "last"})
        board = last.message
        assert "Fiasco leaderboard · May 2026 season" in board.text
        assert [line["user"] for line in board_lines(board)] == may_players[:10]
        assert f"The May 2026 season is over. Its champion: <@{may_players[0]}>." in board.text
        assert board.button("Next").custom_id == ids.leaderboard_id("fiasco", 10, "2026-05")
        turned = await fake.click(world.alice, board, "Next")
        assert updated_the_message(turned), turned
        assert [line["user"] for line in board_lines(board)] == may_players[10:]
        assert "May 2026 season" in board.text  # the page keeps the season it showed

        forever = await fake.slash(world.carol, world.table, "leaderboard",
                                   {"game": "fiasco", "period": "all"})
        board = forever.message
        assert "Fiasco leaderboard · all time" in board.text and "Season" not in board.text
        assert "14 rated players" in board.text  # everyone, from every season

        # The end of a season is in the player's /stats; their all-time rating goes on.
        stats = await fake.slash(world.carol, world.table, "stats")
        assert answered_privately(stats), stats
        assert "Past seasons" in stats.message.text
        assert "May 2026 · Fiasco · 1st of 12 · rating" in stats.message.text
        mine = await fake.slash(world.bob, world.table, "stats")
        assert "Past seasons" not in mine.message.text  # June is not over
        [all_time] = await bot.ledger.stats(world.guild.id, world.carol.id)
        [season] = (await bot.ledger.leaderboard(world.guild.id, "fiasco", offset=0, limit=1,
                                                 season="2026-05"))[0]
        assert all_time.rating == season.rating  # every game of theirs was in May
