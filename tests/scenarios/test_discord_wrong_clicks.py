"""Every wrong click gets an ephemeral reason within 3 s and changes nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

import games
from bot.models import TableStatus
from bot.tables.session import Session
from tests.answers import answered_privately, updated_the_menu
from tests.botdriver import (
    answer_text,
    enabled_choices,
    menus_never_follow,
    open_table,
    running_bot,
    session_in,
    table_message,
    take_turn,
    wait_settled,
)
from tests.custom_ids import card_of, is_card, naming_card, version_of
from tests.fakediscord import FakeDiscord, InteractionResult
from tests.fakediscord.fixtures import FakeWorld
from tests.voice import card_codes


def state(session: Session) -> tuple[object, ...]:
    actions = list((session.table.record or {}).get("actions", []))
    return (session.version, actions, session.table.status,
            [s.model_dump() for s in session.seats], session.table.host_id)


def refused(result: InteractionResult, *words: str) -> None:
    """Answered privately: a new ephemeral message, or the clicker's menu updated."""
    assert answered_privately(result) or updated_the_menu(result), result
    for word in words:
        assert word.lower() in result.text.lower(), (word, result.text)


async def two_player_fiasco(world: FakeWorld, bot) -> Session:
    return await open_table(world.fake, bot, world.alice, world.table, "fiasco",
                            people=[world.bob])


def person_to_act(world: FakeWorld, session: Session):
    seat = session.to_act()
    assert seat is not None
    uid = session.seats[seat].user_id
    return next(u for u in (world.alice, world.bob, world.carol) if u.id == uid)


def other_person(world: FakeWorld, session: Session):
    mover = person_to_act(world, session)
    return world.bob if mover is world.alice else world.alice


async def menu_of(fake: FakeDiscord, session: Session, user):
    shown = await fake.click(user, table_message(fake, session), "Show my hand")
    assert shown.ephemeral and shown.message is not None
    return shown.message


async def test_someone_not_seated_is_told_so(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await two_player_fiasco(world, bot)
        before = state(session)
        result = await fake.click(world.carol, table_message(fake, session), "Show my hand")
        refused(result, "not seated")
        # A forged move from someone not seated, on a real menu's id.
        menu = await menu_of(fake, session, person_to_act(world, session))
        forged = await fake.click(world.carol, table_message(fake, session),
                                  enabled_choices(menu)[0], force=True)
        refused(forged, "not seated")
        assert state(session) == before


async def test_a_move_out_of_turn_is_refused(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await two_player_fiasco(world, bot)
        waiting = other_person(world, session)
        menu = await menu_of(fake, session, waiting)
        assert not enabled_choices(menu), "nothing is clickable out of turn"
        mover_menu = await menu_of(fake, session, person_to_act(world, session))
        before = state(session)
        result = await fake.click(waiting, menu, enabled_choices(mover_menu)[0], force=True)
        refused(result, "not your turn")
        assert state(session) == before


def forged_card_click(session: Session, menu) -> tuple[str, tuple[str, ...]] | None:
    """A card click the rules refuse, as (custom id, ways the reason may name the card): a
    disabled card of the menu, or else (in a game where every held card is always legal) a
    card of the deck not held."""
    cards = [b for b in menu.buttons if is_card(b.custom_id)]
    disabled = [b for b in cards if b.disabled]
    if disabled:
        return disabled[0].custom_id, (card_of(disabled[0].custom_id), disabled[0].label)
    enabled = [b for b in cards if not b.disabled]
    if not enabled:
        return None
    held = {card_of(b.custom_id) for b in cards}
    assert session.game is not None
    missing = [c for c in session.game.deck_in_play() if c.text not in held]
    if not missing:
        return None
    # The reason names the card as people read it (its label), never in notation.
    return naming_card(enabled[0].custom_id, missing[0].text), \
        (session.game.card_label(missing[0]),)


@pytest.mark.parametrize("game", games.names())
async def test_a_card_that_may_not_be_used_is_refused_with_the_rules_reason(
    fake_world: FakeWorld, tmp_path, game: str
):
    """Disabled card buttons (or cards not held) can still be forged by a client: the click
    is refused with the rules' reason and changes nothing, in every registered game."""
    world, fake = fake_world, fake_world.fake
    rng = random.Random(3)
    cls = games.get(game)
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, game,
                                   people=[world.bob], computers=max(0, cls.min_players - 2))
        for _ in range(200):
            await wait_settled(bot, session)
            assert session.is_open, f"{game} ended before a card click could be forged"
            mover = person_to_act(world, session)
            menu = await menu_of(fake, session, mover)
            forged = forged_card_click(session, menu)
            if forged is not None:
                custom_id, names = forged
                before = state(session)
                result = await fake.click(mover, menu, custom_id, force=True)
                refused(result)
                reason = answer_text(fake, result).lower()
                assert "out of date" not in reason and "not your turn" not in reason
                assert any(n.lower() in reason for n in names) or "must" in reason, reason
                assert card_codes(game, answer_text(fake, result)) == [], reason
                assert state(session) == before
                assert enabled_choices(result.message), "a fresh menu comes with the reason"
                return
            await take_turn(fake, session, mover, rng)
    raise AssertionError(f"{game} never showed a card to forge a click on")


async def test_a_menu_older_than_the_table_is_refused_with_a_fresh_one(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await two_player_fiasco(world, bot)
        mover = person_to_act(world, session)
        old = await menu_of(fake, session, mover)
        old_choice = enabled_choices(old)[0]
        await take_turn(fake, session, mover, random.Random(1))
        await wait_settled(bot, session)
        before = state(session)
        result = await fake.click(mover, old, old_choice, force=True)
        refused(result, "out of date")
        assert state(session) == before
        assert "Your hand" in result.text  # a fresh menu
        assert all(version_of(b.custom_id) == session.version for b in result.message.buttons
                   if b.label != "Refresh")  # Refresh shows the table as it is, any version


async def test_a_menu_drawn_before_another_seat_played_still_plays_a_legal_move(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        menus_never_follow(bot)  # a menu left as it was drawn (its token expired)
        session = await two_player_fiasco(world, bot)
        while session.game.phase() == "claiming suits":
            await take_turn(fake, session, person_to_act(world, session), random.Random(2))
            await wait_settled(bot, session)
        mover, waiter = person_to_act(world, session), other_person(world, session)
        early = await menu_of(fake, session, waiter)  # drawn while it is not their turn
        await take_turn(fake, session, mover, random.Random(3))
        await wait_settled(bot, session)
        assert person_to_act(world, session) is waiter
        button = next(b for b in early.buttons if is_card(b.custom_id))
        assert button.disabled  # it was not their turn when the menu was drawn
        actions = len(session.table.record["actions"])
        result = await fake.click(waiter, early, button.custom_id, force=True)
        assert updated_the_menu(result)
        assert "out of date" not in result.text
        assert len(session.table.record["actions"]) == actions + 1
        # The same old menu clicked again is now out of date: the waiter has acted since.
        again = await fake.click(waiter, early, button.custom_id, force=True)
        refused(again, "out of date")
        assert len(session.table.record["actions"]) == actions + 1


async def test_a_double_click_applies_once(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await two_player_fiasco(world, bot)
        mover = person_to_act(world, session)
        menu = await menu_of(fake, session, mover)
        choice = enabled_choices(menu)[0]
        actions = len(session.table.record["actions"])
        first, second = await asyncio.gather(
            fake.click(mover, menu, choice, force=True),
            fake.click(mover, menu, choice, force=True),
        )
        await wait_settled(bot, session)
        assert len(session.table.record["actions"]) == actions + 1
        texts = sorted([answer_text(fake, first), answer_text(fake, second)],
                       key=lambda t: "out of date" in t)
        assert "out of date" in texts[1] and "out of date" not in texts[0]


async def test_twenty_simultaneous_clicks_on_one_card_apply_once(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await two_player_fiasco(world, bot)
        mover = person_to_act(world, session)
        # Claim suits first so the menu holds cards.
        while session.game.phase() == "claiming suits":
            await take_turn(fake, session, person_to_act(world, session), random.Random(2))
            await wait_settled(bot, session)
        mover = person_to_act(world, session)
        menu = await menu_of(fake, session, mover)
        card = next(c for c in enabled_choices(menu) if is_card(c))
        actions = len(session.table.record["actions"])
        results = await asyncio.gather(*[
            fake.click(mover, menu, card, force=True) for _ in range(20)])
        await wait_settled(bot, session)
        assert len(session.table.record["actions"]) == actions + 1
        stored = await bot.store.get_table(session.id)
        assert len(stored.record["actions"]) == actions + 1
        assert all(updated_the_menu(r) for r in results)

        stale = [r for r in results if "out of date" in answer_text(fake, r)]
        assert len(stale) == 19
        fake.assert_no_violations()


async def test_forged_and_unknown_custom_ids_are_answered(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await two_player_fiasco(world, bot)
        before = state(session)
        public = table_message(fake, session)
        for custom_id in ("ff:deadbeef00:hand", "something-else", "ff:deadbeef00:c:1:S4:0",
                          f"ff:{session.id}:a:{session.version}:launch_rockets"):
            result = await fake.click(world.alice, public, custom_id, force=True)
            refused(result)
        unknown = await fake.click(world.alice, public, "ff:deadbeef00:hand", force=True)
        refused(unknown, "not from a table I know")
        assert state(session) == before


async def test_buttons_of_a_finished_or_cancelled_table_say_so(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        # A cancelled lobby.
        await fake.slash(world.alice, world.lobby, "play fiasco")
        lobby = session_in(bot, world.lobby)
        lobby_message = table_message(fake, lobby)
        join_id = lobby_message.button("Join").custom_id
        await fake.click(world.alice, lobby_message, "Cancel")
        await wait_settled(bot, lobby)
        assert lobby.table.status is TableStatus.CANCELLED
        refused(await fake.click(world.bob, lobby_message, join_id, force=True), "closed")
        # A game ended by its host: its old hand menus and Show my hand button.
        session = await two_player_fiasco(world, bot)
        hand_id = table_message(fake, session).button("Show my hand").custom_id
        menu = await menu_of(fake, session, person_to_act(world, session))
        choice = enabled_choices(menu)[0]
        ended = await fake.slash(world.alice, world.table, "end")
        assert ended.ephemeral
        await wait_settled(bot, session)
        before = state(session)
        refused(await fake.click(world.alice, menu, choice, force=True), "closed")
        refused(await fake.click(world.bob, table_message(fake, session), hand_id, force=True),
                "closed")
        assert state(session) == before


async def test_host_only_buttons_refuse_anyone_else(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        await fake.slash(world.alice, world.table, "play fiasco")
        session = session_in(bot, world.table)
        await fake.click(world.bob, table_message(fake, session), "Join")
        await wait_settled(bot, session)
        before = state(session)
        refused(await fake.click(world.bob, table_message(fake, session), "Start"), "host")
        refused(await fake.click(world.bob, table_message(fake, session), "Cancel"), "host")
        refused(await fake.slash(world.bob, world.table, "start"), "host")
        refused(await fake.slash(world.bob, world.table, "kick", {"player": world.alice}), "host")
        assert state(session) == before
        # A moderator (Manage Messages) may end it; a seated non-host may not.
        refused(await fake.slash(world.bob, world.table, "end"), "host")
        assert state(session) == before
        ended = await fake.slash(world.carol, world.table, "end")
        assert ended.ephemeral
        assert session.table.status is TableStatus.CANCELLED
