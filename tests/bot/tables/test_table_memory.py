"""A table's memory stays small (issues 13 and 17): compact histories, finished tables let go.

A game's history is an :class:`~games.core.actionlog.ActionLog` (two bytes an action,
each distinct text once per process); a finished or cancelled table leaves memory and its
old buttons are answered from the store. The byte figures are in ``docs/performance.md``
(``python -m bench.bot --memory-only``); these tests hold the deterministic measures.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import pickle
import random
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import games
from bench.bot import LONGEST
from bot.models import TableStatus
from bot.store.sqlite.store import SqliteStore
from bot.tables.service import TableService
from bot.tables.session import Session
from games.core import actionlog
from games.core.actionlog import ActionLog
from games.core.deallog import DealLog
from games.core.game import Game
from games.core.records import Record
from games.core.replay import load, split_action
from tests.botdriver import (
    answer_text,
    open_table,
    play_to_the_end,
    random_move,
    running_bot,
    settings_for,
    table_message,
)
from tests.fakediscord.fixtures import FakeWorld


def played(game: str, players: int, seed: int, options: dict[str, object] | None = None
           ) -> Game[Any]:
    """A whole game of random legal moves."""
    cls = games.get(game)
    g = cls(players, cls.options_model.model_validate(options or {}), seed=seed)
    rng = random.Random(seed)
    while not g.over:
        assert g.to_act is not None
        g.apply(g.to_act, rng.choice(g.legal_actions(g.to_act)))
    return g


def test_a_history_takes_two_bytes_an_action_however_long_the_game() -> None:
    first = played("fizzbin", 3, 1)
    texts_after_one = actionlog.distinct_texts()
    second = played("fizzbin", 3, 2)
    for g in (first, second):
        assert isinstance(g.history, ActionLog)
        # Two bytes a code while the process has seen few enough texts (four after).
        width = 2 if actionlog.distinct_texts() <= 2 ** 16 else 4
        assert g.history.nbytes == width * len(g.history)
    # A second long game of the same game adds only the texts the first never used:
    # the shared texts are bounded by the actions a game can have, not by its length.
    assert len(second.history) > 500
    new_texts = actionlog.distinct_texts() - texts_after_one
    assert new_texts <= len(set(second.history) - set(first.history))


def test_a_history_widens_when_the_process_outgrows_two_byte_codes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = ActionLog(["0 play S4", "1 play S9"])
    assert log.nbytes == 4
    monkeypatch.setattr(actionlog, "_SHORT_MAX", actionlog.distinct_texts() - 1)
    text = f"0 never seen before {actionlog.distinct_texts()}"
    log.append(text)  # its code no longer fits in two bytes
    assert log.nbytes == 12 and list(log) == ["0 play S4", "1 play S9", text]
    copy = log.copy()
    copy.append("1 play S9")
    assert copy.nbytes == 16 and copy[:-1] == list(log)
    assert ActionLog(list(log)).nbytes == 12  # made from texts past the limit: wide at once


def test_a_games_deals_are_kept_as_json_text_and_read_as_fresh_dicts() -> None:
    g = played("fumblaroo", 3, 5, {"target": 25})
    deals = g.deals_played
    assert isinstance(deals, DealLog) and len(deals) > 5
    as_lists = deals.to_json()
    assert deals == as_lists and g.record().deals == as_lists
    mine = deals[0]
    mine["hands"][0].append("XX")  # a reader's copy: the game is untouched
    assert deals[0] == as_lists[0] != mine
    clone = g.clone()
    clone.deals_played.append({"hands": []})
    assert len(g.deals_played) == len(as_lists) == len(clone.deals_played) - 1
    assert pickle.loads(pickle.dumps(deals)) == deals


def test_a_clone_has_its_own_history() -> None:
    g = played("fiasco", 3, 4)
    copy = g.history.copy()
    copy.append("0 play S4")
    assert len(copy) == len(g.history) + 1 and copy[:-1] == list(g.history)
    assert pickle.loads(pickle.dumps(g.history)) == g.history


def test_records_round_trip_unchanged_through_json_and_replay() -> None:
    for game in games.names():
        cls = games.get(game)
        g = played(game, max(cls.min_players, min(3, cls.max_players)), 9)
        record = g.record().model_dump()
        assert type(record["actions"]) is list and all(type(a) is str for a in record["actions"])
        again = json.loads(json.dumps(record))
        assert again == record
        replayed = load(Record.from_data(again))
        for line in again["actions"]:
            player, text = split_action(line, replayed.players)
            replayed.apply(player, text)
        assert replayed.record().model_dump() == record


async def test_a_finished_table_leaves_memory_and_its_old_buttons_still_answer(
    fake_world: FakeWorld, tmp_path: Path
) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        hand_id = table_message(fake, session).button("Show my hand").custom_id
        users = {u.id: u for u in (world.alice, world.bob)}
        await play_to_the_end(fake, bot, session, users, random.Random(3))
        assert session.table.status is TableStatus.FINISHED
        assert session.id not in {s.id for s in bot.tables.registry.sessions()}  # let go
        final = table_message(fake, session)
        # Details: the final position and the whole log, replayed from the stored record.
        details = await fake.click(world.carol, final, "Details")
        text = answer_text(fake, details)
        assert details.ephemeral and text.startswith("**Fiasco**") and "**Log**" in text, text
        assert all(f"**{name}**" in text for name in session.names())
        rules = await fake.click(world.carol, final, "Rules")
        assert rules.ephemeral and "Fiasco" in answer_text(fake, rules)
        shown = await fake.click(world.alice, final, hand_id, force=True)
        assert shown.ephemeral and answer_text(fake, shown) == "This game is over.", shown
        # The result message's Record still gives the record, from the store.
        result = next(m for m in fake.messages.values() if any(
            b.label == "Record" for b in m.buttons))
        got = await fake.click(world.bob, result, "Record")
        assert got.ephemeral and got.message is not None and got.message.attachments


@pytest.mark.parametrize("game", games.names())
async def test_a_tables_record_follows_its_game_sharing_its_action_log(game: str,
                                                                       tmp_path: Path) -> None:
    """At every action the stored table's record is the game's record, its actions the
    game's own log (not a list of their texts), and the store has the same."""
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        manager = TableService(store, settings_for(tmp_path),
                               seed_source=itertools.count(3).__next__)
        cls = games.get(game)
        players = max(cls.min_players, min(3, cls.max_players))
        session = await manager.lobby.open(guild_id=1, channel_id=10, host_id=1, host_name="p1",
                                           game=game, options={})
        for user in range(2, players + 1):
            await manager.lobby.join(session, user, f"p{user}")
        await manager.lobby.start(session, 1)
        rng = random.Random(3)
        for _ in range(120):
            running = session.game
            if not session.is_open or running is None or running.to_act is None:
                break
            user = session.seats[running.to_act].user_id
            assert user is not None
            action = rng.choice(running.legal_actions(running.to_act))
            await manager.actions.act(session, user, action, version=session.version)
            record = session.table.record
            assert record is not None and session.game is not None
            if session.is_open:  # a finished game's result has its own lists, as JSON has
                assert record["actions"] is session.game.history
                assert record["deals"] is session.game.deals_played
            else:
                assert type(record["actions"]) is list and type(record["deals"]) is list
            assert {k: v for k, v in record.items() if k != "meta"} == \
                session.game.record().model_dump()
        stored = await store.get_table(session.id)
        assert stored is not None and stored.record is not None
        assert stored.record["actions"] == list(session.game.history)
        assert stored.record["deals"] == session.game.record().model_dump()["deals"]
    finally:
        await store.close()


# ----------------------------------------------------------------- a table's own bytes

LARGEST = 50 * 1024
"""What a table may hold at any point of its game (issue 25)."""

_NOT_A_TABLES = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
                 types.MethodType, types.FrameType, types.CoroutineType, types.CodeType,
                 asyncio.Future, asyncio.Handle, asyncio.AbstractEventLoop)


def existing_objects() -> tuple[list[object], set[int]]:
    """Every object the process holds now (the tracked ones and what they refer to),
    and their ids: what a table opened after this shares with the rest of the process
    (the cards, the rules' caches, the action texts seen so far). The list keeps them
    alive, so that no id is reused while the set is in use.

    Modules' own referents are left out: on CPython 3.12 (3.12.1 here) those of
    ``_asyncio`` include the freed future iterators it keeps for reuse, and holding them
    frees them twice (python/cpython#122695: the process hangs or crashes later). A
    module's names are in its ``__dict__``, which is read like any other object."""
    gc.collect()
    kept = gc.get_objects()
    kept += [ref for obj in list(kept) if not isinstance(obj, types.ModuleType)
             for ref in gc.get_referents(obj)]
    return kept, {id(obj) for obj in kept}


def own_bytes(root: object, shared: set[int]) -> int:
    """The bytes of every object reachable from ``root`` that is not in ``shared`` (nor
    code, a module, a task or the event loop): what the table holds by itself."""
    seen: set[int] = set()
    stack, total = [root], 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in shared or isinstance(obj, _NOT_A_TABLES):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


@pytest.mark.parametrize("game", sorted(LONGEST))
async def test_a_table_at_its_games_largest_options_stays_under_50_kb(game: str,
                                                                      tmp_path: Path) -> None:
    """The most players and the options that make each game longest (``bench.bot``'s
    ``LONGEST``), played to the end through the table service: what the session holds by
    itself (its game, stored table, record, deals, history, recent lines) is under 50 KB
    at every point. One game of the same set-up is played first, as a bot that has been
    up for a while has (the rules' caches and the action texts are the process's)."""
    players, options = LONGEST[game]
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    try:
        manager = TableService(store, settings_for(tmp_path),
                               seed_source=itertools.count(7).__next__)
        rng = random.Random(7)

        async def through(channel: int, measure: Callable[[Session], None]) -> int:
            session = await manager.lobby.open(guild_id=1, channel_id=channel, host_id=1,
                                               host_name="p1", game=game, options=options)
            for user in range(2, players + 1):
                await manager.lobby.join(session, user, f"p{user}")
            await manager.lobby.start(session, 1)
            moves = 0
            while session.is_open:
                if moves % 50 == 0:
                    measure(session)
                await random_move(manager, session, rng)
                moves += 1
            return moves

        await through(10, lambda session: None)
        kept, shared = existing_objects()
        sizes: list[int] = []
        moves = await through(11, lambda session: sizes.append(own_bytes(session, shared)))
        del kept
    finally:
        await store.close()
    assert moves > 200 and len(sizes) > 4
    assert sizes[0] > 4 * 1024  # the measure sees the table: its deal, seats and record
    assert max(sizes) < LARGEST, (game, [round(s / 1024, 1) for s in sizes])
