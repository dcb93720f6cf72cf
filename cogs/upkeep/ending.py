"""The end of a game as an event: a short result message, ``Play again``, ``Same cards``
and ``Record``.

When a game finishes, the publisher edits the table one last time (no turn marker,
no ``Show my hand``) and then posts this new message, which pings the people who
played (and only them): the places, the scores, each person's rating before and
after (or "not rated"), and three buttons (a daily deal's result has ``Record`` alone).

- ``Play again`` opens a lobby in the same channel or thread with the same game,
  options and table options. Whoever clicks hosts it; the computers keep their
  seats and levels; every other person confirms by joining. A table already open
  there is named instead.
- ``Record`` sends the game's record file privately (as :mod:`cogs.render.export`
  attaches it to the final table).
- ``Same cards`` opens a lobby dealing the same cards again to the same seats
  (:mod:`bot.tables.same_cards`): whoever clicks takes their own seat, every other person's
  is saved for them and they are pinged to take it; the game is not rated, so friends
  can play the hand they just played again and compare. A daily deal has none (it is
  played once; its board is where people compare).

The buttons are routed by custom id alone (``ff:<table>:end:<again|record|same>``) and
read the finished table from the store when it is no longer in memory, so they work
after a restart; a forged or stale id gets a private reason.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

import games
from bot.models import StoredTable
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.session import Ending, Session
from bot.tables.snapshots import TableSnapshot, table_for
from cogs import ids
from cogs.answers import answered_on_failure, say
from cogs.render.export import finished_record_file
from cogs.render.lobby import render_lobby
from cogs.render.static_view import StaticView, button
from cogs.render.text import display_name, jump_url, plural, sentence
from cogs.upkeep.cooldowns import Throttle

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
ARROW = "→"


def pings(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that reach exactly these people: no roles, no everyone."""
    return discord.AllowedMentions(users=[discord.Object(u) for u in user_ids],
                                   everyone=False, roles=False, replied_user=False)


RATING_RULE = ("-# A person is rated only for a game in which they made at least half of "
               "their seat's moves themselves.")


def rating_words(ending: Ending, user_id: int | None) -> str:
    """``rating 1012 → 1040``, ``rating new → 1030``, or ``not rated`` (with why, when it
    is the person's doing or the table's); "" for a computer."""
    if user_id is None:
        return ""
    if not ending.rated:
        return "not rated"
    why = ending.why_not.get(user_id)
    if why is not None:
        return f"not rated: {why}"
    if not ending.known:
        return "rating in /stats"
    change = ending.change_of(user_id)
    if change is None or not change.moved:
        return "not rated"
    before = "new" if change.before is None else f"{change.before:.0f}"
    return f"rating {before} {ARROW} {change.after:.0f}"


def result_lines(shown: TableSnapshot, ending: Ending) -> list[str]:
    """One line per seat, best place first: place, name, score, rating change (of the
    seat's person, even when a computer finished the game for them)."""
    places = shown.places
    assert places is not None
    lines = []
    for seat in sorted(range(len(shown.labels)), key=lambda i: (places[i], i)):
        person = ending.person_at(seat) or shown.people[seat]
        bits = [f"{places[seat]}. **{shown.labels[seat]}**",
                plural(shown.public.scores[seat], "pt"),
                rating_words(ending, person)]
        lines.append(" · ".join(b for b in bits if b))
    return lines


def unrated_words(table: StoredTable) -> str:
    """Why a game was not rated, in a line under its result."""
    if table.daily is not None:
        return "-# Not rated: daily deals have their own board (/daily board)."
    if table.fixed is not None:
        return "-# Not rated: the cards were those of an earlier game."
    return "-# Not rated: this table had hints on."


def render_result(shown: TableSnapshot, ending: Ending, table: StoredTable
                  ) -> tuple[str, discord.ui.View, list[int]]:
    """The result message of the finished game ``shown`` (stored as ``table``): its text,
    its buttons, and the people it pings (those seated at the end, and those rated for it)."""
    people = list(dict.fromkeys([*(p for p in shown.people if p is not None),
                                 *(c.user_id for c in ending.changes)]))
    head = f"**{shown.title} is over.**"
    if people:
        head += " " + " ".join(f"<@{p}>" for p in people) + ": thanks for playing."
    lines = [head, *result_lines(shown, ending)]
    if not ending.rated:
        lines.append(unrated_words(table))
    elif ending.by_proxy:
        lines.append(RATING_RULE)
    buttons = [button("Record", ids.end_id(shown.table_id, "record"))]
    if table.daily is None:
        buttons[:0] = [button("Play again", ids.end_id(shown.table_id, "again"),
                              style=discord.ButtonStyle.success),
                       button("Same cards", ids.end_id(shown.table_id, "same"))]
    return "\n".join(lines), StaticView(buttons), people


async def announce(channel: discord.abc.Messageable, session: Session) -> None:
    """Post the result of a game that has just finished, once (``session.ending`` is taken),
    from a snapshot of the finished table."""
    ending, session.ending = session.ending, None
    shown = table_for(session) if ending is not None else None
    if ending is None or shown is None or shown.places is None:
        return
    content, view, people = render_result(shown, ending, session.table)
    try:
        await channel.send(content, view=view, allowed_mentions=pings(people))
    except discord.HTTPException:
        log.warning("table %s: could not post the result message", session.id)


REMATCH_PING_SECONDS = 60.0
"""A person is pinged for a rematch at most once in this many seconds."""
PINGS_KEPT = 4096


class Endings:
    """The handlers of the result message's buttons.

    ``Play again`` and ``Same cards`` open a table: they count against the same limit as ``/play``
    (``opening``, ``COMMANDS_PER_MINUTE`` a person), and each other person is pinged for
    a rematch at most once a minute, so Play again and Cancel in a loop cannot flood them.
    """

    def __init__(self, tables: TableService, *, opening: Throttle | None = None) -> None:
        self.tables = tables
        self.opening = opening
        self._pinged: dict[tuple[int | None, int], float] = {}  # (server, person) -> when

    async def click(self, interaction: Interaction, table_id: str, what: str) -> None:
        """``Play again``, ``Same cards`` or ``Record``: answered once, a refusal privately
        with its reason."""
        async with answered_on_failure(interaction, "a result button"):
            try:
                table = await self.tables.registry.finished_table(table_id)
                if interaction.channel_id != table.channel_id:
                    raise TableError("that button belongs to a game in another channel")
                if what == "record":
                    await interaction.response.send_message(
                        f"The record of this {games.get(table.game).title} game: every deal "
                        "and move, in a file to keep. Details on the table shows the last "
                        "moves in words.",
                        file=finished_record_file(table), ephemeral=True)
                else:  # Play again or Same cards: each opens a table, as /play does
                    too_soon = self.opening.refusal(interaction) if self.opening else None
                    if too_soon is not None:
                        raise TableError(too_soon)
                    if what == "same":
                        await self.same_cards(interaction, table)
                    else:
                        await self.play_again(interaction, table)
            except TableError as exc:
                await say(interaction, sentence(exc.message))

    async def play_again(self, interaction: Interaction, finished: StoredTable) -> None:
        """A new lobby like ``finished``'s in its channel, unless a table is open there."""
        if await self._taken(interaction, finished):
            return
        name = display_name(interaction)
        session = await self.tables.lobby.rematch(finished, interaction.user.id, name)
        others = [s.user_id for s in finished.seats
                  if s.user_id is not None and s.user_id != interaction.user.id]
        await self._post_lobby(interaction, session, others,
                               f"{name} asks for a rematch. Join to play again.")

    async def same_cards(self, interaction: Interaction, finished: StoredTable) -> None:
        """A lobby dealing ``finished``'s cards again to its seats, unless a table is open
        there; the other people are pinged to take their saved seats."""
        if finished.daily is not None:
            raise TableError("a daily deal is played once; /daily board shows how the others "
                             "did")
        if await self._taken(interaction, finished):
            return
        name = display_name(interaction)
        session = await self.tables.lobby.same_cards(finished, interaction.user.id, name)
        others = [s.replaced_user_id for s in session.seats
                  if s.replaced_because == "saved" and s.replaced_user_id is not None]
        await self._post_lobby(interaction, session, others,
                               f"{name} deals the same cards again: Join to take your seat.")

    async def _taken(self, interaction: Interaction, finished: StoredTable) -> bool:
        """Whether a table is open in ``finished``'s channel already (the asker is told where)."""
        open_here = self.tables.registry.in_channel(finished.channel_id)
        if open_here is None:
            return False
        where = jump_url(open_here.table.guild_id, open_here.channel_id,
                         open_here.table.message_id)
        await say(interaction, f"There is already a table here: {where}")
        return True

    async def _post_lobby(self, interaction: Interaction, session: Session, others: list[int],
                          invitation: str) -> None:
        """The new lobby as the click's answer, pinging ``others`` with ``invitation``."""
        content = " ".join(f"<@{u}>" for u in others) + f": {invitation}" if others else None
        embed, view = render_lobby(session)
        sent = await interaction.response.send_message(
            content, embed=embed, view=view,
            allowed_mentions=pings(self._may_ping(session.table.guild_id, others)))
        message_id = sent.message_id if sent is not None else None
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.tables.set_message(session, message_id)

    def _may_ping(self, guild_id: int | None, people: list[int]) -> list[int]:
        """Those of ``people`` not pinged for a rematch in the last minute (now counted as
        pinged); the others are named without a ping."""
        now = time.monotonic()
        if len(self._pinged) > PINGS_KEPT:
            self._pinged = {k: t for k, t in self._pinged.items()
                            if now - t < REMATCH_PING_SECONDS}
        chosen = [p for p in people if (last := self._pinged.get((guild_id, p))) is None
                  or now - last >= REMATCH_PING_SECONDS]
        for person in chosen:
            self._pinged[(guild_id, person)] = now
        return chosen


__all__ = ["Endings", "announce", "render_result"]
