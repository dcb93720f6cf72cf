"""How a table is laid out, and everything about it both backends share.

A durable action must cost the same at action 1,000 as at action 1, so the
record's actions are not rewritten on every change. ``tables.doc`` holds the
:class:`~bot.models.StoredTable` with its record's ``"actions"`` replaced by
their count (the *head*); ``table_actions`` holds the actions, one row each
(JSON text, ``n`` = 0, 1, ...). Every write says what changed and the store
writes exactly that: a new table is its head and the actions it holds
(:func:`split_record`), an action is the new head and one row (:func:`appended`),
any other change is the head alone (:func:`head_doc`). Loading puts the list
back (:func:`rebuild`).

A finished game with a result is stored once: its record is
``results.record``, the table's head keeps ``"record": null`` and its action
rows are deleted in the transaction that writes the result.

A change compares versions: a table of version ``n`` replaces only the stored
version ``n - 1``, and its head's count of actions must follow the stored one.
When the guarded UPDATE matches no row, :func:`refusal` says why from what is
stored (:class:`~bot.store.api.StaleTable`, or ValueError for a caller whose
record does not follow the stored actions). The partial unique index
``tables_open_channel`` refuses a second open table in one channel
(:class:`~bot.store.api.ChannelTaken`).

Pure: no database driver. The SQLite store (:mod:`bot.store.sqlite.store`) and the
PostgreSQL store (:mod:`bot.store.postgres.store`) run the SQL; what goes into it and
what comes out of it is made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import orjson

from bot.models import (
    SERVER_CHOICES,
    DailyTry,
    GameResult,
    GameStats,
    LeaderRow,
    RecentGame,
    SeasonStanding,
    StoredTable,
    TableStatus,
)
from bot.store.api import StaleTable
from bot.store.ratings import display_rating
from games.core.actionlog import ActionLog
from games.core.deallog import DealLog

NO_GUILD = 0
"""The ``guild_id`` stored in key columns for "no guild" (Discord never issues snowflake 0),
so the UNIQUE and PRIMARY KEY constraints hold."""

OPEN_STATUSES = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)
CLOSED_STATUSES = (TableStatus.FINISHED.value, TableStatus.CANCELLED.value)

SETTINGS = ("timezone", "pictures", "timer")
"""The columns of ``guild_settings`` a server sets, one at a time."""


class CorruptTableError(RuntimeError):
    """A stored table's head and action rows disagree; it cannot be rebuilt as it is."""


def guild_key(guild_id: int | None) -> int:
    """The value stored in key columns for ``guild_id`` (``None`` becomes :data:`NO_GUILD`)."""
    return NO_GUILD if guild_id is None else guild_id


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime; a naive one is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    """The fixed-width UTC ISO string stored for ``moment`` (sorts correctly as text)."""
    return utc(moment).isoformat(timespec="microseconds")


def dump(value: Any) -> str:
    """Compact JSON, as every document and action is stored (the same text as the standard
    library's compact, non-ASCII output, made by orjson in a few times less CPU)."""
    return orjson.dumps(value).decode()


def check_timer(choice: str | None) -> None:
    """ValueError unless ``choice`` is a server timer (or None, the bot's default)."""
    if choice is not None and choice not in SERVER_CHOICES:
        raise ValueError(f"no server timer {choice!r} (one of {', '.join(SERVER_CHOICES)})")


def setting_upsert(column: str, mark: list[str]) -> str:
    """The statement that sets one column of a server's settings row, on either backend.

    ``mark`` is the three placeholders (guild, value, time), ``?`` or ``$1``...;
    ``column`` is one of :data:`SETTINGS`, never input.
    """
    assert column in SETTINGS
    return (f"INSERT INTO guild_settings (guild_id, {column}, updated_at) "
            f"VALUES ({', '.join(mark)}) ON CONFLICT (guild_id) DO UPDATE SET "
            f"{column} = excluded.{column}, updated_at = excluded.updated_at")


def result_record(result: GameResult, table: StoredTable | None) -> str:
    """A finished game's record as stored once with its result (``Store.record_result``).

    ValueError when ``table``, saved in the same transaction, holds another record.
    """
    if table is not None and table.record != result.record:
        raise ValueError(f"table {table.id}'s record is not the result's record")
    return dump(result.model_dump(mode="json")["record"])


def _actions(table: StoredTable) -> Sequence[Any] | None:
    """The record's actions (a list, or a game's ActionLog in memory), or None when there
    is no record or no such sequence."""
    actions = table.record.get("actions") if table.record is not None else None
    return actions if isinstance(actions, list | ActionLog) else None


def head_doc(table: StoredTable, *, record_in_results: bool = False) -> tuple[str, int]:
    """The table's head document (its record's actions replaced by their count) and that
    count (0 without a list of actions).

    With ``record_in_results`` the head keeps no record: it is the result's.
    """
    record = None if record_in_results else table.record
    actions = None if record is None else _actions(table)
    count = 0 if actions is None else len(actions)
    if record is not None and actions is not None:
        record = {**record, "actions": count}
    deals = None if record is None else record.get("deals")
    times = {"created_at": utc(table.created_at), "updated_at": utc(table.updated_at)}
    if record is None or not isinstance(deals, DealLog):
        return table.model_copy(update={**times, "record": record}).model_dump_json(), count
    # A game's deals are kept as their JSON texts (DealLog): written as they are, not
    # built into dicts and serialised again at every action.
    doc = table.model_copy(update=times).model_dump(mode="json", exclude={"record"})
    doc["record"] = {**record, "deals": deals.fragments()}
    return dump(doc), count


def split_record(table: StoredTable) -> tuple[str, list[str] | None]:
    """A new table as stored: its head document and its actions as JSON texts, one row
    each (None when its record has no list of actions)."""
    doc, _ = head_doc(table)
    actions = _actions(table)
    return doc, None if actions is None else [dump(action) for action in actions]


def appended(table: StoredTable, action: str) -> tuple[str, int, str]:
    """What :meth:`~bot.store.api.TablesInPlay.append_action` writes: the head document,
    the action's place ``n`` (the count stored before it) and its JSON text.

    ValueError unless the table is in play and its record ends with ``action``.
    """
    actions = _actions(table)
    if table.status is not TableStatus.PLAYING:
        raise ValueError(f"table {table.id} is {table.status.value}: no action is appended")
    if not actions or actions[-1] != action:
        raise ValueError(f"table {table.id}'s record does not end with {action!r}")
    doc, count = head_doc(table)
    return doc, count - 1, dump(action)


def refusal(table: StoredTable, stored: Any, actions: int, *, append: bool = False
            ) -> Exception:
    """Why a guarded write of ``table`` matched no row, from the stored
    ``(version, status, count of actions)`` (None: no such table).

    :class:`StaleTable` when the stored version is not the one before; otherwise the
    caller's record does not follow the stored one (ValueError): ``actions`` is the count
    the write expected stored.
    """
    if stored is None or int(stored[0]) != table.version - 1:
        return StaleTable(table.id, table.version, None if stored is None else int(stored[0]))
    if append and stored[1] != TableStatus.PLAYING.value:
        return ValueError(f"table {table.id} is {stored[1]}: no action is appended")
    return ValueError(f"table {table.id} has {stored[2]} actions stored but the write "
                      f"expected {actions}: its record does not follow the stored one")


def rebuild(table_id: str, doc: str, status: str, final: str | None,
            actions: list[str]) -> StoredTable:
    """A stored head back to a whole table: its ``actions`` (JSON texts, in order) put
    back, or its result's ``final`` record for a finished game."""
    data = orjson.loads(doc)
    record = data.get("record")
    if record is None and final is not None and status == TableStatus.FINISHED:
        data["record"] = orjson.loads(final)
    elif isinstance(record, dict) and isinstance(record.get("actions"), int):
        if len(actions) != record["actions"]:
            raise CorruptTableError(f"table {table_id} should have {record['actions']} actions "
                                    f"but {len(actions)} are stored")
        record["actions"] = orjson.loads("[" + ",".join(actions) + "]")
    return StoredTable.model_validate(data)


def when(value: Any) -> datetime:
    """A stored moment (ISO text, or a datetime) as an aware UTC datetime."""
    return utc(datetime.fromisoformat(value) if isinstance(value, str) else value)


def daily_try(row: Any) -> DailyTry:
    """A try at a day's deal, from a row of ``daily_tries``."""
    guild = row["guild_id"]
    return DailyTry(day=row["day"], game=row["game"], user_id=row["user_id"],
                    guild_id=None if guild == NO_GUILD else guild, table_id=row["table_id"],
                    started_at=when(row["started_at"]),
                    finished_at=None if row["finished_at"] is None else when(row["finished_at"]),
                    score=row["score"], place=row["place"])


def daily_scores(result: GameResult) -> list[tuple[int, int, int]]:
    """What a daily deal's result gives its people's tries: (user, score, place) each."""
    return [(p.user_id, p.score, p.place) for p in result.players if p.user_id is not None]


AHEAD = ("(o.mu - 3.0 * o.sigma > s.mu - 3.0 * s.sigma OR (o.mu - 3.0 * o.sigma = "
         "s.mu - 3.0 * s.sigma AND (o.wins > s.wins OR (o.wins = s.wins AND (o.games > "
         "s.games OR (o.games = s.games AND o.user_id < s.user_id))))))")
"""SQL, on either backend: season row ``o`` is ranked above row ``s`` on their board (the
board's order: the ordinal, then wins, games, user id), so a place is one more than the
rows ahead."""


def standings_sql(marks: tuple[str, str, str, str], *, hint: str = "") -> str:
    """The query of a player's past seasons (:func:`season_standing` reads its rows), on
    either backend: ``marks`` are its placeholders for the server, the player, the season
    it stops before and the limit; ``hint`` names SQLite's index."""
    guild, user, before, limit = marks
    return f"""
SELECT s.season, s.game, s.mu, s.sigma, s.games, s.wins,
       1 + (SELECT COUNT(*) FROM season_ratings AS o
            WHERE o.guild_id = s.guild_id AND o.game = s.game AND o.season = s.season
              AND o.mu IS NOT NULL AND {AHEAD}) AS place,
       (SELECT COUNT(*) FROM season_ratings AS o
        WHERE o.guild_id = s.guild_id AND o.game = s.game AND o.season = s.season
          AND o.mu IS NOT NULL) AS players
FROM season_ratings AS s {hint}
WHERE s.guild_id = {guild} AND s.user_id = {user} AND s.season < {before}
  AND s.mu IS NOT NULL
ORDER BY s.season DESC, place, s.game
LIMIT {limit}
"""


def season_standing(row: Any) -> SeasonStanding:
    """How a player's season of a game ended, from a row of the standings query."""
    return SeasonStanding(season=row["season"], game=row["game"], place=row["place"],
                          players=row["players"],
                          rating=display_rating(row["mu"], row["sigma"]),
                          games=row["games"], wins=row["wins"])


DAILY_COLUMNS = ("day, game, user_id, guild_id, table_id, started_at, finished_at, score, "
                 "place")
"""The columns of ``daily_tries`` a :class:`~bot.models.DailyTry` is read from."""


def check_page(offset: int, limit: int) -> None:
    """ValueError for a negative offset or limit (a leaderboard page, recent games)."""
    if offset < 0 or limit < 0:
        raise ValueError(f"offset and limit must be >= 0, got {offset} and {limit}")


def leader_row(row: Any) -> LeaderRow:
    """One player of a leaderboard page, from a row of ``ratings``."""
    return LeaderRow(user_id=row["user_id"], rating=display_rating(row["mu"], row["sigma"]),
                     games=row["games"], wins=row["wins"])


def game_stats(row: Any) -> GameStats:
    """One game of a player's ``/stats``; ``rating`` None for a game never rated."""
    return GameStats(game=row["game"], games=row["games"], wins=row["wins"],
                     rating=None if row["mu"] is None
                     else display_rating(row["mu"], row["sigma"]))


def recent_game(row: Any) -> RecentGame:
    """One of a player's latest games; its end as stored (ISO text or a datetime) in UTC."""
    return RecentGame(table_id=row["table_id"], game=row["game"],
                      finished_at=when(row["finished_at"]),
                      place=row["place"], score=row["score"], players=row["players"])


__all__ = ["CLOSED_STATUSES", "DAILY_COLUMNS", "NO_GUILD", "OPEN_STATUSES", "SETTINGS",
           "CorruptTableError", "appended", "check_page", "check_timer", "daily_scores",
           "daily_try", "dump", "game_stats", "guild_key", "head_doc", "iso", "leader_row",
           "rebuild", "recent_game", "refusal", "result_record", "season_standing",
           "setting_upsert", "split_record", "standings_sql", "utc", "when"]
