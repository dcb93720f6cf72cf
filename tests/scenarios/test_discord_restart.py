"""A restart in the middle of a game, through the fake Discord, changes nothing of the game.

The same seed and the same choices give the same game whether or not the bot was
stopped half-way: people's choices here depend only on the state (the number of
actions so far), the computer seats' on the table's seed and the state, and the
deals still to come on the seed. After the restart the game is finished by
clicking the buttons of the table message posted before it, and of the hand
menus opened before it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import FivefoldBot
from bot.models import TableStatus
from bot.tables.session import Session
from cogs import ids
from tests.answers import updated_the_menu
from tests.botdriver import (
    answer_text,
    enabled_choices,
    open_table,
    running_bot,
    table_message,
    take_turn,
    wait_settled,
)
from tests.custom_ids import is_action, is_card
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser

SEED = 73_519_004_221
GAMES = [
    pytest.param("fiasco", {}, id="fiasco"),  # claims, then plays
    pytest.param("fumblaroo", {"target": 7}, id="fumblaroo"),  # bids, trump, tricks, many deals
]


def fixed_seed() -> int:
    return SEED


def chooser(session: Session) -> random.Random:
    """A person's choice depends on the state only: the number of actions so far."""
    return random.Random(len(session.table.record["actions"]))


def person_to_act(session: Session, world: FakeWorld) -> FakeUser | None:
    seat = session.to_act()
    if seat is None:
        return None
    user_id = session.seats[seat].user_id
    assert user_id is not None, "a computer seat should have acted"
    return {world.alice.id: world.alice, world.bob.id: world.bob}[user_id]


async def play(fake: FakeDiscord, bot: FivefoldBot, session: Session, world: FakeWorld, *,
               until_actions: int | None = None) -> None:
    """People take turns (deterministic choices) until the game ends or enough actions."""
    for _ in range(3000):
        await wait_settled(bot, session)
        if not session.is_open:
            return
        if until_actions is not None and len(session.table.record["actions"]) >= until_actions:
            return
        user = person_to_act(session, world)
        assert user is not None
        await take_turn(fake, session, user, chooser(session))
    raise AssertionError("the game does not end")


async def open_menu(fake: FakeDiscord, session: Session, user: FakeUser) -> StoredMessage:
    shown = await fake.click(user, table_message(fake, session), "Show my hand")
    assert shown.ephemeral and shown.message is not None, shown
    return shown.message


def game_part(record: dict[str, Any]) -> dict[str, Any]:
    """The record without the bot's ``meta`` (which names channels and times)."""
    return {k: v for k, v in record.items() if k != "meta"}


@pytest.mark.parametrize(("game", "options"), GAMES)
async def test_a_game_finished_after_a_restart_equals_an_uninterrupted_one(
    fake_world: FakeWorld, tmp_path: Path, game: str, options: dict[str, Any]
):
    world, fake = fake_world, fake_world.fake
    alice, bob = world.alice, world.bob

    # The reference: the same seed, the same choices, no restart.
    async with running_bot(fake, tmp_path / "reference", seed_source=fixed_seed) as bot:
        session = await open_table(fake, bot, alice, world.lobby, game, people=[bob],
                                   computers=1, options=options)
        await play(fake, bot, session, world)
        assert session.table.status is TableStatus.FINISHED
        reference = game_part(session.table.record)
        reference_scores = list(session.game.scores)
    assert reference["seed"] == SEED
    half = len(reference["actions"]) // 2

    # Half the game, then the bot stops with two hand menus open.
    async with running_bot(fake, tmp_path / "live", seed_source=fixed_seed) as bot:
        session = await open_table(fake, bot, alice, world.table, game, people=[bob],
                                   computers=1, options=options)
        await play(fake, bot, session, world, until_actions=half)
        await wait_settled(bot, session)
        table_id, message_id = session.id, session.table.message_id
        before = game_part(session.table.record)
        actor = person_to_act(session, world)
        assert actor is not None
        other = bob if actor is alice else alice
        actor_menu = await open_menu(fake, session, actor)
        other_menu = await open_menu(fake, session, other)
        actor_ids = enabled_choices(actor_menu)
        other_text = other_menu.text
        # Not their turn: every card is disabled, but a click may still come (a stale client).
        # (Between hands their hand may be empty: then a card id of that menu's version.)
        other_ids = [b.custom_id for b in other_menu.buttons if is_card(b.custom_id)]
        other_ids.append(ids.card_id(session.id, session.version, "AS", 0))
    assert before["actions"] == reference["actions"][: len(before["actions"])]
    if game == "fumblaroo":  # the restart comes before deals still to be shuffled
        assert len(before["deals"]) < len(reference["deals"])

    # A new bot on the same database: the old messages' buttons finish the game.
    async with running_bot(fake, tmp_path / "live", seed_source=lambda: 1) as bot:
        session = bot.tables.registry.get(table_id)
        await wait_settled(bot, session)
        assert session.table.message_id == message_id
        assert game_part(session.table.record) == before

        # The other person's old menu: re-checked now, refused with a fresh menu.
        early = await fake.click(other, other_menu, other_ids[0], force=True)
        assert updated_the_menu(early), early
        assert "not your turn" in answer_text(fake, early), other_text
        assert game_part(session.table.record) == before

        # The person to act plays from the menu opened before the restart.
        rng = chooser(session)
        moved = await fake.click(actor, actor_menu, rng.choice(actor_ids))
        assert updated_the_menu(moved), moved
        if "Where does" in moved.text:
            step = [c for c in enabled_choices(actor_menu) if is_action(c)]
            moved = await fake.click(actor, actor_menu, rng.choice(step))
            assert updated_the_menu(moved), moved
        await wait_settled(bot, session)
        assert len(session.table.record["actions"]) > len(before["actions"])

        # The same old button clicked again: out of date, refused with a fresh menu.
        if session.is_open:
            again = await fake.click(actor, actor_menu, actor_ids[0], force=True)
            assert updated_the_menu(again), again
            assert "out of date" in answer_text(fake, again)

        # The rest of the game, from the table message posted before the restart.
        await play(fake, bot, session, world)
        assert table_message(fake, session).id == message_id
        assert session.table.status is TableStatus.FINISHED
        assert list(session.game.scores) == reference_scores
        stored = await bot.store.get_table(table_id)
        assert stored is not None and stored.status is TableStatus.FINISHED
        recent = await bot.store.recent_games(world.guild.id, alice.id)
        alice_seat = session.seat_of(alice.id)
        assert [(g.table_id, g.score) for g in recent] == [
            (table_id, reference_scores[alice_seat])]

    assert game_part(stored.record) == reference
    assert stored.record["actions"] == reference["actions"]
    assert stored.record["deals"] == reference["deals"]


async def test_buttons_of_tables_closed_before_a_restart_say_why(
    fake_world: FakeWorld, tmp_path: Path
):
    world, fake = fake_world, fake_world.fake
    alice, bob = world.alice, world.bob
    async with running_bot(fake, tmp_path, seed_source=fixed_seed) as bot:
        # A game played to its end, with a hand menu left open.
        finished = await open_table(fake, bot, alice, world.table, "fiasco", people=[bob])
        first = person_to_act(finished, world)
        assert first is not None
        menu = await open_menu(fake, finished, first)
        menu_ids = enabled_choices(menu)
        assert menu_ids, menu.text
        hand_id = table_message(fake, finished).button("Show my hand").custom_id
        await play(fake, bot, finished, world)
        assert finished.table.status is TableStatus.FINISHED
        # A lobby cancelled by its host.
        await fake.slash(alice, world.lobby, "play fiasco")
        cancelled = bot.tables.registry.in_channel(world.lobby.id)
        assert cancelled is not None
        lobby = table_message(fake, cancelled)
        join_id = lobby.button("Join").custom_id
        await fake.click(alice, lobby, "Cancel")
        await wait_settled(bot, cancelled)
        assert cancelled.table.status is TableStatus.CANCELLED
        finished_message, lobby_message = table_message(fake, finished), lobby

    async with running_bot(fake, tmp_path) as bot:
        assert bot.tables.registry.sessions() == []  # nothing open to resume
        shown = await fake.click(alice, finished_message, hand_id, force=True)
        assert shown.ephemeral and answer_text(fake, shown) == "This game is over.", shown
        card = await fake.click(first, menu, menu_ids[0], force=True)
        assert updated_the_menu(card) and answer_text(fake, card) == "this game is over"

        joined = await fake.click(bob, lobby_message, join_id, force=True)
        assert joined.ephemeral
        assert answer_text(fake, joined) == "This table was closed.", joined
        # A button of a table this bot never had is still "not from a table I know".
        forged = await fake.click(bob, lobby_message, "ff:abcdef0123:hand", force=True)
        assert "not from a table I know" in answer_text(fake, forged)


async def test_a_table_a_restart_cannot_rebuild_says_so_and_the_others_play_on(
    fake_world: FakeWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import bot.tables.restart as sessions_module

    world, fake = fake_world, fake_world.fake
    alice, bob = world.alice, world.bob
    async with running_bot(fake, tmp_path, seed_source=fixed_seed) as bot:
        broken = await open_table(fake, bot, alice, world.table, "fiasco", people=[bob])
        good = await open_table(fake, bot, alice, world.lobby, "fiasco", people=[bob])
        broken_message, good_message = table_message(fake, broken), table_message(fake, good)
        hand_id = broken_message.button("Show my hand").custom_id
    real_load = sessions_module.load

    def load(record: Any, **context: Any) -> Any:  # a bug of no expected kind, one table
        if (record.model_extra or {})["meta"]["table"] == broken.id:
            raise KeyError("a bug")
        return real_load(record, **context)

    monkeypatch.setattr(sessions_module, "load", load)
    async with running_bot(fake, tmp_path) as bot:
        assert [s.id for s in bot.tables.registry.sessions() if s.is_open] == [good.id]
        dead = await fake.click(alice, broken_message, hand_id, force=True)
        assert dead.ephemeral
        assert answer_text(fake, dead).startswith(
            "This table could not be resumed after a restart, so it was closed"), dead
        await fake.wait_for(lambda: "could not be resumed" in fake.messages[
            broken_message.id].text)
        assert fake.messages[broken_message.id].buttons == []
        alive = await fake.click(alice, good_message, "Show my hand")
        assert alive.ephemeral and alive.message is not None
        assert enabled_choices(alive.message) or "Waiting" in alive.message.text
