"""Two bot processes on one database, at the session layer: a click, a lobby change or the
last move made from a stale copy never overwrites the newer one; the stale process reloads
the table from the store and says so, and a channel keeps one open table.

Each "process" is a :class:`TableService` with a store of its own on one database (SQLite
and PostgreSQL, as in the store contract suite).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.models import TableStatus
from bot.store.api import Store
from bot.tables.errors import TableError, TableMoved
from bot.tables.service import TableService
from bot.tables.session import Session
from tests.botdriver import settings_for
from tests.stores import Backend

PEOPLE = [(3, "Ana"), (4, "Ben"), (5, "Cy")]


@dataclass
class Process:
    store: Store
    manager: TableService

    async def resumed(self, table_id: str) -> Session:
        """The table as this process loads it from the store (as after a restart)."""
        await self.manager.restart.resume_all()
        return self.manager.registry.get(table_id)


@pytest.fixture
async def two(backend: Backend, tmp_path: Path) -> AsyncIterator[tuple[Process, Process]]:
    processes = []
    for _ in range(2):
        store = await backend.open()
        processes.append(Process(store, TableService(store, settings_for(tmp_path))))
    yield processes[0], processes[1]
    for process in processes:
        await process.manager.shutdown()
        await process.store.close()


async def lobby(process: Process, channel: int = 50) -> Session:
    manager = process.manager
    session = await manager.lobby.open(guild_id=1, channel_id=channel, host_id=3, host_name="Ana",
                                       game="fumblaroo", options={})
    return session


async def started(process: Process) -> Session:
    """A Fumblaroo game of three people (no computer seat: nothing plays by itself)."""
    session = await lobby(process)
    for user, name in PEOPLE[1:]:
        await process.manager.lobby.join(session, user, name)
    await process.manager.lobby.start(session, 3)
    return session


async def move(process: Process, session: Session) -> None:
    """The seat to act plays its first legal action, through the click path."""
    game = session.game
    assert game is not None and game.to_act is not None
    user = session.seats[game.to_act].user_id
    assert user is not None
    await process.manager.actions.act(session, user, game.legal_actions(game.to_act)[0],
                                    version=session.version)


async def test_a_click_on_a_stale_copy_reloads_it_and_overwrites_nothing(two) -> None:
    a, b = two
    here = await started(a)
    there = await b.resumed(here.id)
    await move(a, here)  # a moves first; b's copy is now one version behind
    before = there.version
    with pytest.raises(TableMoved, match="moved on elsewhere"):
        await move(b, there)
    assert there.version == here.version == before + 1  # reloaded, not advanced
    assert there.game is not None and here.game is not None
    assert there.game.record() == here.game.record()
    stored = await a.store.get_table(here.id)
    assert stored is not None and stored.record == here.table.record
    # Now b is up to date and a is the stale one: the same holds the other way round.
    await move(b, there)
    with pytest.raises(TableMoved):
        await move(a, here)
    assert here.game is not None and there.game is not None
    assert here.game.record() == there.game.record()
    assert here.version == there.version


async def test_a_lobby_change_on_a_stale_copy_reloads_it(two) -> None:
    a, b = two
    here = await lobby(a)
    there = await b.resumed(here.id)
    await a.manager.lobby.join(here, 4, "Ben")
    with pytest.raises(TableMoved):
        await b.manager.lobby.join(there, 5, "Cy")
    assert [s.name for s in there.seats] == ["Ana", "Ben"]  # Ben's seat kept, Cy's not taken
    await b.manager.lobby.join(there, 5, "Cy")  # from the reloaded copy it goes through
    stored = await a.store.get_table(here.id)
    assert stored is not None and [s.name for s in stored.seats] == ["Ana", "Ben", "Cy"]


async def test_a_second_table_in_a_channel_is_refused_whichever_process_opens_it(two) -> None:
    a, b = two
    await lobby(a, channel=60)
    with pytest.raises(TableError, match="there is already a table here"):
        await lobby(b, channel=60)  # b never saw a's table: the schema refuses it
    assert len(await b.store.open_tables()) == 1
    assert b.manager.registry.in_channel(60) is None


async def test_the_last_move_made_twice_writes_one_result(two) -> None:
    """Both processes hold the table one move from the end; both make that move."""
    a, b = two
    here = await started(a)
    rehearsal = here.game.clone() if here.game is not None else None
    assert rehearsal is not None
    left = 0
    while not rehearsal.over:
        seat = rehearsal.to_act
        assert seat is not None
        rehearsal.apply(seat, rehearsal.legal_actions(seat)[0])
        left += 1
    for _ in range(left - 1):
        await move(a, here)
    there = await b.resumed(here.id)
    await move(a, here)
    assert here.status is TableStatus.FINISHED
    with pytest.raises(TableMoved):
        await move(b, there)
    assert there.status is TableStatus.FINISHED and not there.is_open  # reloaded, let go
    assert b.manager.registry.in_channel(here.channel_id) is None
    [ana] = await a.store.stats(1, 3)
    assert ana.games == 1
    stored = await b.store.get_table(here.id)
    assert stored is not None and here.game is not None
    assert stored.record is not None
    assert stored.record["actions"] == here.game.record().actions
