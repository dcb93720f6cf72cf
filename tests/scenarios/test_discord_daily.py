"""Today's deal (``/daily``) through the fake Discord: one try a day, where nobody else sees
the cards, the same deal and computers for everyone, and the server's daily board."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.models import TableStatus
from bot.tables.daily import daily_seats, daily_seed
from bot.tables.errors import TableError
from bot.tables.watching import PRIVATE
from cogs import ids
from cogs.commands.daily import NO_PLACE
from tests.answers import answered_privately, thinking, updated_the_menu
from tests.botdriver import (
    enabled_choices,
    play_to_the_end,
    running_bot,
    table_message,
    until,
    wait_settled,
)
from tests.custom_ids import is_action
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import CREATE_PRIVATE_THREADS, DM, PRIVATE_THREAD
from tests.scenarios.test_discord_hidden import assert_no_hidden_card_shown

REPO = Path(__file__).resolve().parents[2]
NOON = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
DAY = "2026-06-01"
GAME = "fiasco"  # the shortest daily deal: one Counting Round


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def daily_session(bot, user):
    """``user``'s daily table (the newest, open or not)."""
    found = [s for s in bot.tables.registry.sessions()
             if s.table.daily and s.table.host_id == user.id]
    assert found, "no daily table"
    return max(found, key=lambda s: s.table.created_at)


async def play_daily(fake, user, channel, game: str = GAME):
    """``user`` types ``/daily <game>`` in ``channel``: the answer, once its followup came."""
    asked = await fake.slash(user, channel, f"daily {game}")
    assert thinking(asked), asked
    await asked.wait_followups(1, timeout=30)  # a thread, a table and its start
    return asked


async def first_choices(fake, bot, session, user, *, moves: int | None = None) -> None:
    """``user`` plays the first thing their menu offers each turn (``moves`` times, or to
    the end): the same person's moves every time, whatever the table."""
    done = 0
    while moves is None or done < moves:
        await until(lambda: session.game.over or not session.is_open
                    or session.seats[session.to_act()].user_id == user.id,
                    timeout=60, what=f"{user.name}'s turn")  # the computers move first
        await wait_settled(bot, session)
        if session.game.over or not session.is_open:
            return
        shown = await fake.click(user, table_message(fake, session), "Show my hand")
        menu = shown.message
        result = await fake.click(user, menu, enabled_choices(menu)[0])
        assert updated_the_menu(result), result
        if "Where does" in result.text:
            await fake.click(user, menu, next(c for c in enabled_choices(menu) if is_action(c)))
        done += 1


async def test_the_daily_deal_is_played_in_a_private_thread_once_a_day(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, clock=lambda: NOON) as bot:
        asked = await play_daily(fake, world.alice, world.table)
        session = daily_session(bot, world.alice)
        thread = fake.channels[session.channel_id]
        assert thread.type == PRIVATE_THREAD and thread.parent_id == world.table.id
        assert thread.member_ids == {fake.bot_user.id, world.alice.id} and not thread.invitable
        said = asked.followups[0].content
        assert said.startswith(f"Today's Fiasco deal is ready in <#{thread.id}>:"), said
        assert "you against 2 hard computers" in said
        table = session.table
        assert table.daily == DAY and table.turn_seconds == 0 and not table.rated
        assert [s.user_id for s in table.seats] == [world.alice.id, None, None]
        assert table.record["seed"] == daily_seed(DAY, GAME)
        assert len(table.seats) == daily_seats(GAME)

        # Nobody else is shown it, or may watch it.
        listed = await fake.slash(world.bob, world.lobby, "tables")
        assert "No open table here" in listed.message.text
        forged = await fake.click(world.bob, listed.message,
                                  ids.listed_id(session.id, "watch"), force=True)
        assert answered_privately(forged), forged
        assert forged.text in (sentence(PRIVATE), "That table is in a channel you cannot see.")
        with pytest.raises(TableError, match=PRIVATE):  # even where the thread is seen
            bot.tables.watch(session, world.bob.id)
        assert not session.watchers

        # Today's board waits for those who played; the player's try is still going.
        closed = await fake.slash(world.alice, world.lobby, "daily board", {"game": GAME})
        assert "You are still playing" in closed.message.text
        await play_to_the_end(fake, bot, session, {world.alice.id: world.alice},
                              random.Random(3))
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.FINISHED
        await fake.wait_for(lambda: any("is over." in m.content
                                        for m in fake.public_messages(thread)))
        [result] = [m for m in fake.public_messages(thread) if "is over." in m.content]
        assert [b.label for b in result.buttons] == ["Record"]
        assert "Not rated: daily deals have their own board" in result.content

        # One try a day: a second is refused, and opens nothing.
        threads = len(fake.threads(world.table))
        again = await fake.slash(world.alice, world.lobby, f"daily {GAME}")
        assert answered_privately(again) and "already: one try a day" in again.text, again
        assert len(fake.threads(world.table)) == threads

        score = session.game.scores[0]
        board = await fake.slash(world.alice, world.lobby, "daily board", {"game": GAME})
        assert answered_privately(board), board
        text = board.message.text
        assert f"Fiasco daily deal of {DAY} (today)" in text
        assert f"**1.** <@{world.alice.id}> · {score} pt" in text
        assert "1 person here played it, 1 finished" in text
        other = await fake.slash(world.bob, world.lobby, "daily board", {"game": GAME})
        assert "Play today's Fiasco deal first" in other.message.text
        assert f"<@{world.alice.id}>" not in other.message.text
        assert "1 person here played it, 1 finished" in other.message.text
    assert_no_hidden_card_shown(fake, session, tmp_path)


async def test_yesterdays_board_is_open_to_all_with_the_best_games_record(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    now = [NOON]
    async with running_bot(fake, tmp_path, clock=lambda: now[0]) as bot:
        await play_daily(fake, world.alice, world.table)
        session = daily_session(bot, world.alice)
        await play_to_the_end(fake, bot, session, {world.alice.id: world.alice},
                              random.Random(5))
        await wait_settled(bot, session)
        now[0] = NOON + dt.timedelta(days=1)
        board = await fake.slash(world.bob, world.lobby, "daily board",
                                 {"game": GAME, "day": "yesterday"})
        assert answered_privately(board), board
        assert f"Fiasco daily deal of {DAY} (yesterday)" in board.message.text
        assert f"<@{world.alice.id}>" in board.message.text
        [record] = board.message.attachments
        assert record.filename == f"fivefold-fiasco-{session.id}.json"
        assert json.loads(record.data)["seed"] == daily_seed(DAY, GAME)
        # Today's is a new deal: Alice may play it, and her streak is counted.
        await play_daily(fake, world.alice, world.table)
        today = daily_session(bot, world.alice)
        assert today.id != session.id and today.table.daily == "2026-06-02"
        assert today.table.record["seed"] == daily_seed("2026-06-02", GAME)
        await play_to_the_end(fake, bot, today, {world.alice.id: world.alice},
                              random.Random(6))
        await wait_settled(bot, today)
        board = await fake.slash(world.alice, world.lobby, "daily board", {"game": GAME})
        assert "2 days in a row" in board.message.text


async def test_the_same_deal_for_everyone_everywhere_and_across_restarts(
    fake_world: FakeWorld, tmp_path
):
    """Alice plays today's deal here, Dave on another server with a restart in the middle,
    both always choosing the first thing offered: the same deals, the same computers' moves,
    move for move; and another process replaying Alice's moves deals the same cards."""
    world, fake = fake_world, fake_world.fake
    other = fake.add_guild("Another server")
    far = fake.add_channel(other, "far-away")
    dave = fake.add_user("dave", guild=other)
    async with running_bot(fake, tmp_path / "here", clock=lambda: NOON) as bot:
        await play_daily(fake, world.alice, world.table)
        alice = daily_session(bot, world.alice)
        await first_choices(fake, bot, alice, world.alice)
        here = alice.table.record
    async with running_bot(fake, tmp_path / "there", clock=lambda: NOON) as bot:
        await play_daily(fake, dave, far)
        await first_choices(fake, bot, daily_session(bot, dave), dave, moves=4)
    async with running_bot(fake, tmp_path / "there", clock=lambda: NOON) as bot:
        restarted = daily_session(bot, dave)
        await first_choices(fake, bot, restarted, dave)
        there = restarted.table.record
    assert there["seed"] == here["seed"] == daily_seed(DAY, GAME)
    assert there["deals"] == here["deals"] and there["actions"] == here["actions"]

    # Another process (its own hash salt) deals from the day and the game alone, deals
    # emptied: replaying Alice's moves there gives the very deals she was dealt.
    replay = subprocess.run([sys.executable, "-c", REPLAY], input=json.dumps(
        {**here, "day": DAY, "deals": [], "seed": None}), capture_output=True, text=True,
        timeout=120, cwd=REPO, check=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "random"})
    assert json.loads(replay.stdout) == here["deals"]


REPLAY = """
import json, sys
from bot.tables.daily import daily_seed
from games.core.records import Record
from games.core.replay import load, split_action
data = json.load(sys.stdin)
data["seed"] = daily_seed(data.pop("day"), data["game"])
game = load(Record.from_data(data))
for line in data["actions"]:
    game.apply(*split_action(line, game.players))
print(json.dumps(game.record().deals))
"""


async def test_a_daily_deal_goes_to_a_direct_message_when_no_thread_may_be_opened(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    world.table.bot_deny = CREATE_PRIVATE_THREADS
    erin = fake.add_user("erin", dms_open=True)
    async with running_bot(fake, tmp_path, clock=lambda: NOON) as bot:
        # Bob's direct messages are closed: he is told, and keeps his try.
        closed = await play_daily(fake, world.bob, world.table)
        assert closed.followups[0].content == NO_PLACE
        assert await bot.ledger.daily_try(DAY, GAME, world.bob.id) is None
        assert not [s for s in bot.tables.registry.sessions() if s.table.daily]

        asked = await play_daily(fake, erin, world.table)
        assert "ready in our direct messages: https://discord.com/channels/@me/" in \
            asked.followups[0].content
        session = daily_session(bot, erin)
        assert fake.channels[session.channel_id].type == DM and session.table.in_dm
        assert not fake.threads(world.table)
        await play_to_the_end(fake, bot, session, {erin.id: erin}, random.Random(8))
        await wait_settled(bot, session)
        mine = await bot.ledger.daily_try(DAY, GAME, erin.id)
        assert mine is not None and mine.score == session.game.scores[0]
        assert mine.guild_id == world.guild.id  # on this server's board


async def test_daily_has_the_cooldown_of_every_command_that_writes(fake_world: FakeWorld,
                                                                   tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, clock=lambda: NOON, commands_per_minute=1):
        await play_daily(fake, world.bob, world.table)
        # As /play <game>, each game's subcommand counts its own uses.
        again = await fake.slash(world.bob, world.table, f"daily {GAME}")
        assert answered_privately(again) and again.text.startswith("Not so fast"), again
        other = await play_daily(fake, world.bob, world.table, "fumblaroo")
        assert "Today's Fumblaroo deal is ready" in other.followups[0].content
        # Reading a board, or the tables, writes nothing and waits for nobody.
        for _ in range(2):
            board = await fake.slash(world.bob, world.lobby, "daily board", {"game": GAME})
            assert answered_privately(board) and "Not so fast" not in board.text
            listed = await fake.slash(world.bob, world.lobby, "tables")
            assert answered_privately(listed) and "Not so fast" not in listed.text
