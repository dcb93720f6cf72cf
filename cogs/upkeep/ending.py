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
  (:mod:`bot.tables.fixed`): whoever clicks takes their own seat, every other person's
  is saved for them and they are pinged to take it; the game is not rated, so friends
  can play the hand they just played again and compare. A daily deal has none (it is
  played once; its board is where people compare).

The buttons are routed by custom id alone (``ff:<table>:end:<again|record|same>``) and
read the finished table from the store when it is no longer in memory, so they work
after a restart; a forged or stale id gets a private reason.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

import games
from bot.models import StoredTable
from bot.tables.errors import TableError
from bot.tables.results import Ending
from bot.tables.service import Tables
from bot.tables.session import Session
from cogs import ids
from cogs.clicks.handlers import display_name
from cogs.render.export import finished_record_file
from cogs.render.lobby import render_lobby
from cogs.ui import answered_on_failure, button, jump_url, plural, say, sentence, static_view

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
ARROW = "→"


def pings(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that reach exactly these people: no roles, no everyone."""
    return discord.AllowedMentions(users=[discord.Object(u) for u in user_ids],
                                   everyone=False, roles=False, replied_user=False)


def rating_words(ending: Ending, user_id: int | None) -> str:
    """``rating 1012 → 1040``, ``rating new → 1030``, or ``not rated``; "" for a computer."""
    if user_id is None:
        return ""
    if not ending.rated:
        return "not rated"
    if not ending.known:
        return "rating in /stats"
    change = ending.change_of(user_id)
    if change is None or not change.moved:
        return "not rated"
    before = "new" if change.before is None else f"{change.before:.0f}"
    return f"rating {before} {ARROW} {change.after:.0f}"


def result_lines(session: Session, ending: Ending) -> list[str]:
    """One line per seat, best place first: place, name, score, rating change."""
    game = session.game
    assert game is not None and game.outcome is not None
    places = game.outcome.places
    lines = []
    for seat in sorted(range(len(session.seats)), key=lambda i: (places[i], i)):
        held = session.seats[seat]
        bits = [f"{places[seat]}. **{held.label}**", plural(game.scores[seat], "pt"),
                rating_words(ending, held.user_id)]
        lines.append(" · ".join(b for b in bits if b))
    return lines


def unrated_words(table: StoredTable) -> str:
    """Why a game was not rated, in a line under its result."""
    if table.daily is not None:
        return "-# Not rated: daily deals have their own board (/daily board)."
    if table.fixed is not None:
        return "-# Not rated: the cards were those of an earlier game."
    return "-# Not rated: this table had hints on."


def render_result(session: Session, ending: Ending) -> tuple[str, discord.ui.View, list[int]]:
    """The result message: its text, its buttons, and the people it pings."""
    table = session.table
    title = games.get(table.game).title
    people = session.humans()
    head = f"**{title} is over.**"
    if people:
        head += " " + " ".join(f"<@{p}>" for p in people) + ": thanks for playing."
    lines = [head, *result_lines(session, ending)]
    if not ending.rated:
        lines.append(unrated_words(table))
    buttons = [button("Record", ids.end_id(table.id, "record"))]
    if table.daily is None:
        buttons[:0] = [button("Play again", ids.end_id(table.id, "again"),
                              style=discord.ButtonStyle.success),
                       button("Same cards", ids.end_id(table.id, "same"))]
    return "\n".join(lines), static_view(buttons), people


async def announce(channel: discord.abc.Messageable, session: Session) -> None:
    """Post the result of a game that has just finished, once (``session.ending`` is taken)."""
    ending, session.ending = session.ending, None
    if ending is None or session.game is None or session.game.outcome is None:
        return
    content, view, people = render_result(session, ending)
    try:
        await channel.send(content, view=view, allowed_mentions=pings(people))
    except discord.HTTPException:
        log.warning("table %s: could not post the result message", session.id)


class Endings:
    """The handlers of the result message's buttons."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def click(self, interaction: Interaction, table_id: str, what: str) -> None:
        """``Play again``, ``Same cards`` or ``Record``: answered once, a refusal privately
        with its reason."""
        async with answered_on_failure(interaction, "a result button"):
            try:
                table = await self.tables.finished_table(table_id)
                if interaction.channel_id != table.channel_id:
                    raise TableError("that button belongs to a game in another channel")
                if what == "record":
                    await interaction.response.send_message(
                        f"The record of this {games.get(table.game).title} game: every deal "
                        "and move. python -m games replay plays it back.",
                        file=finished_record_file(table), ephemeral=True)
                elif what == "same":
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
        session = await self.tables.rematch(finished, interaction.user.id, name)
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
        session = await self.tables.same_cards(finished, interaction.user.id, name)
        others = [s.replaced_user_id for s in session.seats
                  if s.replaced_because == "saved" and s.replaced_user_id is not None]
        await self._post_lobby(interaction, session, others,
                               f"{name} deals the same cards again: Join to take your seat.")

    async def _taken(self, interaction: Interaction, finished: StoredTable) -> bool:
        """Whether a table is open in ``finished``'s channel already (the asker is told where)."""
        open_here = self.tables.in_channel(finished.channel_id)
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
        sent = await interaction.response.send_message(content, embed=embed, view=view,
                                                       allowed_mentions=pings(others))
        message_id = sent.message_id if sent is not None else None
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.tables.set_message(session, message_id)


__all__ = ["Endings", "announce", "render_result"]
