"""Running the real bot against the fake Discord, and playing it the way people do.

Used by the scenarios in ``tests/scenarios/`` and by tests under ``tests/bot/`` and
``tests/cogs/``. The helpers only click what a person could click (buttons on messages
the user can see) unless a test forges on purpose.
What the bot answered is read with :mod:`tests.answers`, a button's id with
:mod:`tests.custom_ids`.

"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.app import FivefoldBot, create_bot
from bot.settings import Settings
from bot.store.sqlite.store import SqliteStore
from bot.tables.context import Clock
from bot.tables.service import TableService
from bot.tables.session import Session
from cogs.upkeep.live_menus import LiveMenus
from tests.answers import updated_the_menu, updated_the_message
from tests.custom_ids import is_action, is_move
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage
from tests.fakediscord.world import FakeChannel, FakeUser


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": "fake-bot-token",
        "database_path": str(tmp_path / "fivefold.db"),
        "computer_delay": 0,
        "computer_budget": 0.01,  # 200 simulated moves: hard computers decide in milliseconds
        "turn_timeout": 0,
        "table_edit_interval": 0,  # tests wait for each edit; scenarios/test_table_edit_pacing
        "dev_guild_id": None,
        "commands_per_minute": 0,  # tests type commands faster than people; test_discord_guard
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def random_move(tables: TableService, session: Session, rng: random.Random) -> None:
    """A random legal move at ``session``, through the table service (no Discord), by the
    person whose turn it is."""
    running = session.game
    assert running is not None and running.to_act is not None
    person = session.seats[running.to_act].user_id
    assert person is not None
    action = rng.choice(running.legal_actions(running.to_act))
    await tables.actions.act(session, person, action, version=session.version)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, tmp_path: Path, *,
                      seed_source: Callable[[], int] | None = None,
                      clock: Clock | None = None,
                      **overrides: Any) -> AsyncIterator[FivefoldBot]:
    """The real bot, with a real SQLite store in ``tmp_path``, connected to ``fake``.

    ``seed_source`` gives each new game's seed (a fixed one makes games reproducible);
    ``clock`` the moment games read (Fizzbin's day and night; the real one if None).
    """
    settings = settings_for(tmp_path, **overrides)
    store = await SqliteStore.open(settings.database_path)
    bot = create_bot(settings, store=store, seed_source=seed_source, clock=clock,
                     guild_ready_timeout=0.05)
    try:
        async with fake.run_client(bot):
            yield bot
    finally:
        await store.close()


async def until(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """Wait until ``predicate()`` holds, checking every few milliseconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"condition not met within {timeout}s: {what}")
        await asyncio.sleep(0.005)


def live_menus(bot: FivefoldBot) -> LiveMenus:
    """The bot's hand menus that follow the game (:mod:`cogs.upkeep.live_menus`)."""
    cog: Any = bot.get_cog("TableCommands")
    assert cog is not None
    return cog.live  # type: ignore[no-any-return]


def menus_never_follow(bot: FivefoldBot) -> None:
    """Keep no hand menu up to date (as if every token had expired) and count nobody as
    watching: the turn pings as they were before menus followed the game."""
    live = live_menus(bot)
    live.lifetime = live.active_for = 0


def session_in(bot: FivefoldBot, channel: FakeChannel) -> Session:
    session = bot.tables.registry.in_channel(channel.id)
    if session is None:
        for s in bot.tables.registry.sessions():
            if s.channel_id == channel.id:
                return s
        raise AssertionError(f"no table in {channel.name}")
    return session


def settled(bot: FivefoldBot, session: Session) -> bool:
    """No click being handled, no computer turn pending, no table edit and no hand-menu
    edit in flight.

    A click's handler may go on after its answer (a table edit it held back is started
    as it returns): a test that goes by what the bot did next waits for the handler too.
    """
    cog: Any = bot.get_cog("TableCommands")
    publishing = cog is not None and (bool(cog.publisher._running)
                                      or cog.live.busy() or cog.clicks.lane.clicks > 0)
    turn = session.turn_task
    seat = session.to_act()
    computer_to_act = seat is not None and session.seats[seat].is_computer
    waiting_on_computer = turn is not None and not turn.done() and computer_to_act
    return not publishing and not waiting_on_computer and not session.lock.locked()


async def wait_settled(bot: FivefoldBot, session: Session, timeout: float = 10.0) -> None:
    await until(lambda: settled(bot, session), timeout, f"table {session.id} to settle")


def table_message(fake: FakeDiscord, session: Session) -> StoredMessage:
    assert session.table.message_id is not None
    return fake.messages[session.table.message_id]


async def open_table(fake: FakeDiscord, bot: FivefoldBot, host: FakeUser, channel: FakeChannel,
                     game: str, *, people: list[FakeUser] = (),  # type: ignore[assignment]
                     computers: int = 0, level: str = "Hard",
                     options: dict[str, Any] | None = None) -> Session:
    """``/play`` by ``host``, Join by each of ``people``, computers of ``level`` (the
    chooser's button) added, then Start."""
    result = await fake.slash(host, channel, f"play {game}", options or {})
    assert result.message is not None and not result.ephemeral, result
    session = session_in(bot, channel)
    for person in people:
        answer = await fake.click(person, table_message(fake, session), "Join")
        assert updated_the_message(answer), answer  # the lobby itself, showing them in it
    for _ in range(computers):
        await add_computer(fake, session, host, level)
    await wait_settled(bot, session)
    await fake.click(host, table_message(fake, session), "Start")
    await wait_settled(bot, session)
    return session


async def add_computer(fake: FakeDiscord, session: Session, user: FakeUser,
                       level: str = "Hard") -> InteractionResult:
    """``user`` clicks Add computer player, then ``level`` in the chooser it opens."""
    chooser = await fake.click(user, table_message(fake, session), "Add computer player")
    assert chooser.ephemeral and chooser.message is not None, chooser
    added = await fake.click(user, chooser.message, level)
    assert updated_the_menu(added), added
    return added


async def hand_to_act(fake: FakeDiscord, session: Session, people: list[FakeUser]
                      ) -> tuple[FakeUser, StoredMessage]:
    """The person of ``people`` whose turn it is, and the hand menu they just opened."""
    assert session.game is not None and session.game.to_act is not None
    player = session.seats[session.game.to_act].user_id
    person = next(u for u in people if u.id == player)
    shown = await fake.click(person, table_message(fake, session), "Show my hand")
    assert shown.message is not None and shown.ephemeral, shown
    return person, shown.message


def enabled_choices(menu: StoredMessage) -> list[str]:
    """The custom ids of a hand menu's enabled buttons that make a move."""
    return [b.custom_id for b in menu.buttons if not b.disabled and is_move(b.custom_id)]


async def take_turn(fake: FakeDiscord, session: Session, user: FakeUser,
                    rng: random.Random) -> InteractionResult:
    """``user`` opens their hand and makes a random legal move (two steps if needed)."""
    shown = await fake.click(user, table_message(fake, session), "Show my hand")
    assert shown.ephemeral and shown.message is not None, shown
    menu = shown.message
    choices = enabled_choices(menu)
    assert choices, f"{user.name} has nothing to click: {menu.text}"
    result = await fake.click(user, menu, rng.choice(choices))
    assert updated_the_menu(result), result
    if "Where does" in result.text:
        step = [c for c in enabled_choices(menu) if is_action(c)]
        assert step, result.text
        result = await fake.click(user, menu, rng.choice(step))
        assert updated_the_menu(result), result
    return result


async def play_to_the_end(fake: FakeDiscord, bot: FivefoldBot, session: Session,
                          users: dict[int, FakeUser], rng: random.Random,
                          max_turns: int = 3000) -> int:
    """Play every person's turns until the game is over; the number of turns people took."""
    turns = 0
    while True:
        await wait_settled(bot, session)
        game = session.game
        assert game is not None
        if game.over or not session.is_open:
            return turns
        seat = game.to_act
        assert seat is not None
        user_id = session.seats[seat].user_id
        assert user_id is not None, "a computer seat should have acted"
        await take_turn(fake, session, users[user_id], rng)
        turns += 1
        assert turns < max_turns, "the game does not end"


def answer_text(fake: FakeDiscord, result: InteractionResult) -> str:
    """The content the bot answered this very interaction with (not later edits)."""
    for request in fake.requests:
        if request.path.endswith("/callback") and f"/interactions/{result.id}/" in request.path:
            data = (request.body or {}).get("data") or {}
            return str(data.get("content") or "")
    raise AssertionError(f"interaction {result.id} has no callback")
