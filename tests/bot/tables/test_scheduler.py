"""The scheduler on its own (:mod:`bot.tables.scheduler`): one task per turn, a lost turn
started again, a person's turn timer on the injected clock, and a turn resumed afresh.

The scheduler is built directly, without the table service or Discord: its computers are a
stand-in that records each move it is asked for (and holds it until the test lets go), its
listener one that records each reminder, and its clock one the test moves. A test waits on
what the scheduler did (a move asked for, a reminder sent), never on a guessed delay.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import games
from bot.models import ComputerLevel, Seat, StoredTable, TableStatus
from bot.tables.scheduler import Scheduler
from bot.tables.session import Session, Turn
from bot.tables.timers import TOURNAMENT_SECONDS
from tests.botdriver import settings_for, until

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
WAIT = 10.0  # how long a condition may take on a busy machine before the test fails


class Clock:
    """The bot's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = T0
        self.reads = 0

    def __call__(self) -> dt.datetime:
        self.reads += 1
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)

    async def read_again(self) -> None:
        """Wait until the clock is read once more: a turn timer has done what the time
        it shows calls for (it reminds or plays right after reading, before it waits)."""
        reads = self.reads
        await until(lambda: self.reads > reads, WAIT, "the turn timer reads the clock")


@dataclass
class Play:
    turn: Turn
    delay: float
    timed_out: bool
    level: ComputerLevel | None


@dataclass
class Computers:
    """A stand-in for :class:`bot.tables.computers.ComputerTurns`: each move asked for is
    recorded, then held until :attr:`release` is set (or at once with ``hold=False``)."""

    hold: bool = True
    plays: list[Play] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    asked: asyncio.Event = field(default_factory=asyncio.Event)
    cancelled: int = 0

    async def play(self, session: Session, turn: Turn, delay: float, *,
                   timed_out: bool = False, level: ComputerLevel | None = None) -> None:
        self.plays.append(Play(turn, delay, timed_out, level))
        self.asked.set()
        if not self.hold:
            return
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise

    async def next_play(self) -> Play:
        """The next move asked for (waits for it)."""
        await asyncio.wait_for(self.asked.wait(), WAIT)
        self.asked.clear()
        return self.plays[-1]


@dataclass
class Listener:
    """A stand-in for the Discord layer: records who was reminded."""

    reminded: list[int] = field(default_factory=list)
    event: asyncio.Event = field(default_factory=asyncio.Event)

    def table_changed(self, session: Session) -> None:
        pass

    def turn_reminder(self, session: Session, user_id: int) -> None:
        self.reminded.append(user_id)
        self.event.set()

    async def next_reminder(self) -> int:
        await asyncio.wait_for(self.event.wait(), WAIT)
        self.event.clear()
        return self.reminded[-1]


@dataclass
class Parts:
    scheduler: Scheduler
    computers: Computers
    listener: Listener
    clock: Clock


def parts(tmp_path: Path, *, hold: bool = True, **settings: object) -> Parts:
    computers, listener, clock = Computers(hold=hold), Listener(), Clock()
    scheduler = Scheduler(settings_for(tmp_path, computer_delay=1.5, timer_check_seconds=0.01,
                                       **settings),
                          clock=clock, computers=computers,  # type: ignore[arg-type]
                          listener=lambda: listener)
    return Parts(scheduler, computers, listener, clock)


PERSON = 10


def session_with(to_act_is: str, *, turn_seconds: float | None = 0,
                 tournament: bool = False, deadline: dt.datetime | None = None) -> Session:
    """A Fiasco game in play at three seats, the seat to act a computer or a person
    (``PERSON``), the others people."""
    game = games.new_game("fiasco", 3, seed=1)
    to_act = game.to_act
    assert to_act is not None
    seats = [Seat(user_id=PERSON + 1 + n, name=f"p{n}") for n in range(3)]
    seats[to_act] = (Seat(name="computer", level=ComputerLevel.EASY) if to_act_is == "computer"
                     else Seat(user_id=PERSON, name="person"))
    table = StoredTable(id="t1", guild_id=1, channel_id=2, host_id=PERSON + 1, game="fiasco",
                        status=TableStatus.PLAYING, version=1, created_at=T0, updated_at=T0,
                        seats=seats, turn_seconds=turn_seconds, tournament=tournament,
                        deadline=deadline)
    return Session(table, game)


def move_on(session: Session) -> None:
    """The seat to act makes a move (as a save by the action path would leave it)."""
    game = session.game
    assert game is not None and game.to_act is not None
    game.apply(game.to_act, game.legal_actions(game.to_act)[0])
    session.table = session.table.model_copy(update={"version": session.version + 1})


async def ended(task: asyncio.Task[None] | None) -> None:
    assert task is not None
    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), WAIT)


# --- a computer's turn ---------------------------------------------------------------------


async def test_a_computers_turn_gets_one_task_however_often_the_table_is_saved(tmp_path):
    p = parts(tmp_path)
    session = session_with("computer")
    assert p.scheduler.schedule(session) is False
    play = await p.computers.next_play()
    task = session.turn_task
    assert task is not None and not task.done()
    assert play.turn == session.turn() and play.turn.holder is None
    assert play.delay == 1.5 and play.timed_out is False  # the computer's own pause

    for _ in range(3):  # saves that leave the game where it was (a /table, a new message)
        session.table = session.table.model_copy(update={"version": session.version + 1})
        assert p.scheduler.schedule(session) is False
    assert session.tasks == {task}  # no second task for the same turn
    assert session.turn_task is task and not task.done()
    assert len(p.computers.plays) == 1
    assert p.computers.cancelled == 0  # the pause goes on where it was
    p.computers.release.set()
    await ended(task)


async def test_a_turn_that_moved_on_cancels_the_old_task_and_starts_the_next(tmp_path):
    p = parts(tmp_path)
    session = session_with("computer")
    p.scheduler.schedule(session)
    first = await p.computers.next_play()
    old = session.turn_task
    move_on(session)  # the game moved on meanwhile (a move saved by the action path)
    # The next seat is a person at an untimed table: nothing to run for them.
    assert p.scheduler.schedule(session) is False
    await ended(old)
    assert old is not None and old.cancelled() and p.computers.cancelled == 1
    assert session.turn_task is None and session.scheduled is None
    assert session.turn() != first.turn


async def test_the_turns_own_task_scheduling_the_next_turn_is_not_cancelled(tmp_path):
    """The action path schedules the next turn from inside the move's own task."""
    p = parts(tmp_path, hold=False)
    session = session_with("computer", turn_seconds=60)
    finished: list[Turn] = []
    scheduler = p.scheduler

    async def play(session: Session, turn: Turn, delay: float, **_: object) -> None:
        move_on(session)
        assert scheduler.schedule(session) is False  # the next turn: a timed person's
        await asyncio.sleep(0)  # a cancelled task would stop here
        finished.append(turn)

    p.computers.play = play  # type: ignore[method-assign]
    scheduler.schedule(session)
    own = session.turn_task
    await ended(own)
    assert own is not None and not own.cancelled() and len(finished) == 1
    nxt = session.turn_task
    assert nxt is not None and nxt is not own and not nxt.done()  # the person's timer
    assert session.scheduled == session.turn() and session.scheduled.holder is not None
    nxt.cancel()
    await ended(nxt)


async def test_a_turn_whose_task_ended_without_a_move_is_started_again_and_logged_once(
    tmp_path, caplog
):
    p = parts(tmp_path, hold=False)  # each task ends at once, without moving the game
    session = session_with("computer")
    assert p.scheduler.schedule(session) is False
    await ended(session.turn_task)
    turn = session.turn()

    with caplog.at_level(logging.WARNING, logger="bot.tables.scheduler"):
        assert p.scheduler.schedule(session) is True  # lost: started again
        await ended(session.turn_task)
        assert p.scheduler.schedule(session) is True  # lost again, the same turn
        await ended(session.turn_task)
    assert [play.turn for play in p.computers.plays] == [turn] * 3
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.tables.scheduler"]
    assert lines == ["table t1: the turn of computer had no computer move pending though "
                     "the game had not moved on; started it again"]
    assert session.lost == turn


async def test_a_game_not_in_play_needs_no_task(tmp_path):
    p = parts(tmp_path)
    session = session_with("computer")
    session.table = session.table.model_copy(update={"status": TableStatus.FINISHED})
    assert p.scheduler.needs(session) is None
    assert p.scheduler.schedule(session) is False
    assert session.turn_task is None and p.computers.plays == []


# --- a person's turn timer -----------------------------------------------------------------


async def test_an_untimed_persons_turn_needs_no_task(tmp_path):
    p = parts(tmp_path)  # TURN_TIMEOUT 0, the table stored before timers: no timer
    session = session_with("person", turn_seconds=None)
    assert p.scheduler.needs(session) is None
    assert p.scheduler.schedule(session) is False
    assert session.turn_task is None and p.computers.plays == []


async def test_a_persons_time_is_up_on_the_injected_clock_after_a_reminder_at_half_time(
    tmp_path
):
    p = parts(tmp_path)
    session = session_with("person", turn_seconds=60, deadline=T0 + dt.timedelta(seconds=60))
    p.scheduler.schedule(session)
    task = session.turn_task
    assert task is not None

    p.clock.advance(31)  # past half time, well before the deadline
    assert await p.listener.next_reminder() == PERSON
    # The task has looked at the clock since, and found the deadline not reached.
    assert p.computers.plays == [] and not task.done()
    p.clock.advance(29)  # the deadline, to the second
    play = await p.computers.next_play()
    assert play.timed_out is True and play.delay == 0
    assert play.level is ComputerLevel.HARD  # a person's turn is played well
    assert play.turn == session.turn() and play.turn.holder == PERSON
    assert p.listener.reminded == [PERSON]  # reminded once
    p.computers.release.set()
    await ended(task)


async def test_a_save_during_a_persons_turn_keeps_their_time_running(tmp_path):
    """A table without a saved deadline times the turn from when its task started; a later
    save of the same turn must not start the time again."""
    p = parts(tmp_path)
    session = session_with("person", turn_seconds=60)
    p.scheduler.schedule(session)
    task = session.turn_task
    p.clock.advance(40)
    assert await p.listener.next_reminder() == PERSON
    session.table = session.table.model_copy(update={"version": session.version + 1})
    assert p.scheduler.schedule(session) is False
    assert session.turn_task is task
    p.clock.advance(20)  # 60 s since the turn began: had the save restarted it, 20 s to go
    play = await p.computers.next_play()
    assert play.timed_out is True
    p.computers.release.set()
    await ended(task)


async def test_the_tournament_rule_plays_a_random_card_without_a_reminder(tmp_path):
    p = parts(tmp_path)
    session = session_with("person", tournament=True)
    p.scheduler.schedule(session)
    p.clock.advance(TOURNAMENT_SECONDS * 0.6)  # past half time
    await p.clock.read_again()
    assert p.listener.reminded == [] and p.computers.plays == []
    p.clock.advance(TOURNAMENT_SECONDS * 0.4)
    play = await p.computers.next_play()
    assert play.timed_out is True and play.level is ComputerLevel.RANDOM
    assert p.listener.reminded == []
    p.computers.release.set()
    await ended(session.turn_task)


async def test_no_reminder_for_a_turn_that_has_moved_on(tmp_path):
    p = parts(tmp_path)
    session = session_with("person", turn_seconds=60, deadline=T0 + dt.timedelta(seconds=60))
    p.scheduler.schedule(session)
    task = session.turn_task
    assert task is not None
    # The person moved, but the save's schedule() has not run yet: the old task sees half
    # time for a turn that is no longer under way, and must not remind them of it.
    turn_before = session.turn()
    move_on(session)
    assert session.turn() != turn_before
    p.clock.advance(31)  # half time
    await p.clock.read_again()
    assert p.listener.reminded == []
    p.clock.advance(29)
    play = await p.computers.next_play()  # the old task still asks (the move path refuses it)
    assert play.turn == turn_before
    assert p.listener.reminded == []
    p.computers.release.set()
    await ended(task)


# --- after a restart -----------------------------------------------------------------------


async def test_a_deadline_passed_while_the_bot_was_down_fires_at_once_on_resume(tmp_path):
    p = parts(tmp_path)
    session = session_with("person", turn_seconds=60, deadline=T0 - dt.timedelta(seconds=5))
    p.scheduler.resume(session)
    play = await p.computers.next_play()  # the clock never moved
    assert play.timed_out is True and play.turn.deadline == T0 - dt.timedelta(seconds=5)
    assert p.listener.reminded == []
    p.computers.release.set()
    await ended(session.turn_task)


@pytest.mark.parametrize("seat", ["computer", "person"])
async def test_resume_starts_the_turn_afresh_without_calling_it_lost(tmp_path, caplog, seat):
    p = parts(tmp_path)
    session = session_with(seat, turn_seconds=60, deadline=T0 + dt.timedelta(seconds=60))
    p.scheduler.schedule(session)
    old = session.turn_task
    if seat == "computer":
        await p.computers.next_play()  # the old task is thinking
    with caplog.at_level(logging.WARNING, logger="bot.tables.scheduler"):
        p.scheduler.resume(session)  # a reload: the same turn, a new task
    new = session.turn_task
    assert new is not None and new is not old
    await ended(old)
    assert old is not None and old.cancelled()
    assert session.scheduled == session.turn() and session.lost is None
    assert not [r for r in caplog.records if r.name == "bot.tables.scheduler"]
    if seat == "computer":
        await p.computers.next_play()
        assert len(p.computers.plays) == 2  # the old task's move, then the new one's
    else:
        p.clock.advance(60)
        play = await p.computers.next_play()
        assert play.timed_out is True
    p.computers.release.set()
    await ended(new)
