"""Tables left alone expire, decided from stored timestamps, across restarts too."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from pathlib import Path

from bot.models import Seat, StoredTable, TableStatus
from bot.tables.expiry import expiry_reason
from tests.botdriver import (
    answer_text,
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    settings_for,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def table(status: TableStatus, *, updated: dt.datetime, person: dt.datetime | None
          ) -> StoredTable:
    return StoredTable(id="t1", guild_id=1, channel_id=2, host_id=3, game="fiasco",
                       status=status, seats=[Seat(user_id=3, name="ana")], created_at=T0,
                       updated_at=updated, last_person_at=person)


def test_a_lobby_expires_after_its_idle_minutes(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    lobby = table(TableStatus.LOBBY, updated=T0, person=None)
    assert expiry_reason(lobby, T0 + dt.timedelta(minutes=14, seconds=59), settings) is None
    reason = expiry_reason(lobby, T0 + dt.timedelta(minutes=15), settings)
    assert reason is not None and "15 minutes" in reason


def test_one_minute_and_one_hour_are_said_in_the_singular(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, lobby_idle_minutes=1, game_idle_hours=1)
    lobby = table(TableStatus.LOBBY, updated=T0, person=None)
    game = table(TableStatus.PLAYING, updated=T0, person=T0)
    later = T0 + dt.timedelta(hours=1)
    assert expiry_reason(lobby, later, settings) == (
        "the lobby closed after 1 minute without anyone joining or starting")
    assert expiry_reason(game, later, settings) == (
        "the game ended unrated after 1 hour without a move by a person")


def test_computers_moves_do_not_keep_a_game_alive(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    # A computer moved a minute ago (updated_at), a person 24 hours ago.
    late = T0 + dt.timedelta(hours=24)
    game = table(TableStatus.PLAYING, updated=late - dt.timedelta(minutes=1), person=T0)
    reason = expiry_reason(game, late, settings)
    assert reason is not None and "unrated" in reason
    alive = table(TableStatus.PLAYING, updated=T0, person=late - dt.timedelta(hours=1))
    assert expiry_reason(alive, late, settings) is None
    done = table(TableStatus.FINISHED, updated=T0, person=T0)
    assert expiry_reason(done, late + dt.timedelta(days=9), settings) is None


async def test_an_idle_lobby_closes_and_frees_the_channel(fake_world: FakeWorld,
                                                          tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    moment = [dt.datetime.now(dt.UTC)]
    async with running_bot(fake, tmp_path, clock=lambda: moment[0],
                           expiry_check_seconds=0.02) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        session = session_in(bot, world.table)
        await wait_settled(bot, session)
        moment[0] += dt.timedelta(minutes=16)  # the sweep looks at the clock
        await until(lambda: not session.is_open, what="the idle lobby to close")
        await wait_settled(bot, session)
        assert "15 minutes" in table_message(fake, session).text
        again = await fake.slash(world.bob, world.table, "play fiasco")
        assert not again.ephemeral  # the channel is free


async def test_an_abandoned_game_ends_unrated_and_is_not_resumed(fake_world: FakeWorld,
                                                                 tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1)
        seat = session.to_act()
        assert seat is not None and session.seats[seat].user_id is not None
        user = {world.alice.id: world.alice, world.bob.id: world.bob}[
            session.seats[seat].user_id]
        await take_turn(fake, session, user, random.Random(1))
        await wait_settled(bot, session)
        acted = session.table.last_person_at
        assert acted is not None
        table_id = session.id
    # The bot is away for a day and a half; at the next start the game has expired.
    later = acted + dt.timedelta(hours=36)
    async with running_bot(fake, tmp_path, clock=lambda: later) as bot:
        assert bot.tables.registry.open_tables() == []
        stored = await bot.store.get_table(table_id)
        assert stored is not None and stored.status is TableStatus.CANCELLED
        assert stored.record is not None and stored.record["actions"]  # the record is kept
        assert await bot.store.stats(world.guild.id, world.alice.id) == []  # unrated, no result


async def test_closed_tables_are_pruned_after_their_retention_and_their_buttons_say_so(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    moment = [dt.datetime.now(dt.UTC)]
    async with running_bot(fake, tmp_path, clock=lambda: moment[0], expiry_check_seconds=0.02,
                           table_retention_days=2) as bot:
        done = await open_table(fake, bot, world.alice, world.table, "fiasco", computers=1)
        await play_to_the_end(fake, bot, done, {world.alice.id: world.alice}, random.Random(1))
        await fake.slash(world.bob, world.lobby, "play fiasco", {})
        lobby = session_in(bot, world.lobby)
        join = table_message(fake, lobby).button("Join").custom_id
        await fake.click(world.bob, table_message(fake, lobby), "Cancel")
        await wait_settled(bot, lobby)
        assert bot.tables.registry.sessions() == []  # closed tables are answered from the store
        moment[0] += dt.timedelta(days=1)  # within the retention: both still answer
        details = table_message(fake, done).button("Details").custom_id
        shown = await fake.click(world.alice, table_message(fake, done), details)
        assert answer_text(fake, shown).startswith("**Fiasco**")  # the details, as before
        assert await bot.store.get_table(done.id) is not None
        moment[0] += dt.timedelta(days=2)  # the sweep prunes them
        for _ in range(2000):  # the sweep runs every 0.02 s
            if await bot.store.get_table(done.id) is None:
                break
            await asyncio.sleep(0.005)
        assert await bot.store.get_table(done.id) is None
        assert await bot.store.get_table(lobby.id) is None
        assert [s.games for s in await bot.store.stats(world.guild.id, world.alice.id)] == [1]
        for user, message, button in ((world.alice, table_message(fake, done), details),
                                      (world.bob, table_message(fake, lobby), join)):
            old = await fake.click(user, message, button, force=True)
            assert old.ephemeral and answer_text(fake, old).startswith("This game is over")
