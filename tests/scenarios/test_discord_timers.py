"""Turn timers through the fake Discord, on an injected clock (no real waiting for time).

The bot's clock is a :class:`Clock` the test moves; the timers read it at least every
``TIMER_CHECK_SECONDS`` (10 ms here), so moving it past half time or the deadline fires
the reminder or the timeout at once, and a restart reads the deadline from the store.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from pathlib import Path
from typing import Any

import discord

from bot.app import FivefoldBot
from bot.models import TableStatus
from bot.tables.computers import move_seed
from bot.tables.session import Session
from games.core.zones import ZoneKind
from games.players import decide, perspective
from tests.answers import updated_the_menu
from tests.botdriver import (
    open_table,
    running_bot,
    session_in,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser

MANAGE_GUILD = discord.Permissions(manage_guild=True).value
CHECK = 0.01  # how often the timers read the moved clock, in real seconds


class Clock:
    """The bot's clock, moved by the test."""

    def __init__(self) -> None:
        self.moment = dt.datetime.now(dt.UTC).replace(microsecond=0)

    def __call__(self) -> dt.datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += dt.timedelta(seconds=seconds)


def timed_bot(fake: FakeDiscord, tmp_path: Path, clock: Clock, **overrides: Any) -> Any:
    return running_bot(fake, tmp_path, clock=clock, seed_source=lambda: 11,
                       timer_check_seconds=CHECK, **overrides)


def actions(session: Session) -> int:
    return len((session.table.record or {}).get("actions", []))


def person_to_act(session: Session, users: dict[int, FakeUser]) -> FakeUser:
    seat = session.to_act()
    assert seat is not None
    user_id = session.seats[seat].user_id
    assert user_id is not None, "a computer is to act"
    return users[user_id]


def pings(fake: FakeDiscord, world: FakeWorld) -> list[Any]:
    return [m for m in fake.public_messages(world.table) if "it is your turn in" in m.content]


async def time_out(bot: FivefoldBot, session: Session, clock: Clock, seconds: float) -> None:
    """Move the clock ``seconds`` on and wait for the timed-out turn to be played."""
    before = actions(session)
    clock.advance(seconds)
    await until(lambda: actions(session) > before and not session.table.overtime, 10,
                "the timed-out turn to be played to its end")
    await wait_settled(bot, session)


async def test_a_timed_turn_counts_down_reminds_at_half_time_then_a_computer_plays_it(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"timer": "1m"})
        assert session.table.turn_seconds == 60
        late = person_to_act(session, users)
        deadline = clock.moment + dt.timedelta(seconds=60)
        assert session.table.deadline == deadline
        header = table_message(fake, session).text.splitlines()
        assert any(f"<@{late.id}>'s turn, time up <t:{math.ceil(deadline.timestamp())}:R>"
                   in line for line in header[:3]), header
        stored = await bot.store.get_table(session.id)
        assert stored is not None and stored.deadline == deadline  # a timestamp, not a sleep

        clock.advance(29)
        await wait_settled(bot, session)
        assert not any("Half your time" in m.content for m in pings(fake, world))
        clock.advance(2)  # past half time
        await until(lambda: any("Half your time" in m.content for m in pings(fake, world)),
                    5, "the half-time reminder")
        await wait_settled(bot, session)
        standing = pings(fake, world)
        assert len(standing) == 1  # the reminder replaced the turn's ping
        assert standing[0].allowed_mentions["users"] in ([late.id], [str(late.id)])
        assert actions(session) == 0 and person_to_act(session, users) == late

        await time_out(bot, session, clock, 30)
        text = table_message(fake, session).text
        assert f"{late.name} took too long; a hard computer played for them" in text
        assert next(s for s in session.seats if s.user_id == late.id).timeouts == 1
        nxt = person_to_act(session, users)
        assert nxt != late and session.table.deadline == clock.moment + dt.timedelta(seconds=60)
        rng = random.Random(1)
        while person_to_act(session, users) != late:
            await take_turn(fake, session, person_to_act(session, users), rng)
            await wait_settled(bot, session)
        await take_turn(fake, session, late, rng)  # a move of their own: the count starts over
        await wait_settled(bot, session)
        assert next(s for s in session.seats if s.user_id == late.id).timeouts == 0
        await fake.slash(world.alice, world.table, "end")


async def test_three_timeouts_in_a_row_pass_the_seat_to_a_computer_across_a_restart(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    clock = Clock()
    rng = random.Random(3)
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"timer": "30s"})
        table_id = session.id
        bob = next(i for i, s in enumerate(session.seats) if s.user_id == world.bob.id)
        timeouts = 0
        while True:  # Alice plays her turns; Bob lets his time out
            if person_to_act(session, users) == world.alice:
                await take_turn(fake, session, world.alice, rng)
                await wait_settled(bot, session)
            elif timeouts == 2:
                break
            else:
                await time_out(bot, session, clock, 31)
                timeouts += 1
                assert session.seats[bob].timeouts == timeouts
        assert not session.seats[bob].is_computer and not session.table.overtime
        deadline = session.table.deadline
        assert deadline is not None
    clock.advance(31)  # the third runs out while the bot is down
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = bot.tables.registry.get(table_id)
        await until(lambda: session.seats[bob].is_computer, 10,
                    "the stored deadline, already past, to fire at the restart")
        await wait_settled(bot, session)
        held = session.seats[bob]
        assert held.replaced_user_id == world.bob.id and held.replaced_because == "timeouts"
        assert "bob timed out 3 turns in a row: a hard computer plays the seat until bob " \
               "takes it back" in table_message(fake, session).text
        assert session.table.deadline is None or person_to_act(session, users) == world.alice

    async with timed_bot(fake, tmp_path, clock) as bot:  # the hand-back, after a restart too
        session = bot.tables.registry.get(table_id)
        await wait_settled(bot, session)
        asked = await fake.click(world.bob, table_message(fake, session), "Show my hand")
        assert asked.ephemeral and "your turn timed out three times in a row" in asked.text
        back = await fake.click(world.bob, asked.message, "Take my seat back")
        assert updated_the_menu(back) and "You are back in your seat, bob" in back.text

        await wait_settled(bot, session)
        held = session.seats[bob]
        assert held.user_id == world.bob.id and held.name == "bob"
        assert held.timeouts == 3  # the seat's for the game: only a move of his own clears it
        assert "bob is back and takes their seat from the computer" in \
            table_message(fake, session).text
        stored = await bot.store.get_table(table_id)
        assert stored is not None and stored.seats[bob].user_id == world.bob.id
        await fake.slash(world.alice, world.table, "end")


async def test_the_last_person_keeps_their_seat_however_often_they_time_out(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   computers=1, options={"timer": "30s"})
        for _ in range(4):
            await until(lambda: session.to_act() == 0, 10, "alice's turn")
            await time_out(bot, session, clock, 31)
        assert session.seats[0].user_id == world.alice.id and session.seats[0].timeouts >= 4
        assert session.is_open
        await fake.slash(world.alice, world.table, "end")


async def test_the_server_default_timer_comes_from_settings_and_a_table_may_choose_off(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    clock = Clock()
    admin = fake.add_user("dana", guild=world.guild, permissions=MANAGE_GUILD)
    async with timed_bot(fake, tmp_path, clock, turn_timeout=0) as bot:
        shown = await fake.slash(admin, world.table, "settings")
        assert "Turn timer: **the bot's default (off)**" in shown.text
        refused = await fake.slash(world.bob, world.table, "settings", {"timer": "30s"})
        assert "Manage Server" in refused.text
        assert await bot.store.get_timer(world.guild.id) is None
        done = await fake.slash(admin, world.table, "settings", {"timer": "30s"})
        assert "**30 seconds**" in done.text
        assert await bot.store.get_timer(world.guild.id) == "30s"

        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        assert session.table.turn_seconds == 30
        assert session.table.deadline == clock.moment + dt.timedelta(seconds=30)
        await time_out(bot, session, clock, 31)
        await fake.slash(world.alice, world.table, "end")

        off = await open_table(fake, bot, world.alice, world.lobby, "fiasco",
                               people=[world.bob], options={"timer": "off"})
        assert off.table.turn_seconds == 0 and off.table.deadline is None
        assert "time up" not in table_message(fake, off).text
        clock.advance(3600)
        await wait_settled(bot, off)
        assert actions(off) == 0 and off.turn_task is None
        await fake.slash(world.alice, world.lobby, "end")

        await fake.slash(admin, world.table, "settings", {"timer": "default"})
        assert await bot.store.get_timer(world.guild.id) is None
        plain = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                 people=[world.bob])
        assert plain.table.turn_seconds == 0 and plain.table.deadline is None
        await fake.slash(world.alice, world.table, "end")


async def test_fiascos_tournament_rule_plays_a_random_card_from_that_hand(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock) as bot:
        refused = await fake.slash(world.alice, world.table, "play fumblaroo",
                                   {"timer": "tournament"})
        assert refused.ephemeral and "Fiasco's rule" in refused.text
        assert bot.tables.registry.in_channel(world.table.id) is None

        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"timer": "tournament"})
        assert session.table.tournament
        assert session.table.deadline == clock.moment + dt.timedelta(seconds=10)
        rng = random.Random(2)
        while session.game is not None and session.game.game_phase.name == "CLAIMING":  # type: ignore[attr-defined]
            await take_turn(fake, session, person_to_act(session, users), rng)
            await wait_settled(bot, session)
        game = session.game
        seat = session.to_act()
        assert game is not None and seat is not None
        hand = next(z for z in game.view_for(seat).zones
                    if z.kind is ZoneKind.HAND and z.owner == seat)
        expected = decide("random", perspective(game, seat), random.Random(
            move_seed(game.seed, actions(session), "random", seat))).action
        await time_out(bot, session, clock, 10)
        played = session.table.record["actions"][-1]
        assert played.endswith(str(expected)) and expected.card in (hand.cards or ())
        assert "ran out: a random card from their hand was played for them (tournament " \
               "rule)" in table_message(fake, session).text
        assert not any("Half your time" in m.content for m in pings(fake, world))
        await fake.slash(world.alice, world.table, "end")
        assert session.table.status is TableStatus.CANCELLED


async def test_a_lobby_and_a_computers_turn_are_never_timed(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock, computer_delay=0.2) as bot:
        await fake.slash(world.alice, world.table, "play fiasco", {"timer": "30s"})
        lobby = session_in(bot, world.table)
        assert lobby.table.deadline is None
        assert "30 seconds a turn" in table_message(fake, lobby).text
        await fake.slash(world.alice, world.table, "end")
        session = await open_table(fake, bot, world.alice, world.lobby, "fiasco",
                                   computers=1, options={"timer": "30s"})
        while session.to_act() == 0:
            await take_turn(fake, session, world.alice, random.Random(5))
        assert session.seats[session.to_act() or 0].is_computer
        assert session.table.deadline is None  # the computer's turn is not timed
        await fake.slash(world.alice, world.lobby, "end")


async def test_a_table_with_hints_has_its_timer_too(fake_world: FakeWorld,
                                                     tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    clock = Clock()
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"timer": "5m", "hints": True})
        assert session.table.hints and session.table.turn_seconds == 300
        late = person_to_act(session, users)
        shown = await fake.click(late, table_message(fake, session), "Show my hand")
        assert shown.message is not None and "Hint" in [b.label for b in shown.message.buttons]
        assert "time up <t:" in table_message(fake, session).text
        await time_out(bot, session, clock, 301)
        assert "took too long" in table_message(fake, session).text
        await fake.slash(world.alice, world.table, "end")
