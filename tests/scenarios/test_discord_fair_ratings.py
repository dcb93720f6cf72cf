"""Ratings that mean something: a person is rated for the game they played, not for the
seat they hold at its last move; and leaving cannot dodge what the seat has earned."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.app import FivefoldBot
from bot.models import TableStatus
from bot.tables.session import Session
from tests.botdriver import open_table, running_bot, take_turn, wait_settled
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser
from tests.scenarios.test_discord_timers import Clock, time_out, timed_bot

RULE = "rated only for a game in which they made at least half of their seat's moves"


def moves_of(session: Session, seat: int) -> int:
    """The decisions made at ``seat`` so far, by anyone (from the game's record)."""
    return sum(1 for line in (session.table.record or {}).get("actions", [])
               if int(line.split()[0]) == seat)


async def play_people(fake: FakeDiscord, bot: FivefoldBot, session: Session,
                      people: list[FakeUser], rng: random.Random,
                      between: Callable[[], object] | None = None) -> None:
    """Play the people's turns to the end of the game; ``between`` (a coroutine function)
    runs before each turn, to leave or come back at the right moment."""
    users = {u.id: u for u in people}
    while True:
        await wait_settled(bot, session)
        if between is not None:
            await between()  # type: ignore[misc]
            await wait_settled(bot, session)
        if not session.in_play:
            return
        seat = session.to_act()
        assert seat is not None
        user_id = session.seats[seat].user_id
        assert user_id is not None, "a computer seat should have acted"
        await take_turn(fake, session, users[user_id], rng)


async def result_of(fake: FakeDiscord, world: FakeWorld) -> StoredMessage:
    await fake.wait_for(lambda: any("is over" in m.content
                                    for m in fake.public_messages(world.table)))
    return next(m for m in fake.public_messages(world.table) if "is over" in m.content)


def line_of(result: StoredMessage, name: str) -> str:
    return next(line for line in result.content.splitlines() if f"**{name}" in line)


async def rating(bot: FivefoldBot, world: FakeWorld, user: FakeUser) -> float | None:
    stats = await bot.store.stats(world.guild.id, user.id)
    return next((s.rating for s in stats if s.game == "fibonachos"), None)


async def test_a_person_is_rated_only_for_a_game_they_mostly_played_themselves(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    """Bob leaves at the start and takes his seat back two moves before the end: the
    computer made 10 of his 12 moves, so he is not rated. Carol plays 10 of hers, then
    leaves: the computer finishes for her, and she is rated as if she had stayed (leaving
    late dodges nothing). Alice, Carol and Dave are rated among themselves."""
    world, fake = fake_world, fake_world.fake
    dave = fake.add_user("dave")
    people = [world.alice, world.bob, world.carol, dave]
    async with running_bot(fake, tmp_path, seed_source=lambda: 7) as bot:
        # The workers start now, not under the first computer's move: starting them holds
        # the event loop a moment, and under load that moment is longer than a click's 3 s.
        await bot.tables.computers.pool.warm()
        session = await open_table(fake, bot, world.alice, world.table, "fibonachos",
                                   people=people[1:],
                                   options={"rounds": 1, "pictures": False})
        assert [s.user_id for s in session.seats] == [u.id for u in people]
        left = await fake.slash(world.bob, world.table, "leave", {})
        assert "computer player took your seat" in left.text

        async def leave_and_come_back() -> None:
            if moves_of(session, 2) == 10 and session.seats[2].user_id == world.carol.id:
                await fake.slash(world.carol, world.table, "leave", {})
            if moves_of(session, 1) == 10 and session.seats[1].is_computer:
                back = await fake.slash(world.bob, world.table, "join", {})
                assert "back in your seat" in back.text

        await play_people(fake, bot, session, people, random.Random(8), leave_and_come_back)
        assert session.table.status is TableStatus.FINISHED
        assert session.seats[1].user_id == world.bob.id  # Bob holds his seat at the end
        assert session.seats[2].is_computer  # a computer finished Carol's
        result = await result_of(fake, world)
        assert line_of(result, "bob").endswith("not rated: a computer made 10 of your 12 moves")
        assert await rating(bot, world, world.bob) is None
        carol = line_of(result, "carol")
        assert "carol (computer, hard)" in carol and "rating new →" in carol
        for user in (world.alice, world.carol, dave):
            assert await rating(bot, world, user) is not None
        assert RULE in result.content
        assert f"<@{world.carol.id}>" in result.content.splitlines()[0]  # rated: told so


async def test_a_person_left_alone_is_told_why_they_are_not_rated(fake_world: FakeWorld,
                                                                  tmp_path: Path) -> None:
    """Bob leaves at once and never comes back: his seat is the computer's, and Alice,
    the only person who played the game, is not rated, and told why (a rating against an
    absent player would let a second account that leaves at once farm one)."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await bot.tables.computers.pool.warm()  # as above
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], options={"pictures": False})
        await fake.slash(world.bob, world.table, "leave", {})
        await play_people(fake, bot, session, [world.alice], random.Random(9))
        result = await result_of(fake, world)
        assert line_of(result, "alice").endswith(
            "not rated: nobody else here played at least half of their own moves")
        bob = line_of(result, "bob")
        assert "bob (computer, hard)" in bob and "not rated: a computer made" in bob
        assert RULE in result.content
        for user in (world.alice, world.bob):
            stats = await bot.store.stats(world.guild.id, user.id)
            assert all(s.rating is None for s in stats)


async def test_leaving_and_coming_back_keeps_the_seats_timeouts(fake_world: FakeWorld,
                                                                tmp_path: Path) -> None:
    """Two timeouts, /leave, /join: the third timeout in a row still passes the seat to a
    computer. The count is the seat's for the game: only a move of its own clears it."""
    world, fake = fake_world, fake_world.fake
    users = {u.id: u for u in (world.alice, world.bob)}
    clock = Clock()
    rng = random.Random(3)
    async with timed_bot(fake, tmp_path, clock) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob],
                                   options={"timer": "30s", "pictures": False})
        bob = next(i for i, s in enumerate(session.seats) if s.user_id == world.bob.id)
        timeouts, came_back = 0, False
        while timeouts < 3:
            seat = session.to_act()
            assert seat is not None
            if seat != bob:
                await take_turn(fake, session, users[session.seats[seat].user_id or 0], rng)
                await wait_settled(bot, session)
                continue
            if timeouts == 2 and not came_back:  # about to be taken over: leave, come back
                came_back = True
                await fake.slash(world.bob, world.table, "leave", {})
                await wait_settled(bot, session)
                back = await fake.slash(world.bob, world.table, "join", {})
                assert "back in your seat" in back.text
                await wait_settled(bot, session)
                if session.to_act() != bob:
                    continue
            await time_out(bot, session, clock, 31)
            timeouts += 1
        held = session.seats[bob]
        assert held.is_computer and held.replaced_because == "timeouts", held
        await fake.slash(world.alice, world.table, "end")
