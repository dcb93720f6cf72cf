"""A command and its button are one request to the table service, refused in the same words.

``/join`` and Join, ``/start`` and Start, ``/leave`` and Leave, ``/hand`` and Show my hand
go through one handler each; whichever a person uses, a refusal reads the same. A stale
or out-of-turn click is checked once, by the table service, and refused in one wording.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import bot.tables.checks
from bot.tables.errors import STALE
from bot.tables.session import Session
from tests.botdriver import (
    answer_text,
    enabled_choices,
    open_table,
    running_bot,
    session_in,
    table_message,
    take_turn,
    wait_settled,
)
from tests.fakediscord import FakeDiscord, InteractionResult
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser


def private(fake: FakeDiscord, result: InteractionResult) -> str:
    """The words of a private answer."""
    assert result.ephemeral, result
    return answer_text(fake, result)


async def same_words(fake: FakeDiscord, session: Session, user: FakeUser, button: str,
                     command: str, channel: Any) -> str:
    """``user`` presses ``button`` on the table message, then types ``command``: both
    answered privately in the same words, which are returned."""
    pressed = await fake.click(user, table_message(fake, session), button)
    typed = await fake.slash(user, channel, command)
    assert private(fake, pressed) == private(fake, typed), (pressed, typed)
    return private(fake, typed)


async def test_a_command_and_its_button_are_refused_in_the_same_words(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        lobby = session_in(bot, world.table)
        await fake.click(world.bob, table_message(fake, lobby), "Join")
        await wait_settled(bot, lobby)
        seats = [s.model_dump() for s in lobby.seats]

        assert "already seated" in await same_words(fake, lobby, world.bob, "Join", "join",
                                                    world.table)
        assert "Only the host" in await same_words(fake, lobby, world.bob, "Start", "start",
                                                   world.table)
        assert "not seated" in await same_words(fake, lobby, world.carol, "Leave", "leave",
                                                world.table)
        assert [s.model_dump() for s in lobby.seats] == seats

        await fake.click(world.alice, table_message(fake, lobby), "Start")
        await wait_settled(bot, lobby)
        assert "not seated" in await same_words(fake, lobby, world.carol, "Show my hand",
                                                "hand", world.table)


class Counted:
    """A check of the table service, wrapped to count how often a click makes it."""

    def __init__(self, check: Callable[..., Any]) -> None:
        self.check = check
        self.calls = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.check(*args)


async def test_a_stale_or_out_of_turn_click_is_checked_once_and_refused_in_one_wording(
    fake_world: FakeWorld, tmp_path, monkeypatch: pytest.MonkeyPatch
):
    world, fake = fake_world, fake_world.fake
    stale = Counted(Session.menu_is_stale)
    turn = Counted(bot.tables.checks.not_your_turn)
    monkeypatch.setattr(Session, "menu_is_stale", lambda s, *a: stale(s, *a))
    monkeypatch.setattr(bot.tables.checks, "not_your_turn", turn)
    async with running_bot(fake, tmp_path) as running:
        session = await open_table(fake, running, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        people = {u.id: u for u in (world.alice, world.bob)}
        seat = session.to_act()
        assert seat is not None
        mover = people[session.seats[seat].user_id or 0]
        waiter = world.bob if mover is world.alice else world.alice
        drawn = (await fake.click(mover, table_message(fake, session), "Show my hand")).message
        waiting = (await fake.click(waiter, table_message(fake, session), "Show my hand")).message
        assert drawn is not None and waiting is not None
        choice = enabled_choices(drawn)[0]

        turn.calls = stale.calls = 0
        out_of_turn = await fake.click(waiter, waiting, choice, force=True)
        assert turn.calls == 1 and stale.calls == 1
        assert "not your turn" in private(fake, out_of_turn)

        await take_turn(fake, session, mover, random.Random(1))
        await wait_settled(running, session)
        turn.calls = stale.calls = 0
        again = await fake.click(mover, drawn, choice, force=True)
        assert stale.calls == 1 and turn.calls == 0  # stale first: the turn is not asked
        assert STALE in private(fake, again)
