"""Today's deal (``/daily``): the same cards for everyone on every server, one try each.

A day's deal of a game comes from the day (UTC) and the game alone (:func:`daily_seed`),
with the game's default options (Fizzbin's ``time`` fixed to ``day``, since the clock would
differ between servers) and a fixed number of seats (:func:`daily_seats`): the person in
the first, hard computers in the others. A computer's move depends only on the table's
seed, the moves so far, its level and its seat (:mod:`bot.tables.computers`), so every
person meets the same deal and the same computers, which answer only their own moves.

One try per person, game and day, wherever they play it: the store claims it with the
table (:class:`bot.store.api.DailyTaken` for a second), and the game's result gives it
its score and place. A server's board of a day ranks its people's finished tries by score
(:func:`board`); streaks count the days in a row a person finished a try of that game.
Daily games are not rated: the board is their leaderboard.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

import games
from bot.models import TAKEOVER_LEVEL, DailyTry, FixedDeal, Seat

SEATS: dict[str, int] = {"fizzbin": 4, "fazes": 4}
"""Seats of a game's daily deal where three is not the best count (Fizzbin is best at four;
Fazes' fazes of tricks want a fourth)."""
OPTIONS: dict[str, dict[str, Any]] = {"fizzbin": {"time": "day"}}
"""Options of a game's daily deal beyond its defaults: what would differ between servers."""
ALREADY = "you have played today's {title} deal already: one try a day. {board}"
BOARD_HINT = "/daily board shows how the others did."


def daily_seats(game: str) -> int:
    """How many seats the daily deal of ``game`` has (three, within its player range)."""
    cls = games.get(game)
    return min(max(SEATS.get(game, 3), cls.min_players), cls.max_players)


def daily_options(game: str) -> dict[str, Any]:
    """The options the daily deal of ``game`` is played with."""
    return dict(OPTIONS.get(game, {}))


def day_of(moment: dt.datetime) -> str:
    """The day (``YYYY-MM-DD``, UTC) ``moment`` falls on: whose deal is today's."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).date().isoformat()


def day_before(day: str) -> str:
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def next_deal_at(day: str) -> dt.datetime:
    """When the deal after ``day``'s comes: the next midnight, UTC."""
    return dt.datetime.combine(dt.date.fromisoformat(day) + dt.timedelta(days=1), dt.time(),
                               tzinfo=dt.UTC)


def daily_seed(day: str, game: str) -> int:
    """The seed of ``game``'s deal of ``day``: the same in every process, every version of
    Python, every server (a hash, never ``hash()``, which is salted per process)."""
    digest = hashlib.sha256(f"fivefold daily deal {day} {game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits, as the bot's other seeds


def daily_deal(day: str, game: str) -> FixedDeal:
    return FixedDeal(seed=daily_seed(day, game), players=daily_seats(game))


def daily_table_seats(game: str, user_id: int, name: str) -> list[Seat]:
    """The person in the first seat, hard computers in the others."""
    return [Seat(user_id=user_id, name=name)] + [
        Seat(name=f"Computer {n}", level=TAKEOVER_LEVEL) for n in range(1, daily_seats(game))]


def streak(days: list[str], today: str) -> int:
    """Days in a row with a finished try, ending today or yesterday (``days`` latest first)."""
    count = 0
    expected = today if days and days[0] == today else day_before(today)
    for day in days:
        if day != expected:
            break
        count += 1
        expected = day_before(expected)
    return count


@dataclass(frozen=True)
class BoardLine:
    """One person on a day's board: their place on it (None while not finished)."""

    user_id: int
    place: int | None
    score: int | None
    table_place: int | None  # at their table, the computers included
    streak: int


@dataclass(frozen=True)
class DailyBoard:
    """A server's board of a game's deal of a day, and the asker's own try (if any)."""

    game: str
    day: str
    lines: tuple[BoardLine, ...]
    mine: DailyTry | None

    @property
    def played(self) -> int:
        return len(self.lines)

    @property
    def finished(self) -> int:
        return sum(1 for line in self.lines if line.place is not None)


def board(tries: list[DailyTry], *, lower_is_better: bool,
          streaks: dict[int, int]) -> tuple[BoardLine, ...]:
    """The finished tries by score (best first; equal scores share a place, the earlier
    finish listed first), then the others in the order they started."""
    done = sorted((t for t in tries if t.score is not None and t.finished_at is not None),
                  key=lambda t: (t.score if lower_is_better else -(t.score or 0),
                                 t.finished_at))
    lines = []
    place = 0
    for index, held in enumerate(done):
        if index == 0 or held.score != done[index - 1].score:
            place = index + 1
        lines.append(BoardLine(held.user_id, place, held.score, held.place,
                               streaks.get(held.user_id, 0)))
    lines += [BoardLine(t.user_id, None, None, None, streaks.get(t.user_id, 0))
              for t in tries if t.score is None]
    return tuple(lines)


__all__ = ["ALREADY", "BOARD_HINT", "BoardLine", "DailyBoard", "board", "daily_deal",
           "daily_options", "daily_seats", "daily_seed", "daily_table_seats", "day_before",
           "day_of", "next_deal_at", "streak"]
