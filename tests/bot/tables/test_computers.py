"""Computer seats through the session layer: levels, the worker pool, its failures, hints.

Real :class:`TableService`, :class:`Turns`, SQLite store and worker processes. The
thinkers injected here are module-level classes (a worker unpickles them by name) that
signal through files, so a test waits on what a worker did, never on a guessed delay.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import games
from bot.__main__ import main
from bot.clock import utc_now as now
from bot.models import Seat, StoredTable, TableStatus
from bot.settings import Settings
from bot.store.sqlite.store import SqliteStore
from bot.tables.computers import ATTEMPTS, Computers
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.session import Session, Turn
from bot.thinking import Question, hard_budget, move_seed, think
from bot.workers import NotSent
from games.core.actions import Action
from games.players import Decision, decide, perspective
from games.players.hard import DEFAULT_BUDGET, budget_for
from games.players.match import decision_rng
from tests.botdriver import settings_for, until

GUILD, ALICE, BOB = 77, 1001, 1002
BUDGET = 0.01


# --- thinkers for the worker processes ------------------------------------------------


GATE_LIMIT = 15.0
"""Seconds a gated question waits at most: a broken bot that thinks on its event loop
fails the test instead of hanging it."""


class Gate:
    """Blocks the questions of one game until ``gate`` exists; each question adds its
    worker's pid to ``started``."""

    def __init__(self, game: str, started: Path, gate: Path) -> None:
        self.game, self.started, self.gate = game, started, gate

    def __call__(self, question: Question, budget: float) -> Decision:
        if question.perspective.game == self.game:
            with self.started.open("a") as signs:  # one line per question
                print(os.getpid(), file=signs)
            limit = time.monotonic() + GATE_LIMIT
            while not self.gate.exists() and time.monotonic() < limit:
                time.sleep(0.005)
        return think(question, budget)


def sign(marker: Path, text: str) -> None:
    """Write ``marker`` whole at once: whoever sees it exist reads all of ``text``
    (a plain write_text creates the file empty first, and a reader may see that)."""
    draft = marker.with_name(marker.name + ".draft")
    draft.write_text(text)
    os.replace(draft, marker)


class StallOnce:
    """The first question writes the worker's pid to ``marker`` and hangs (to be killed);
    every later one is answered as usual."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __call__(self, question: Question, budget: float) -> Decision:
        if not self.marker.exists():
            sign(self.marker, str(os.getpid()))
            time.sleep(GATE_LIMIT)  # until killed (bounded, should the test fail first)
        return think(question, budget)


class DiesInWorkers:
    """Every worker that takes a question dies at once; the bot's own process answers."""

    def __call__(self, question: Question, budget: float) -> Decision:
        if multiprocessing.parent_process() is not None:
            os._exit(1)
        return think(question, budget)


class Pid:
    """Answers as usual and leaves the worker's pid in ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __call__(self, question: Question, budget: float) -> Decision:
        sign(self.marker, str(os.getpid()))
        return think(question, budget)


# --- driving tables -------------------------------------------------------------------


@asynccontextmanager
async def manager_in(tmp_path: Path, *, computers: Computers | None = None,
                     seed: int = 5, gate: Path | None = None,
                     **overrides: Any) -> AsyncIterator[TableService]:
    """A session manager on a store in ``tmp_path``. ``gate`` is opened when the block
    ends, however it ends, so closing the pool never waits on a question held there."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = await SqliteStore.open(tmp_path / "fivefold.db")
    manager = TableService(store, settings_for(tmp_path, **overrides),
                             seed_source=lambda: seed)
    if computers is not None:
        manager.computers.pool = computers
    try:
        yield manager
    finally:
        if gate is not None:
            gate.touch()
        await manager.shutdown()
        await store.close()


async def table(manager: TableService, game: str, channel: int, *, people: int = 1,
                levels: tuple[str, ...] = ("hard", "hard"), hints: bool = False) -> Session:
    session = await manager.lobby.open(guild_id=GUILD, channel_id=channel, host_id=ALICE,
                                       host_name="alice", game=game, options={}, hints=hints)
    if people > 1:
        await manager.lobby.join(session, BOB, "bob")
    for level in levels:
        await manager.lobby.add_computer(session, ALICE, level)  # type: ignore[arg-type]
    await manager.lobby.start(session, ALICE)
    return session


def actions(session: Session) -> list[str]:
    return list((session.table.record or {}).get("actions", []))


def computer_to_act(session: Session) -> bool:
    seat = session.to_act()
    return seat is not None and session.seats[seat].is_computer


async def play(manager: TableService, session: Session, *, until_actions: int = 10**6,
               timeout: float = 20) -> None:
    """People play deterministic choices (by the number of actions so far) until the game
    ends or ``until_actions``; computer turns are waited for."""
    while True:
        await until(lambda: not computer_to_act(session), timeout, "the computers to play")
        game = session.game
        assert game is not None
        if not session.is_open or game.over or len(actions(session)) >= until_actions:
            return
        seat = game.to_act
        assert seat is not None
        user = session.seats[seat].user_id
        assert user is not None
        action = random.Random(len(actions(session))).choice(game.legal_actions(seat))
        await manager.actions.act(session, user, action, version=session.version)


async def to_a_computer_turn(manager: TableService, session: Session) -> int:
    """Play people's turns until a computer is to act; its seat."""
    while not computer_to_act(session):
        game = session.game
        assert game is not None and game.to_act is not None
        user = session.seats[game.to_act].user_id
        assert user is not None
        action = random.Random(len(actions(session))).choice(game.legal_actions(game.to_act))
        await manager.actions.act(session, user, action, version=session.version)
    seat = session.to_act()
    assert seat is not None
    return seat


def expected_move(session: Session, seat: int) -> str:
    """What the seat's computer decides here, thought in this process: the record line."""
    game = session.game
    assert game is not None
    level = session.seats[seat].computer_level
    question = Question(level, perspective(game, seat),
                        move_seed(game.seed, len(actions(session)), level, seat))
    return f"{seat} {think(question, BUDGET).action}"


def game_part(record: dict[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (record or {}).items() if k != "meta"}


# --- the generator --------------------------------------------------------------------


async def test_computer_seats_stored_before_levels_play_the_first_waves_random_moves(
    tmp_path: Path
):
    seed = 31
    old_way = games.new_game("fumblaroo", 3, {"target": 5}, seed=seed)
    while not old_way.over:  # the first wave's computer, move by move
        seat = old_way.to_act
        assert seat is not None
        rng = random.Random(f"fivefold-computer:{seed}:{len(old_way.history)}")
        old_way.apply(seat, rng.choice(old_way.legal_actions(seat)))

    store = await SqliteStore.open(tmp_path / "fivefold.db")
    stamp = now()
    start = games.new_game("fumblaroo", 3, {"target": 5}, seed=seed)
    legacy = [{"user_id": None, "name": f"Computer {i + 1}"} for i in range(3)]  # no level
    await store.create_table(StoredTable(
        id="t1", guild_id=GUILD, channel_id=2, host_id=ALICE, game="fumblaroo",
        options={"target": 5}, status=TableStatus.PLAYING, record=start.record().model_dump(),
        seats=[Seat.model_validate(seat) for seat in legacy],
        created_at=stamp, updated_at=stamp))
    await store.close()
    async with manager_in(tmp_path) as manager:
        [session] = await manager.restart.resume_all()
        assert session.seats[0].label == "Computer 1 (random)"
        manager.resume(session)
        await until(lambda: session.table.status is TableStatus.FINISHED, 20, "the game")
        assert actions(session) == old_way.record().actions


def test_levels_and_seats_draw_from_streams_of_their_own():
    firsts = {
        (level, seat): random.Random(move_seed(9, 4, level, seat)).random()  # type: ignore[arg-type]
        for level in ("random", "easy", "hard") for seat in (0, 1)
    }
    assert firsts[("random", 0)] == firsts[("random", 1)]  # the first wave's: seed and count
    assert len({v for (level, _), v in firsts.items() if level != "random"}) == 4
    assert move_seed(9, 4, "hard", 1) == move_seed(9, 4, "hard", 1)


@pytest.mark.parametrize("name", games.names())
def test_random_is_the_first_waves_choice_bit_for_bit(name):
    """The rules library's ``random`` level (``python -m games play``) draws the moves the
    bot's first-wave computer drew from the same seed."""
    cls = games.get(name)
    game = games.new_game(name, max(cls.min_players, min(4, cls.max_players)), seed=2024)
    seed = game.seed
    while not game.over:
        seat, actions = game.to_act, len(game.history)
        first_wave = random.Random(move_seed(seed, actions)).choice(game.legal_actions(seat))
        now = decide("random", perspective(game, seat), decision_rng("random", seed, actions, seat))
        assert now.action == first_wave
        game.apply(seat, now.action)


# --- the worker pool ------------------------------------------------------------------


async def test_a_killed_worker_costs_nothing_the_move_is_still_made(tmp_path: Path):
    marker = tmp_path / "stalled"
    computers = Computers(workers=1, budget=BUDGET, thinker=StallOnce(marker))
    async with manager_in(tmp_path, computers=computers) as manager:
        session = await table(manager, "fiasco", 10, levels=("hard",))
        seat = await to_a_computer_turn(manager, session)
        expected = expected_move(session, seat)
        before = len(actions(session))
        await until(marker.exists, 20, "the worker to start thinking")
        os.kill(int(marker.read_text()), signal.SIGKILL)
        await until(lambda: len(actions(session)) > before, 20, "the move, asked again")
        assert actions(session)[before] == expected
        await play(manager, session)
        assert session.table.status is TableStatus.FINISHED


async def test_a_question_never_sent_before_a_pool_broke_spends_no_attempt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pools that break before the question reaches a worker, more times than ATTEMPTS:
    # the question still goes to a worker, never to the bot's own process.
    broken = ATTEMPTS + 2
    decision = Decision(Action("pass"), "a worker's answer")

    class Pool:
        async def call(self, *_: object) -> Decision:
            nonlocal broken
            if broken:
                broken -= 1
                raise NotSent("another question's worker died")
            return decision

    class Pools:
        async def get(self) -> Pool:
            return Pool()

        def discard(self, pool: Pool) -> None:
            pass

    computers = Computers(workers=1, budget=BUDGET, thinker=DiesInWorkers())
    monkeypatch.setattr(computers._pool, "_pools", Pools())
    game = games.new_game("fiasco", 4, seed=2)
    seat = game.to_act
    question = Question("hard", perspective(game, seat), move_seed(2, 0, "hard", seat))
    assert await computers.decide(question) is decision
    assert broken == 0


async def test_workers_that_keep_dying_leave_the_answer_to_the_bots_own_process(
    caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING)
    game = games.new_game("fiasco", 3, {}, seed=2)
    seat = game.to_act
    assert seat is not None
    question = Question("hard", perspective(game, seat), move_seed(2, 0, "hard", seat))
    computers = Computers(workers=1, budget=BUDGET, thinker=DiesInWorkers())
    try:
        assert await computers.decide(question) == think(question, BUDGET)
    finally:
        await computers.close()
    died = [r for r in caplog.records if "worker died" in r.getMessage()]
    assert len(died) == ATTEMPTS
    assert any("keep dying" in r.getMessage() for r in caplog.records)


async def test_a_slow_decision_holds_up_no_other_table(tmp_path: Path):
    started, gate = tmp_path / "started", tmp_path / "gate"
    computers = Computers(workers=2, budget=BUDGET, thinker=Gate("fiasco", started, gate))
    async with manager_in(tmp_path, computers=computers, gate=gate) as manager:
        slow = await table(manager, "fiasco", 10, levels=("hard",))
        seat = await to_a_computer_turn(manager, slow)
        expected = expected_move(slow, seat)
        stuck_at = len(actions(slow))
        await until(started.exists, 20, "the slow table's computer to start thinking")

        # Meanwhile a second table with two hard computers plays a whole game.
        other = await table(manager, "fumblaroo", 11, levels=("hard", "hard"))
        await play(manager, other)
        assert other.table.status is TableStatus.FINISHED
        computer_moves = [line for line in actions(other)
                          if other.seats[int(line.split()[0])].is_computer]
        assert len(computer_moves) > 10
        # ...and the slow table was not locked while it thought, nor did it move.
        assert len(actions(slow)) == stuck_at and not slow.lock.locked()
        with pytest.raises(TableError, match="not your turn"):
            await manager.actions.act(slow, ALICE, slow.game.legal_actions(seat)[0],
                                    version=slow.version)

        gate.touch()
        await until(lambda: len(actions(slow)) > stuck_at, 20, "the slow move")
        assert actions(slow)[stuck_at] == expected


def noting_appliers(manager: TableService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tasks that commit actions from now on, in order."""
    appliers: list[str] = []
    commit = manager.actions.commit

    async def noting(*args: Any, **kwargs: Any) -> list[str]:
        task = asyncio.current_task()
        appliers.append(task.get_name() if task else "")
        return await commit(*args, **kwargs)

    monkeypatch.setattr(manager.actions, "commit", noting)
    return appliers


async def to_the_turn_of(manager: TableService, session: Session, user_id: int) -> None:
    """Play until ``user_id``'s person is to act."""
    while (seat := session.to_act()) is None or session.seats[seat].user_id != user_id:
        await play(manager, session, until_actions=len(actions(session)) + 1)


@dataclass
class GatedGame:
    """A Fiasco game of Alice, Bob and a hard computer whose thoughts wait for ``gate``."""

    manager: TableService
    session: Session
    appliers: list[str]  # the names of the tasks that commit actions, in order
    started: Path  # a line per thought begun

    def thoughts(self) -> int:
        return len(self.started.read_text().split()) if self.started.exists() else 0


@asynccontextmanager
async def gated_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                     ) -> AsyncIterator[tuple[GatedGame, Path]]:
    """A :class:`GatedGame` and its gate (a file: the thoughts go on once it exists)."""
    started, gate = tmp_path / "started", tmp_path / "gate"
    computers = Computers(workers=2, budget=BUDGET, thinker=Gate("fiasco", started, gate))
    async with manager_in(tmp_path, computers=computers, gate=gate) as manager:
        appliers = noting_appliers(manager, monkeypatch)
        session = await table(manager, "fiasco", 10, people=2, levels=("hard",))
        yield GatedGame(manager, session, appliers, started), gate


async def test_a_thought_finished_after_its_turn_changed_hands_is_dropped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
):
    async with gated_game(tmp_path, monkeypatch) as (game, gate):
        manager, session = game.manager, game.session
        await to_the_turn_of(manager, session, BOB)
        await manager.lobby.leave(session, BOB)  # on his turn: a computer plays it for him
        turn, before = session.turn(), len(actions(session))
        assert turn is not None and turn.holder is None
        # A second thought about the same turn, as a turn task that a cancellation missed
        # would be; both are thinking...
        late = session.spawn(manager.computers.play(session, turn, 0), name="late")
        await until(lambda: game.thoughts() == 2, 20, "both thoughts to be under way")
        # ...when Bob takes his seat back: the turn is his again, so neither may move.
        await manager.lobby.join(session, BOB, "bob")
        assert session.turn_task is None  # no timer here, no computer's move
        gate.touch()
        await late
        assert len(actions(session)) == before
        assert session.turn() == Turn(turn.moves, turn.seat, holder=BOB, deadline=None)
        await play(manager, session)
        assert session.table.status is TableStatus.FINISHED
        assert "late" not in " ".join(game.appliers)
        assert not [r for r in caplog.records if "computer turn failed" in r.getMessage()]


async def test_a_save_that_leaves_the_turn_alone_keeps_the_computers_thought(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
):
    async with gated_game(tmp_path, monkeypatch) as (game, gate):
        manager, session = game.manager, game.session
        seat = await to_a_computer_turn(manager, session)
        expected, before = expected_move(session, seat), len(actions(session))
        thinking = session.turn_task
        await until(lambda: game.thoughts() == 1, 20, "the computer to start thinking")
        # Saves while it thinks: the table posted anew, Bob leaving (another seat).
        await manager.set_message(session, 4242)
        await manager.lobby.leave(session, BOB)
        assert session.turn_task is thinking and thinking is not None and not thinking.done()
        firsts = len(game.appliers)
        gate.touch()
        await until(lambda: len(actions(session)) > before, 20, "the move")
        assert actions(session)[before] == expected
        assert game.appliers[firsts] == f"table-{session.id}-computer-{seat}"
        await play(manager, session)
        assert session.table.status is TableStatus.FINISHED
        assert not [r for r in caplog.records if "started it again" in r.getMessage()]


async def test_hard_computers_resumed_after_a_restart_play_as_if_it_never_stopped(
    tmp_path: Path
):
    async with manager_in(tmp_path / "reference") as manager:
        session = await table(manager, "fumblaroo", 10, levels=("hard", "hard"))
        await play(manager, session)
        assert session.table.status is TableStatus.FINISHED
        reference = game_part(session.table.record)
    half = len(reference["actions"]) // 2
    assert sum(1 for line in reference["actions"] if not line.startswith("0 ")) > 10

    async with manager_in(tmp_path / "live") as manager:
        session = await table(manager, "fumblaroo", 10, levels=("hard", "hard"))
        await play(manager, session, until_actions=half)
        table_id, before = session.id, game_part(session.table.record)
    assert before["actions"] == reference["actions"][: len(before["actions"])]

    async with manager_in(tmp_path / "live") as manager:
        [session] = await manager.restart.resume_all()
        assert session.id == table_id
        assert [s.label for s in session.seats][1:] == ["Computer 1 (hard)", "Computer 2 (hard)"]
        manager.resume(session)
        await play(manager, session)
        assert game_part(session.table.record) == reference


class Pauses:
    """The computers' clock, moved by the test, and their sleep, which only notes each
    pause (under the number of actions before the move it delays) and moves the clock on."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: dict[int, float] = {}
        self.actions: Callable[[], int] = lambda: 0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses[self.actions()] = seconds
        self.now += seconds
        await asyncio.sleep(0)


async def test_the_pause_starts_with_the_thinking_and_is_never_skipped(tmp_path: Path):
    started, gate = tmp_path / "started", tmp_path / "gate"
    delay = 1.5
    computers = Computers(workers=1, budget=BUDGET, thinker=Gate("fiasco", started, gate))
    async with manager_in(tmp_path, computers=computers, gate=gate,
                          computer_delay=delay) as manager:
        clock = Pauses()
        manager.computers.monotonic, manager.computers.sleep = clock, clock.sleep
        session = await table(manager, "fiasco", 10, levels=("hard",))
        clock.actions = lambda: len(actions(session))  # no pause is noted before the gate opens

        thoughts = 0  # questions the computer has begun to think about

        async def computer_turn(thinking: float) -> float:
            """The next computer's move, its search taking ``thinking`` seconds; the pause
            it waited after the search."""
            nonlocal thoughts
            await to_a_computer_turn(manager, session)
            before = len(actions(session))
            thoughts += 1
            await until(lambda: started.exists() and len(started.read_text().split())
                        >= thoughts, 20, "the computer to start thinking")
            assert before not in clock.pauses  # it thinks at once, before any pause
            clock.now += thinking
            gate.touch()
            await until(lambda: len(actions(session)) > before, 20, "the move")
            gate.unlink()  # the next question waits again
            return clock.pauses[before]

        # A search longer than the pause: the pause was spent thinking, none comes after.
        assert await computer_turn(thinking=2 * delay) == 0
        # A search shorter than the pause: only what is left of it is waited.
        assert await computer_turn(thinking=0.5) == delay - 0.5
        # A quick decision still waits out the whole pause: never instant.
        assert await computer_turn(thinking=0) == delay


async def test_closing_stops_the_workers_and_a_reopened_pool_thinks_again(tmp_path: Path):
    marker = tmp_path / "pid"
    computers = Computers(workers=1, budget=BUDGET, thinker=Pid(marker))
    async with manager_in(tmp_path, computers=computers) as manager:
        session = await table(manager, "fiasco", 10, levels=("hard",))
        await play(manager, session, until_actions=8)
        assert marker.exists(), "a hard computer should have moved by now"
        pid = int(marker.read_text())
        os.kill(pid, 0)  # alive
        await manager.shutdown()
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        manager.resume(session)  # as after a reload of the table cog (TableCommands)
        await play(manager, session)
        assert session.table.status is TableStatus.FINISHED
        assert int(marker.read_text()) != pid


# --- seats taken over, hints ----------------------------------------------------------


async def test_a_seat_left_in_play_and_a_timed_out_turn_go_to_a_hard_computer(tmp_path: Path):
    async with manager_in(tmp_path, turn_timeout=0.05) as manager:
        session = await table(manager, "fiasco", 10, people=2, levels=())
        await until(lambda: bool(actions(session)), 10, "the timer to play a turn")
        assert any("took too long; a hard computer played for them" in line
                   for line in session.recent)
        message = await manager.lobby.leave(session, BOB)
        assert "hard computer" in message
        seat = session.seats[1]
        assert seat.level == "hard" and seat.label == "bob (computer, hard)"
        stored = await manager.store.get_table(session.id)
        assert stored is not None and stored.seats[1].level == "hard"
        await manager.lobby.end(session, ALICE, moderator=False, name="alice")


async def test_a_hint_is_what_the_hard_computer_in_that_seat_would_play(tmp_path: Path):
    async with manager_in(tmp_path) as manager:
        plain = await table(manager, "fiasco", 10, people=2, levels=())
        to_act = plain.seats[plain.to_act() or 0].user_id
        assert to_act is not None
        with pytest.raises(TableError, match="no hints"):
            await manager.computers.ask_hint(plain, to_act)

        session = await table(manager, "fiasco", 11, people=2, levels=(), hints=True)
        seat = session.to_act()
        assert seat is not None
        user, other = session.seats[seat].user_id, session.seats[1 - seat].user_id
        assert user is not None and other is not None
        with pytest.raises(TableError, match="only for the player whose turn it is; waiting"):
            await manager.computers.ask_hint(session, other)
        with pytest.raises(TableError, match="not seated"):
            await manager.computers.ask_hint(session, 5)
        question = await manager.computers.ask_hint(session, user)
        hint = await manager.computers.think(question)
        game = session.game
        assert game is not None
        alone = Question("hard", perspective(game, seat),
                         move_seed(game.seed, len(actions(session)), "hard", seat))
        assert hint == think(alone, BUDGET)
        assert hint.action in game.legal_actions(seat)


async def test_a_game_with_hints_counts_in_stats_but_rates_nobody(tmp_path: Path):
    async with manager_in(tmp_path) as manager:
        rated = await table(manager, "fiasco", 10, people=2, levels=())
        await play(manager, rated)
        after_rated = {u: (await manager.store.stats(GUILD, u))[0] for u in (ALICE, BOB)}
        assert all(s.rating is not None for s in after_rated.values())

        hinted = await table(manager, "fiasco", 11, people=2, levels=(), hints=True)
        await play(manager, hinted)
        assert hinted.table.status is TableStatus.FINISHED
        for user in (ALICE, BOB):
            [stats] = await manager.store.stats(GUILD, user)
            assert stats.games == 2
            assert stats.rating == after_rated[user].rating


# --- settings -------------------------------------------------------------------------


def test_the_computer_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPUTER_WORKERS", "3")
    monkeypatch.setenv("COMPUTER_BUDGET", "0.5")
    computers = Computers.from_settings(Settings())
    assert computers.workers == 3 and computers.budget == 0.5
    assert hard_budget(0.5, "fiasco") == 10_000 and hard_budget(1e-9, "fiasco") == 1
    assert hard_budget(1.0, "fizzbin") == budget_for("fizzbin") > DEFAULT_BUDGET


@pytest.mark.parametrize(("name", "value"), [("COMPUTER_WORKERS", "0"),
                                             ("COMPUTER_WORKERS", "many"),
                                             ("COMPUTER_BUDGET", "0"),
                                             ("COMPUTER_BUDGET", "-1")])
def test_a_bad_computer_setting_stops_the_bot_with_its_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    name: str, value: str
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv(name, value)
    assert main() == 2
    err = capsys.readouterr().err
    assert f"bad setting {name}" in err and len(err.strip().splitlines()) == 1
