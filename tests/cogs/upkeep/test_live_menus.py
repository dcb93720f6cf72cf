"""``cogs.upkeep.live_menus.LiveMenus`` on its own: coalescing, holding, expiry and failures.

The interaction is a stand-in that records every edit and can keep one in flight, so
each test sees exactly which edits went out, on an injected clock.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from types import SimpleNamespace

import discord
import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import menu_of
from cogs.render.hand import render_hand
from cogs.upkeep.live_menus import LIFETIME, LiveMenus, menu_state


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeInteraction:
    """What LiveMenus uses of a discord.Interaction: who, when, and editing its menu."""

    def __init__(self, user_id: int, *, fail: int | None = None) -> None:
        self.user = SimpleNamespace(id=user_id)
        self.created_at = dt.datetime.now(dt.UTC)
        self.edits: list[str] = []
        self.fail = fail
        self.gate: asyncio.Event | None = None  # set: edits wait for it (one in flight)

    async def edit_original_response(self, *, content: str, view: object,
                                     attachments: object, allowed_mentions: object = None
                                     ) -> None:
        if self.gate is not None:
            await self.gate.wait()
        if self.fail is not None:
            response = SimpleNamespace(status=self.fail, reason="refused")
            raise discord.HTTPException(response, {"code": 50027,
                                                   "message": "Invalid Webhook Token"})
        self.edits.append(content)


async def edit(interaction: FakeInteraction, **changes: object) -> None:
    """How LiveMenus edits a kept menu, on the stand-in."""
    await interaction.edit_original_response(**changes)  # type: ignore[arg-type]


def two_player_fiasco() -> Session:
    now = dt.datetime.now(dt.UTC)
    table = StoredTable(id="live1", guild_id=1, channel_id=2, host_id=10, game="fiasco",
                        status=TableStatus.PLAYING, version=1, created_at=now, updated_at=now,
                        seats=[Seat(user_id=10, name="ana"), Seat(user_id=11, name="ben")])
    return Session(table, games.new_game("fiasco", 2, seed=5, dealer=1))


def move(session: Session) -> None:
    """The seat to act makes its first legal move (the state the menus follow changes)."""
    game = session.game
    game.apply(game.to_act, game.legal_actions()[0])


async def test_a_burst_of_changes_is_one_edit_in_flight_then_one_with_the_latest_state():
    session, clock = two_player_fiasco(), Clock()
    live = LiveMenus(clock=clock, edit=edit)
    ben = FakeInteraction(11)
    live.keep(session, menu_of(session, 1), ben)  # ben's menu, drawn while ana claims first
    ben.gate = asyncio.Event()
    move(session)  # ana claims: the turn reaches ben
    live.table_changed(session)
    await asyncio.sleep(0)  # the first edit is now in flight, waiting at the gate
    for _ in range(3):
        move(session)
        live.table_changed(session)  # coalesced behind the one in flight
    ben.gate.set()
    await live.idle()
    assert len(ben.edits) == 2
    assert ben.edits[-1] == live_render(session, 1)  # the latest state won
    assert not live.busy()


def live_render(session: Session, seat: int) -> str:
    """The menu as a live edit draws it now."""
    return render_hand(menu_of(session, seat),
                       note="; ".join(list(session.recent)[-2:]) or None).content


async def test_nothing_is_edited_when_nothing_changed_for_that_player():
    session = two_player_fiasco()
    live = LiveMenus(clock=Clock(), edit=edit)
    ana = FakeInteraction(10)
    live.keep(session, menu_of(session, 0), ana)
    live.table_changed(session)
    await live.idle()
    assert ana.edits == []
    assert menu_state(menu_of(session, 0)) == live._menus["live1"][10].shown


async def test_a_menu_being_answered_is_held_and_not_edited_behind_the_answer():
    session = two_player_fiasco()
    live = LiveMenus(clock=Clock(), edit=edit)
    old = FakeInteraction(10)
    live.keep(session, menu_of(session, 0), old)
    click = FakeInteraction(10)
    with live.answering(session, 10):
        move(session)  # ana's own click applies her move...
        live.table_changed(session)
        await asyncio.sleep(0)
        assert old.edits == [] and not live.busy()  # ...and no edit races her answer
        live.keep(session, menu_of(session, 0), click)  # the answer showed the new state
    await live.idle()
    assert old.edits == [] and click.edits == []


async def test_a_menu_follows_from_what_its_answer_showed_not_from_the_table_now():
    """The answer went out with a snapshot; the table moved on before it was kept: the
    menu shows the older state, so the change must still reach it."""
    session = two_player_fiasco()
    live = LiveMenus(clock=Clock(), edit=edit)
    ben = FakeInteraction(11)
    answered = menu_of(session, 1)  # ben's answer, rendered from this snapshot
    move(session)  # ana claims meanwhile: the turn reaches ben
    live.keep(session, answered, ben)
    live.table_changed(session)
    await live.idle()
    assert ben.edits == [live_render(session, 1)]


async def test_a_menu_is_never_edited_once_its_time_is_up():
    session, clock = two_player_fiasco(), Clock()
    live = LiveMenus(clock=clock, edit=edit)
    ben = FakeInteraction(11)
    live.keep(session, menu_of(session, 1), ben)
    assert live.is_live(session, 11)
    clock.now += LIFETIME  # Discord allows a minute more; the bot does not use it
    move(session)
    live.table_changed(session)
    await live.idle()
    assert ben.edits == [] and not live.is_live(session, 11)


@pytest.mark.parametrize("status", [401, 404])
async def test_a_refused_edit_forgets_the_menu_and_says_so(status):
    session = two_player_fiasco()
    told: list[Session] = []
    live = LiveMenus(clock=Clock(), lost=told.append, edit=edit)
    ben = FakeInteraction(11, fail=status)
    live.keep(session, menu_of(session, 1), ben)
    move(session)
    live.table_changed(session)
    await live.idle()
    assert not live.is_live(session, 11) and told == [session]
    move(session)
    live.table_changed(session)
    await live.idle()
    assert told == [session]  # forgotten: never tried again


async def test_someone_who_just_used_a_menu_needs_no_ping_for_a_few_seconds():
    session, clock = two_player_fiasco(), Clock()
    live = LiveMenus(clock=clock, edit=edit)
    live.lifetime = 0  # no menu follows the game
    live.keep(session, menu_of(session, 1), FakeInteraction(11))
    assert live.needs_no_ping(session, 11) and not live.needs_no_ping(session, 10)
    clock.now += live.active_for
    assert not live.needs_no_ping(session, 11)
