"""Keeps each table's public message up to date, one edit in flight per table.

The table service calls :meth:`Publisher.table_changed` after every change;
the publisher marks the table dirty and, if no edit is running for it, starts
one. An edit renders the state as it is when it is sent, so a burst of changes
becomes at most two edits and the latest state always wins. Edits of one table
are also paced, at most one per ``min_interval`` seconds: a table played faster
than that (people who click at once, computers without delay) gets one edit
showing several moves instead of one per move, and stays within Discord's
limit on edits in a channel (5 in 5 s). The edit that shows
a finished game attaches its record (:mod:`cogs.render.export`). A table with pictures on
carries the drawing of its cards (:mod:`cogs.render.pictures`, drawn in the painter's threads,
never on the event loop), replaced on every edit; if
Discord refuses the edit with the picture, the text alone goes out.

A click on the table message itself (Join, Start, ...) is answered with the table as
it then is (:meth:`Publisher.answer`: Discord's UPDATE_MESSAGE, one call instead of an
acknowledgement and an edit), and the edit the change asked for is then skipped. An
edit is skipped whenever the message already shows the table's version: a change that
only asks the pings to be looked at again renders nothing.

Editing a message never notifies anyone, so when the turn passes to another
person the publisher also posts a short ping that mentions them alone, and
deletes the previous one: one ping in the channel at a time, gone when the
game ends. A person whose hand menu follows the game (:mod:`cogs.upkeep.live_menus`)
is told by that menu instead and gets no ping. At a timed table the person is
reminded at half time (:meth:`Publisher.turn_reminder`), live menu or not: the
reminder replaces their ping, so one still stands. Pings live in memory only;
after a restart :meth:`Publisher.tidy_pings` removes the ones the previous run
left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord
from discord.utils import MISSING

import games
from bot.load import LOAD
from bot.logs import working_on
from bot.models import TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import table_for
from bot.tables.timers import countdown
from cogs.discord_internals import edit_message, respond
from cogs.render.export import record_file
from cogs.render.lobby import render_lobby
from cogs.render.pictures.painter import PAINTER
from cogs.render.pictures.picture import TABLE_FILE, Picture, table_scene_for
from cogs.render.table import Rendered, render_closed_lobby, render_table
from cogs.upkeep.ending import announce
from cogs.upkeep.hand_pictures import PICTURE_WAIT
from cogs.upkeep.tasks import settled

log = logging.getLogger(__name__)


def render_message(session: Session, *, pictures: bool = True) -> Rendered:
    """The public message of ``session`` in its current state, text only.

    A started game is rendered from its snapshot, taken here, when the edit is rendered
    (a burst of changes makes one snapshot, not one a move). With ``pictures`` (and the
    table's pictures on) it also says what its picture shows; :func:`painted` draws it,
    off the event loop.
    """
    shown = table_for(session)
    if shown is not None:
        rendered = render_table(shown)
        rendered.scene = table_scene_for(shown) if pictures else None
        return rendered
    if session.table.status is TableStatus.LOBBY:
        embed, view = render_lobby(session)
        return Rendered(None, embed, view, discord.AllowedMentions.none())
    return render_closed_lobby(session)


def shown_key(session: Session, message_id: int) -> tuple[int, int, int]:
    """What the table message ``message_id`` shows of ``session`` now: its version, and
    how many watch it (said in its title; watching saves no new version)."""
    return message_id, session.version, len(session.watchers) if session.in_play else 0


async def painted(shown: Rendered, *, urgent: bool = False) -> Rendered:
    """``shown`` with its picture drawn in the painter's workers (the event loop goes on);
    ``urgent`` when someone waits for it (see :meth:`Painter.picture`)."""
    if shown.scene is not None:
        shown.with_picture(await PAINTER.picture(shown.scene, TABLE_FILE, urgent=urgent))
    return shown


TABLE_PICTURE_WAIT = 1.0
"""Seconds a table edit waits for its picture: a later picture (the workers still starting,
or busy) follows in an edit of its own, after the text."""
PING_MARK = "it is your turn in"
TOO_MANY_EDITS = 30046
"""Discord's "Maximum number of edits to messages older than 1 hour reached"."""
THREAD_ARCHIVED = 50083
"""Discord's "Thread is archived": no edit in it until it is unarchived."""
RETRIED_BY_DISCORD_PY = frozenset({500, 502, 504, 524})
"""The 5xx answers discord.py's HTTP client already retries (five tries, 25 s of backoff):
retrying them here too would multiply the tries, so they are given up at once."""
EDIT_RETRIES = 3
"""How many more times an edit is tried after another 5xx (a 503, say)."""
RETRY_DELAY = 0.5
"""Seconds before the first retry of an edit; each further retry waits twice as long."""


@dataclass(frozen=True)
class Ping:
    """The turn ping standing in a table's channel: whom it names, and its message."""

    user_id: int
    message_id: int
    reminder: bool = False  # half their time gone: it stands until the turn moves on


def person_to_act(session: Session) -> int | None:
    """The user id of the person whose turn it is, if a person's (not a computer's)."""
    seat = session.to_act()
    if seat is None:
        return None
    return session.seats[seat].user_id


class Publisher:
    """The :class:`bot.tables.session.TableListener` of the Discord layer."""

    def __init__(self, client: discord.Client,
                 moved: Callable[[Session, int], Awaitable[int | None]] | None = None,
                 gone: Callable[[Session, str], Awaitable[None]] | None = None,
                 quiet: Callable[[Session, int], bool] | None = None, *,
                 min_interval: float = 0.0,
                 monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.client = client
        # Whether a person needs no ping: their hand menu follows the game
        # (cogs.live_menus), so it has just told them the turn is theirs.
        self.quiet = quiet
        self.min_interval = min_interval
        # What the edits are paced on (tests move a clock of their own).
        self.monotonic, self.sleep = monotonic, sleep
        self._last_edit: dict[str, float] = {}  # table -> when its last edit started
        # Told the new message when the table is posted anew (the session manager keeps
        # it); answers the message it replaced, which the poster takes down.
        self.moved = moved
        # Told when the table's channel is gone for good: the table closes.
        self.gone = gone
        self._forbidden: set[str] = set()  # tables whose lost permission was logged
        self._unarchived: set[str] = set()  # tables whose thread was just unarchived
        self._dirty: set[str] = set()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._pings: dict[str, Ping] = {}
        self.retry_delay = RETRY_DELAY  # tests shorten it
        self._reminders: dict[str, int] = {}  # table -> the person to remind
        # table -> what its message shows: (message, version, how many watch)
        self._shown: dict[str, tuple[int, int, int]] = {}
        self._held: set[str] = set()  # tables whose message a click is answering

    def _channel(self, session: Session) -> discord.PartialMessageable:
        """The table's channel, with its server: links to it then name the server, as a
        message link must (``/channels/<server>/<channel>/<message>``; ``@me`` for a
        daily deal played in a direct message)."""
        table = session.table
        return self.client.get_partial_messageable(
            session.channel_id, guild_id=None if table.in_dm else table.guild_id)

    def table_changed(self, session: Session) -> None:
        self._dirty.add(session.id)
        self._start(session)

    def turn_reminder(self, session: Session, user_id: int) -> None:
        """Half of ``user_id``'s time is gone: their ping is posted anew, saying so."""
        self._reminders[session.id] = user_id
        self._start(session)

    @contextlib.contextmanager
    def answering(self, session: Session) -> Iterator[None]:
        """Hold the table's edits while a click on its message is answered: the answer may
        show the change itself (:meth:`answer`), and no edit races it."""
        self._held.add(session.id)
        try:
            yield
        finally:
            self._held.discard(session.id)
            if session.id in self._dirty or session.id in self._reminders:
                self._start(session)

    def _start(self, session: Session) -> None:
        """Run the table's edits and pings, unless they are running already or held."""
        if session.id not in self._running and session.id not in self._held:
            task = asyncio.get_running_loop().create_task(
                self._run(session), name=f"publish-{session.id}")
            self._running[session.id] = task

    async def _run(self, session: Session) -> None:
        working_on(session.id)  # this task's lines (discord.py's too) name the table
        try:
            while (session.id in self._dirty or session.id in self._reminders) and \
                    session.id not in self._held:
                if session.id in self._dirty:
                    if not self._is_shown(session):
                        await self._pace(session.id)
                        await LOAD.calm()  # answers to clicks first; a later edit shows more
                    self._dirty.discard(session.id)
                    if not self._is_shown(session):
                        await self._edit(session)
                    await self._ping(session)
                    if session.ending is not None:  # the game has just finished: say so
                        await announce(self._channel(session), session)
                user_id = self._reminders.pop(session.id, None)
                if user_id is not None and user_id == person_to_act(session):
                    await self._ping(session, reminder=True)
        finally:
            self._running.pop(session.id, None)
            if not session.is_open:
                self._shown.pop(session.id, None)

    def _is_shown(self, session: Session) -> bool:
        """Whether the table message shows the table as it is already (no edit needed)."""
        message_id = session.table.message_id
        return message_id is not None and self._shown.get(session.id) == shown_key(
            session, message_id)

    async def answer(self, interaction: discord.Interaction[Any], session: Session) -> bool:
        """Answer a click on the table message with the table as it is now, in place of
        the edit (one call, UPDATE_MESSAGE); False, having sent nothing, when the click was
        on another message, the record is to be attached, or the picture is not drawn
        within :data:`PICTURE_WAIT`: the publisher's edit then shows the change."""
        message = interaction.message
        if (message is None or message.id != session.table.message_id
                or interaction.response.is_done()):
            return False
        key, shown = shown_key(session, message.id), render_message(session)
        if shown.table is not None and shown.table.record is not None:
            return False  # the game is over: its edit attaches the record
        if shown.scene is not None:
            picture, drawing = await PAINTER.within(shown.scene, TABLE_FILE, PICTURE_WAIT)
            if drawing is not None or picture is None:
                return False  # the drawing goes on into the cache: the edit will be quick
            shown.with_picture(picture)
        files = shown.files()
        await respond(interaction, shown.content, update=True, embed=shown.embed,
                      view=shown.view, allowed_mentions=shown.mentions,
                      files=files if files else MISSING)
        self._shown[session.id] = key
        return True

    async def _pace(self, table_id: str) -> None:
        """Wait until ``min_interval`` has passed since this table's last edit was sent."""
        last = self._last_edit.get(table_id)
        if last is not None and (wait := last + self.min_interval - self.monotonic()) > 0:
            await self.sleep(wait)

    def _sending(self, table_id: str) -> None:
        """An edit of this table goes out now: the next waits ``min_interval`` from here,
        not from when this one began to be drawn (a picture drawn slowly would otherwise
        bring two edits closer than the interval)."""
        now = self.monotonic()
        self._last_edit[table_id] = now
        if len(self._last_edit) > 2 * len(self._running) + 1024:
            # Only tables edited within the interval still need their time.
            recent = now - self.min_interval
            self._last_edit = {t: at for t, at in self._last_edit.items() if at > recent}

    async def _edit(self, session: Session) -> None:
        message_id = session.table.message_id
        if message_id is None:
            return
        key = shown_key(session, message_id)
        shown, drawing = await self._painted_in_time(session)
        whole = drawing is None
        message = self._channel(session).get_partial_message(message_id)
        # The record (every hand) only once the game is over; replaced, not added, on a re-edit.
        with_record = shown.table is not None and shown.table.record is not None
        self._sending(session.id)
        try:
            await self._send_retrying(session, lambda: self._send_edit(
                message, shown, with_record=with_record, replace=not whole))
            if drawing is None:
                self._shown[session.id] = key
            else:  # the picture's own edit follows, once it is drawn
                await asyncio.wait({drawing})
                self._dirty.add(session.id)
            self._forbidden.discard(session.id)
            self._unarchived.discard(session.id)
            return
        except discord.NotFound:
            if session.table.message_id != message_id:
                self._dirty.add(session.id)  # posted anew meanwhile (/table): edit that one
                return
            await self._message_gone(session)
            return
        except discord.DiscordServerError as exc:
            # Discord's outage outlasted every retry: the next change edits the table again.
            log.warning("table %s: Discord kept failing its edit (%s %s); giving up until "
                        "the next change", session.id, exc.status, exc.text or exc.response.reason)
            return
        except discord.HTTPException as exc:
            if exc.code == THREAD_ARCHIVED:
                await self._thread_archived(session)
                return
            if exc.code == TOO_MANY_EDITS and self.moved is not None:
                # Discord limits edits of messages older than an hour: post the table anew.
                try:
                    await self.repost(session)
                except discord.HTTPException:
                    log.exception("table %s: could not post the table anew", session.id)
                return
            if shown.picture is None and not with_record:
                self._refused(session, exc)
                return
        # Files are what Discord refuses most (no Attach Files, too large): the text table
        # goes out without the picture (the old one taken down), then without the record
        # too. No move is lost.
        log.warning("table %s: the edit with its files failed; sending the text alone",
                    session.id)
        for keep_record in ((True, False) if with_record else (False,)):
            try:
                await self._send_edit(message, render_message(session, pictures=False),
                                      with_record=keep_record, replace=True)
                return
            except discord.NotFound:
                await self._message_gone(session)
                return
            except discord.HTTPException as exc:
                refusal = exc
        self._refused(session, refusal)

    async def _painted_in_time(self, session: Session
                               ) -> tuple[Rendered, asyncio.Task[Picture | None] | None]:
        """The table with its picture if drawn within :data:`TABLE_PICTURE_WAIT`; else the
        text alone (the old picture taken down) and the drawing, which goes on: the edit
        that follows it finds it drawn."""
        shown = render_message(session)
        if shown.scene is None:
            return shown, None
        picture, drawing = await PAINTER.within(shown.scene, TABLE_FILE, TABLE_PICTURE_WAIT)
        if drawing is None:
            return shown.with_picture(picture), None
        return render_message(session, pictures=False), drawing

    async def _send_retrying(self, session: Session,
                             send: Callable[[], Awaitable[None]]) -> None:
        """``send()``, tried again after a 5xx that discord.py did not already retry.

        At most :data:`EDIT_RETRIES` more tries, :attr:`retry_delay` apart and doubling.
        A retry is dropped when the table changed meanwhile: the edit that follows
        shows the newer state anyway (the last state wins).
        """
        for attempt in range(EDIT_RETRIES + 1):
            try:
                await send()
                return
            except discord.DiscordServerError as exc:
                if exc.status in RETRIED_BY_DISCORD_PY or attempt == EDIT_RETRIES:
                    raise
                delay = self.retry_delay * 2**attempt
                log.info("table %s: Discord answered %s to an edit; trying again in %.1f s",
                         session.id, exc.status, delay)
                await asyncio.sleep(delay)
                if session.id in self._dirty:
                    return

    async def _thread_archived(self, session: Session) -> None:
        """The table's thread was archived (Discord's auto-archive, or a moderator):
        unarchive it and edit again; if Discord refuses (a locked thread, and no Manage
        Threads), the table cannot go on there and closes."""
        if not session.is_open:
            log.info("table %s: its thread is archived; the closed table stays as it was",
                     session.id)
            return
        if session.id in self._unarchived:  # archived again at once: not in a loop
            log.error("table %s: its thread is still archived after unarchiving it; "
                      "trying again at the next change", session.id)
            self._unarchived.discard(session.id)
            return
        try:
            await self.client.http.edit_channel(
                session.channel_id, archived=False, reason="a game is being played here")
        except discord.Forbidden:
            log.warning("table %s: its thread was archived and I may not unarchive it; "
                        "closing the table", session.id)
            if self.gone is not None:
                await self.gone(session, "the thread was archived and could not be reopened")
            return
        except discord.HTTPException as exc:
            log.error("table %s: could not unarchive its thread: %s", session.id, exc)
            return
        log.info("table %s: its thread was archived; unarchived it", session.id)
        self._unarchived.add(session.id)
        self.table_changed(session)  # the edit again, with whatever the table shows now

    def _refused(self, session: Session, exc: discord.HTTPException) -> None:
        """An edit Discord refused even as text: a lost permission is logged once."""
        if not isinstance(exc, discord.Forbidden):
            log.error("table %s: could not edit its message: %s", session.id, exc)
        elif session.id not in self._forbidden:
            # A permission lost mid-game: said once; people still play through their menus.
            self._forbidden.add(session.id)
            log.warning("table %s: I may no longer edit its message (a permission was "
                        "taken away); the game goes on in the hand menus", session.id)

    async def _send_edit(self, message: discord.PartialMessage, shown: Rendered, *,
                         with_record: bool, replace: bool = False) -> None:
        """One edit: the text table, its picture (replacing the last one), the record.

        A table without pictures keeps its attachments as they are, unless it shows the
        record or ``replace`` says to take down what it had (a picture that failed).
        """
        files = shown.files()
        record = record_file(shown.table) if with_record else None
        if record is not None:
            files.append(record)
        await edit_message(message, content=shown.content, embed=shown.embed, view=shown.view,
                           allowed_mentions=shown.mentions,
                           attachments=files if files or replace else MISSING)

    async def _message_gone(self, session: Session) -> None:
        """The table message was deleted: post it anew; if its channel is gone, close it."""
        if not session.is_open:
            return
        log.warning("table %s: its message is gone; posting it anew", session.id)
        try:
            await self.repost(session)
        except discord.NotFound:
            if self.gone is not None:
                await self.gone(session, "the table's channel is gone")
        except discord.HTTPException:
            log.exception("table %s: could not post the table anew", session.id)

    async def repost(self, session: Session) -> None:
        """Post the table as a new message at the bottom and drop the old one.

        For ``/table``, and when Discord refuses more edits of the old message (30046).
        """
        shown = await painted(render_message(session))
        record = record_file(shown.table)
        channel = self._channel(session)
        sent = await channel.send(content=shown.content, embed=shown.embed,
                                  files=shown.files() + ([record] if record else []),
                                  view=shown.view or MISSING, allowed_mentions=shown.mentions)
        old = await self.moved(session, sent.id) if self.moved is not None else None
        log.info("table %s: posted anew as message %s", session.id, sent.id)
        if old is not None:
            await take_down(channel.get_partial_message(old))

    async def _ping(self, session: Session, *, reminder: bool = False) -> None:
        """Ping the person to act if the turn has passed to them; drop a stale ping.

        ``reminder``: ping them again (half their time is gone), replacing their ping.
        """
        user_id = person_to_act(session)
        old = self._pings.get(session.id)
        quiet = user_id is not None and self.quiet is not None and self.quiet(session, user_id)
        if old is not None and old.user_id == user_id and not reminder and (
                not quiet or old.reminder):
            return  # still their turn (or their turn again): they have been told
        # Otherwise the ping goes, even when the turn is theirs again: one who has used a
        # menu since (the edit that would have taken it down came after the computers
        # brought the turn back, its picture being drawn) needs it no longer.
        channel = self._channel(session)
        if old is not None:
            del self._pings[session.id]
            with contextlib.suppress(discord.HTTPException):  # already gone: nothing to tidy
                await channel.get_partial_message(old.message_id).delete()
        if user_id is None or session.table.message_id is None:
            return
        if quiet and not reminder:
            return  # their menu told them (half their time gone, they are reminded anyway)
        title = games.get(session.table.game).title  # a person to act: a game is running
        link = channel.get_partial_message(session.table.message_id).jump_url
        deadline = session.table.deadline
        hurry = (f"\nHalf your time is gone: a computer plays for you {countdown(deadline)}."
                 if reminder and deadline is not None else "")
        try:
            sent = await channel.send(
                f"<@{user_id}>, {PING_MARK} {title}: {link}{hurry}",
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id)], everyone=False, roles=False,
                    replied_user=False),
            )
        except discord.HTTPException:
            log.warning("table %s: could not ping the player to act", session.id)
            return
        self._pings[session.id] = Ping(user_id, sent.id, reminder)

    async def tidy_pings(self, session: Session, *, look_back: int = 50) -> int:
        """Delete this table's turn pings left by an earlier run; how many were deleted.

        Called once per resumed table, before it is published again, so a restart
        never leaves two pings standing.
        """
        if session.table.message_id is None or self.client.user is None:
            return 0
        channel = self._channel(session)
        link = channel.get_partial_message(session.table.message_id).jump_url
        deleted = 0
        try:
            async for message in channel.history(limit=look_back):
                if (message.author.id == self.client.user.id and PING_MARK in message.content
                        and link in message.content):
                    with contextlib.suppress(discord.HTTPException):
                        await message.delete()
                        deleted += 1
        except discord.HTTPException:
            log.warning("table %s: could not look for old turn pings", session.id)
        return deleted

    async def idle(self) -> None:
        """Wait until no edit is running (for shutdown and tests)."""
        await settled(self._running)

    def cancel(self) -> None:
        for task in self._running.values():
            task.cancel()


async def take_down(message: discord.PartialMessage) -> None:
    """Delete a table message that a newer one replaced; if Discord refuses, at least take
    its buttons off, so only the live message can be clicked (and is kept up to date)."""
    try:
        await message.delete()
    except discord.NotFound:
        return
    except discord.HTTPException:
        with contextlib.suppress(discord.HTTPException):
            await message.edit(content="This table moved to a newer message below.",
                               embed=None, view=None, attachments=[])
