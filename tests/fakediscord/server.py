"""`FakeDiscord`: an in-process Discord (REST + gateway) that the real discord.py talks to."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import re
import secrets
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord
import yarl
from aiohttp import web

from . import core
from .core import DiscordAPIError, FakeClock, RequestRecord, Violation, unknown
from .faults import Fault, FaultPlan, path_pattern
from .gateway import GatewayConnection, GatewaySession, handle_gateway
from .limits import check_message
from .messages import EPHEMERAL, StoredAttachment, StoredMessage, apply_edit, summarize
from .openapi import DEFAULT_SPEC_PATH, OpenAPISpec, load_spec
from .rest import API_PREFIX, RestAPI
from .shards import guild_of, session_for, shard_of
from .users import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    InteractionNotAnswered,
    InteractionRecord,
    InteractionResult,
    build_options,
    leaf_definitions,
    nest_subcommands,
)
from .world import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    DEFAULT_BOT_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    JSON,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    SnowflakeFactory,
)

GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_UPLOAD_BYTES = ATTACHMENT_SIZE_LIMIT
MAX_ATTACHMENTS = 10
MAX_ATTACHMENT_DESCRIPTION = 1024


def refuse_if_archived(channel: FakeChannel) -> None:
    """Discord's 400 for a change in an archived thread (editing a message, say)."""
    if channel.is_thread and channel.archived:
        raise DiscordAPIError(400, core.THREAD_ARCHIVED, "Thread is archived")


class FakeDiscord:
    """A fake Discord for end-to-end tests of a discord.py bot. See the package docstring."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Fivefold",
        spec_path: Path = DEFAULT_SPEC_PATH,
    ) -> None:
        self._ids = SnowflakeFactory()
        self.delivery_delay = 0.0
        """Seconds between Discord creating an interaction and the bot receiving it (a
        backlogged bot, a slow link): its id is minted, and its 3 s counted, from that
        long before it is sent."""
        self.token = token
        self.application_id: int = self._ids.next()
        self.application_flags: int = 0
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.app_owner = FakeUser(self._ids.next(), "app-owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.app_owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, dict[str, JSON]] = {}
        """Synced application commands by scope (None = global, else guild id), then name."""
        self.sync_count = 0

        # What the bot did.
        self.violations: list[Violation] = []
        self.requests: list[RequestRecord] = []
        self.errors: list[RequestRecord] = []
        """Requests answered with a Discord error (4xx), in order."""
        self.unknown_routes: list[tuple[str, str]] = []
        self.reactions: list[tuple[int, str]] = []

        # Knobs.
        self.clock = FakeClock()
        self.response_deadline: float = 3.0
        self.token_lifetime: float = 15 * 60.0
        self.answer_timeout: float = 5.0
        self.heartbeat_interval_ms: int = 41250
        self.bot_permissions: int = DEFAULT_BOT_PERMISSIONS
        self.require_synced_commands: bool = True
        self.reject_invalid_messages: bool = True
        self.dispatch_message_events: bool = True
        # Discord refuses edits of a public message older than an hour once many were made
        # (30046); on: every such edit is refused, as if the limit were reached.
        self.limit_old_message_edits: bool = False
        self.spec: OpenAPISpec = load_spec(spec_path)
        self.faults = FaultPlan()
        """Rate limits and 5xx answers a test asked for (:meth:`rate_limit`, :meth:`fail`)."""

        # Gateway.
        self.shard_count: int = 1
        """The shard count `/gateway/bot` recommends (what an unsharded AutoShardedBot uses)."""
        self.session: GatewaySession | None = None
        """The session identified last (the only one unless the bot is sharded)."""
        self.sessions: dict[tuple[int, int], GatewaySession] = {}
        """Every live session by its ``(shard id, shard count)``; a new IDENTIFY for a shard
        replaces the old session of that shard."""
        self.gateway_connections: list[GatewayConnection] = []
        self.gateway_received: list[JSON] = []
        self.identify_count = 0
        self.resume_count = 0

        self._cond = asyncio.Condition()
        self._rest = RestAPI(self)
        self._runner: web.AppRunner | None = None
        self._patches: list[Callable[[], None]] = []
        self.port = 0

    # Lifecycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        for conn in list(self.gateway_connections):
            await conn.close(1001, "fake Discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's REST base and default gateway at this fake, and let it know
        when an in-process client has read the reply to an interaction callback
        (:meth:`wait_answered`); restore on exit."""
        route_base = discord.http.Route.BASE
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        adapter = discord.webhook.async_.AsyncWebhookAdapter
        respond = adapter.create_interaction_response
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        adapter.create_interaction_response = self._reading_replies(respond)  # type: ignore[method-assign]
        try:
            yield
        finally:
            discord.http.Route.BASE = route_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
            adapter.create_interaction_response = respond  # type: ignore[method-assign]

    def _reading_replies(self, respond: Callable[..., Any]) -> Callable[..., Any]:
        """discord.py's interaction callback, counting the replies not yet read.

        Every first response goes through this one call (``InteractionResponse``'s
        methods and the bot's own busy answer alike). The count goes up before the
        request leaves, so by the time this fake has handled it, the fake knows a reply
        is on its way back; it goes down once discord.py has returned the reply to the
        bot, which then runs on, up to its next wait, before anyone woken by that sees
        the loop again.
        """
        fake = self

        async def create_interaction_response(
            this: Any, interaction_id: int, token: str, **kwargs: Any
        ) -> Any:
            record = fake.interactions.get(int(interaction_id))
            if record is None or record.token != token:
                return await respond(this, interaction_id, token, **kwargs)
            record.replies_unread += 1
            record.replies_read.clear()
            try:
                return await respond(this, interaction_id, token, **kwargs)
            finally:
                record.replies_unread -= 1
                if not record.replies_unread:
                    record.replies_read.set()

        return create_interaction_response

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self._patch_cm = self.patch_discord()
        self._patch_cm.__enter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._patch_cm.__exit__(None, None, None)
        await self.stop()

    @contextlib.asynccontextmanager
    async def run_client(
        self, client: discord.Client, timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """Start `client` against this fake, wait for on_ready, and close it on exit.

        Use a client with `guild_ready_timeout=0.1` (or similar) to keep startup fast.
        """
        await client.login(self.token)  # Raises LoginFailure on a wrong token.
        task = asyncio.create_task(client.connect(), name="fakediscord-client")
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            await client.close()
            if task in done:
                task.result()  # Raise the connection error.
            task.cancel()
            raise TimeoutError(f"client not ready within {timeout}s")
        try:
            yield client
        finally:
            await client.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        return await handle_gateway(self, request)

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["attachment_id"])
        for message in self.messages.values():
            for att in message.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data, content_type=att.content_type or "application/octet-stream"
                    )
        return web.Response(status=404)

    # Change notification -----------------------------------------------------------------

    async def notify(self) -> None:
        """Wake every `wait_for` (called after each REST request and gateway frame)."""
        async with self._cond:
            self._cond.notify_all()

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float = 5.0, poll: float = 0.02
    ) -> None:
        """Wait until `predicate()` is true.

        It is re-checked on every change the fake sees (each REST request, each gateway frame)
        and, for predicates about the bot's own state, also every `poll` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self._cond:
            while not predicate():
                remaining = deadline - loop.time()
                if remaining <= 0:
                    recent = [(r.method, r.path, r.status) for r in self.requests[-5:]]
                    raise TimeoutError(
                        f"condition not met within {timeout}s; recent requests: {recent}"
                    )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._cond.wait(), min(poll, remaining))

    # Violations --------------------------------------------------------------------------

    def record_violation(self, kind: str, detail: str, method: str = "", path: str = "") -> None:
        self.violations.append(Violation(kind, detail, method, path))

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of one kind, if given)."""
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def assert_no_violations(self) -> None:
        if self.violations:
            lines = "\n  ".join(str(v) for v in self.violations)
            raise AssertionError(f"{len(self.violations)} Discord violation(s):\n  {lines}")

    def check_openapi(self, method: str, path: str, body: Any) -> None:
        for problem in self.spec.validate(method, path, body):
            self.record_violation("openapi", problem, method, path)

    # Rate limits and outages -------------------------------------------------------------

    def rate_limit(self, method: str, path: str | re.Pattern[str], *, retry_after: float = 0.5,
                   times: int = 1, is_global: bool = False, scope: str = "user") -> Fault:
        """Answer the next ``times`` matching requests with a 429 (route, or global)."""
        return self.faults.add(Fault(method, path_pattern(path), 429, times,
                                     retry_after=retry_after, is_global=is_global, scope=scope))

    def fail(self, method: str, path: str | re.Pattern[str], *, status: int = 503,
             times: int = 1) -> Fault:
        """Answer the next ``times`` matching requests with ``status`` (500, 502, 503...)."""
        return self.faults.add(Fault(method, path_pattern(path), status, times))

    # World -------------------------------------------------------------------------------

    def next_id(self) -> int:
        return self._ids.next()

    def add_guild(
        self,
        name: str = "Fivefold Test Guild",
        *,
        owner: FakeUser | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild the bot is in (with @everyone and a bot role). Call before connecting.

        ``shard=(id, count)``: its id is drawn so that the guild lives on that shard.
        """
        gid = self.next_id()
        while shard is not None and shard_of(gid, shard[1]) != shard[0]:
            gid = self.next_id()
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id if owner else self.app_owner.id)
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = FakeRole(self.next_id(), gid, self.bot_user.name, self.bot_permissions, 1)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [bot_role.id])
        if owner is not None:
            guild.members[owner.id] = FakeMember(owner)
        self.guilds[gid] = guild
        return guild

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        """A text channel. Call before connecting (no CHANNEL_CREATE is sent)."""
        channel = FakeChannel(
            self.next_id(), guild.id, name, GUILD_TEXT, position=len(guild.text_channels())
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_role(self, guild: FakeGuild, name: str, permissions: int) -> FakeRole:
        role = FakeRole(self.next_id(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_user(
        self,
        name: str,
        *,
        guild: FakeGuild | None = None,
        permissions: int = 0,
        roles: Sequence[FakeRole] = (),
        dms_open: bool = False,
    ) -> FakeUser:
        """A user, made a member of `guild` (default: every guild).

        `permissions` (a bit set, e.g. `discord.Permissions(manage_messages=True).value`) is
        granted through a role of its own, so the interaction `member.permissions` and
        discord.py's cached member both show it.
        """
        user = FakeUser(self.next_id(), name, dms_open=dms_open)
        self.users[user.id] = user
        for g in [guild] if guild is not None else list(self.guilds.values()):
            role_ids = [r.id for r in roles if r.guild_id == g.id]
            if permissions:
                role_ids.append(self.add_role(g, f"{name}-perms", permissions).id)
            g.members[user.id] = FakeMember(user, role_ids)
        return user

    def member(self, guild: FakeGuild, user: FakeUser) -> FakeMember:
        return guild.members[user.id]

    async def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        type: int = PRIVATE_THREAD,
        owner: FakeUser | None = None,
        thread_id: int | None = None,
        auto_archive_duration: int = 4320,
        invitable: bool = True,
    ) -> FakeChannel:
        """Create a thread under `parent` and dispatch THREAD_CREATE (what REST does too)."""
        assert parent.guild_id is not None
        guild = self.guilds[parent.guild_id]
        owner = owner or self.bot_user
        thread = FakeChannel(
            thread_id or self.next_id(),
            guild.id,
            name,
            type,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            member_ids={owner.id},
        )
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        await self.dispatch_if_connected(
            "THREAD_CREATE", thread.payload(bot_user_id=self.bot_user.id, newly_created=True)
        )
        return thread

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a channel or thread (as an admin would) and tell the bot."""
        channel.deleted = True
        if channel.guild_id is None:
            return
        guild = self.guilds[channel.guild_id]
        guild.channels.pop(channel.id, None)
        for thread in [t for t in guild.threads() if t.parent_id == channel.id]:
            thread.deleted = True
            guild.channels.pop(thread.id, None)
        if channel.is_thread:
            await self.dispatch_if_connected(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(guild.id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
            )
        else:
            await self.dispatch_if_connected("CHANNEL_DELETE", channel.payload())

    async def remove_bot_from(self, guild: FakeGuild) -> None:
        """The bot is kicked from ``guild`` (or it is deleted): GUILD_DELETE, and its channels
        answer 404 (Unknown Channel) from then on."""
        for channel in guild.channels.values():
            channel.deleted = True
        self.guilds.pop(guild.id, None)
        await self.dispatch_if_connected("GUILD_DELETE", {"id": str(guild.id)})

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient is user:
                return channel
        channel = FakeChannel(self.next_id(), None, "", DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    async def archive_thread(self, thread: FakeChannel, *, locked: bool = False) -> None:
        """Archive ``thread`` as Discord's auto-archive does once ``auto_archive_duration``
        minutes pass without a message (``locked``: as a moderator may, so that only
        Manage Threads can unarchive it), and tell the bot (THREAD_UPDATE)."""
        assert thread.is_thread, "only threads are archived"
        thread.archived, thread.locked = True, locked
        await self.dispatch_if_connected(
            "THREAD_UPDATE", thread.payload(bot_user_id=self.bot_user.id))

    async def _post_in_archived(self, channel: FakeChannel) -> None:
        """A message posted in an archived thread unarchives it, as on Discord, unless the
        thread is locked (then 50083 "Thread is archived")."""
        if not (channel.is_thread and channel.archived):
            return
        if channel.locked:
            refuse_if_archived(channel)
        channel.archived = False
        await self.dispatch_if_connected(
            "THREAD_UPDATE", channel.payload(bot_user_id=self.bot_user.id))

    def may_unarchive(self, thread: FakeChannel) -> bool:
        """Whether the bot may unarchive ``thread``: anyone who can send in it, but a locked
        thread takes Manage Threads."""
        needed = SEND_MESSAGES_IN_THREADS | (MANAGE_THREADS if thread.locked else 0)
        return self.bot_permissions_in(thread) & needed == needed

    def get_guild(self, guild_id: int) -> FakeGuild:
        guild = self.guilds.get(guild_id)
        if guild is None:
            raise unknown("Guild", core.UNKNOWN_GUILD)
        return guild

    def get_channel(self, channel_id: int) -> FakeChannel:
        channel = self.channels.get(channel_id)
        if channel is None or channel.deleted:
            raise unknown("Channel", core.UNKNOWN_CHANNEL)
        return channel

    def get_user(self, user_id: int) -> FakeUser:
        user = self.users.get(user_id)
        if user is None:
            raise unknown("User", core.UNKNOWN_USER)
        return user

    def guild_create_payload(self, guild: FakeGuild) -> JSON:
        """GUILD_CREATE as Discord sends it: all members only with the GUILD_MEMBERS intent."""
        data = guild.payload(bot_user_id=self.bot_user.id)
        if self.session is not None and not self.session.intents & GUILD_MEMBERS_INTENT:
            data["members"] = [
                m for m in data["members"] if m["user"]["id"] == str(self.bot_user.id)
            ]
        return data

    def application_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "owner": self.app_owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
        }

    def command_scope(self, guild_id: int | None) -> dict[str, JSON]:
        return self.commands.get(guild_id, {})

    def command_payload(self, body: JSON, guild_id: int | None, old: JSON | None) -> JSON:
        data = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            **body,
            "id": old["id"] if old else str(self.next_id()),
            "application_id": str(self.application_id),
            "version": str(self.next_id()),
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    # Messages ----------------------------------------------------------------------------

    def _attachments(
        self,
        channel: FakeChannel,
        body: JSON,
        files: Sequence[tuple[str, str, str | None, bytes]],
        *,
        public: bool,
    ) -> list[StoredAttachment]:
        """The uploaded files as attachments, refused as Discord refuses them: without the
        Attach Files permission in a public message (403), over 10 files or a description
        over 1,024 characters (400), a file over the upload limit (413)."""
        declared = {str(a.get("id")): a for a in body.get("attachments") or []}
        if files and public:
            self.require_bot_permissions(channel, ATTACH_FILES)
        if len(files) > MAX_ATTACHMENTS:
            raise DiscordAPIError(400, core.INVALID_FORM_BODY, "Invalid Form Body",
                                  {"files": {"_errors": [{"code": "LIMIT",
                                                          "message": "too many files"}]}})
        if any(len(data) > MAX_UPLOAD_BYTES for *_, data in files):
            raise DiscordAPIError(413, 40005, "Request entity too large")
        if any(len(a.get("description") or "") > MAX_ATTACHMENT_DESCRIPTION
               for a in declared.values()):
            raise DiscordAPIError(400, core.INVALID_FORM_BODY, "Invalid Form Body",
                                  {"attachments": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                                "message": "description"}]}})
        out: list[StoredAttachment] = []
        for index, (field_name, filename, content_type, data) in enumerate(files):
            key = field_name[len("files[") : -1] if field_name.startswith("files[") else str(index)
            meta = declared.get(key, {})
            name = meta.get("filename") or filename
            aid = self.next_id()
            out.append(
                StoredAttachment(
                    id=aid,
                    filename=name,
                    data=data,
                    content_type=content_type,
                    description=meta.get("description"),
                    url=f"{self.base_url}/attachments/{channel.id}/{aid}/{name}",
                )
            )
        return out

    def _check_limits(
        self,
        content: str | None,
        embeds: list[JSON],
        components: list[JSON],
        flags: int,
        method: str,
        path: str,
    ) -> None:
        problems = check_message(content, embeds, components, flags)
        for problem in problems:
            self.record_violation("limits", problem, method, path)
        if problems and self.reject_invalid_messages:
            raise DiscordAPIError(
                400,
                core.INVALID_FORM_BODY,
                "Invalid Form Body",
                {"_errors": [{"code": "LIMIT", "message": p} for p in problems]},
            )

    async def create_message(
        self,
        channel: FakeChannel,
        body: JSON,
        files: Sequence[tuple[str, str, str | None, bytes]] = (),
        *,
        source: str,
        visible_to: int | None = None,
        interaction: InteractionRecord | None = None,
        method: str = "",
        path: str = "",
        allow_empty: bool = False,
        author: FakeUser | None = None,
    ) -> StoredMessage:
        """Store a message the bot sends (limits-checked), and tell the gateway if public."""
        content = body.get("content") or ""
        embeds = list(body.get("embeds") or [])
        components = list(body.get("components") or [])
        flags = int(body.get("flags") or 0) & ~EPHEMERAL
        self._check_limits(content, embeds, components, flags, method, path)
        if source == "channel":  # a message the bot posts itself (not an interaction's)
            self.require_bot_permissions(channel, VIEW_CHANNEL | (
                SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES))
            await self._post_in_archived(channel)
        attachments = self._attachments(channel, body, files, public=visible_to is None)
        if not (
            allow_empty
            or content
            or embeds
            or components
            or attachments
            or body.get("sticker_ids")
            or body.get("poll")
        ):
            raise DiscordAPIError(400, core.CANNOT_SEND_EMPTY, "Cannot send an empty message")
        message = StoredMessage(
            id=self.next_id(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot_user,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags | (EPHEMERAL if visible_to is not None else 0),
            visible_to=visible_to,
            allowed_mentions=body.get("allowed_mentions"),
            source=source,
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_type = interaction.type
            message.interaction_name = interaction.name
            message.application_id = self.application_id
        self.messages[message.id] = message
        if visible_to is None:
            channel.last_message_id = message.id
            channel.message_count += 1
            await self._message_event("MESSAGE_CREATE", message)
        return message

    async def edit_message(
        self,
        message: StoredMessage,
        body: JSON,
        files: Sequence[tuple[str, str, str | None, bytes]] = (),
        method: str = "",
        path: str = "",
    ) -> None:
        """Apply an edit from the bot (limits-checked on the message as it would become)."""
        channel = self.channels[message.channel_id]
        if not message.ephemeral and channel.deleted:
            raise unknown("Channel", core.UNKNOWN_CHANNEL)
        if not message.ephemeral and not self.bot_permissions_in(channel) & VIEW_CHANNEL:
            raise DiscordAPIError(403, core.MISSING_ACCESS, "Missing Access")
        if not message.ephemeral:
            refuse_if_archived(channel)
        if (self.limit_old_message_edits and not message.ephemeral
                and dt.datetime.now(dt.UTC) - message.created_at > dt.timedelta(hours=1)):
            raise DiscordAPIError(400, core.TOO_MANY_OLD_EDITS, "Maximum number of edits to "
                                  "messages older than 1 hour reached. Try again later.")
        self._check_limits(
            body["content"] or "" if "content" in body else message.content,
            list(body["embeds"] or []) if "embeds" in body else message.embeds,
            list(body["components"] or []) if "components" in body else message.components,
            int(body.get("flags") or 0) | message.flags,
            method,
            path,
        )
        attachments = self._attachments(channel, body, files, public=not message.ephemeral)
        apply_edit(message, body, attachments, dt.datetime.now(dt.UTC))
        if not message.ephemeral:
            await self._message_event("MESSAGE_UPDATE", message)

    async def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            if self._wants_message_events():
                await self.dispatch("MESSAGE_DELETE", data)

    def _wants_message_events(self) -> bool:
        return (
            self.dispatch_message_events
            and self.session is not None
            and bool(self.session.intents & GUILD_MESSAGES_INTENT)
        )

    async def _message_event(self, event: str, message: StoredMessage) -> None:
        if message.guild_id is not None and self._wants_message_events():
            data = message.payload()
            member = self.guilds[message.guild_id].members.get(message.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
            await self.dispatch(event, data)

    # Queries -----------------------------------------------------------------------------

    def public_messages(self, channel: FakeChannel) -> list[StoredMessage]:
        """Non-deleted public messages of a channel, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]

    def ephemerals_for(
        self, user: FakeUser, channel: FakeChannel | None = None
    ) -> list[StoredMessage]:
        """Non-deleted ephemeral messages only `user` can see, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.visible_to == user.id
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]

    def visible_messages(self, user: FakeUser, channel: FakeChannel) -> list[StoredMessage]:
        """What `user` sees in `channel`: public messages plus their own ephemerals."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and m.visible_for(user)
        ]

    def last_message(
        self, channel: FakeChannel, user: FakeUser | None = None
    ) -> StoredMessage | None:
        """The newest public message in `channel` (or newest visible to `user`, if given)."""
        found = (
            self.visible_messages(user, channel)
            if user is not None
            else self.public_messages(channel)
        )
        return found[-1] if found else None

    def dms_for(self, user: FakeUser) -> list[StoredMessage]:
        return [
            m
            for m in self.messages.values()
            if (c := self.channels.get(m.channel_id)) is not None
            and c.type == DM
            and c.recipient is user
            and not m.deleted
        ]

    def threads(self, parent: FakeChannel) -> list[FakeChannel]:
        return [
            c
            for c in self.channels.values()
            if c.is_thread and c.parent_id == parent.id and not c.deleted
        ]

    # Gateway -----------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.connection is not None

    def add_session(self, session: GatewaySession) -> None:
        """A new IDENTIFY: ``session`` now gets its shard's events (replacing an older one)."""
        self.sessions.pop(session.shard, None)
        self.sessions[session.shard] = session
        self.session = session

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session whose shard holds ``guild_id`` (None: direct messages, shard 0)."""
        return session_for(self.sessions.values(), guild_id)

    def connected_to(self, guild: FakeGuild | None) -> bool:
        """Whether the session holding ``guild``'s shard is connected right now."""
        session = self.session_for(guild.id if guild is not None else None)
        return session is not None and session.connection is not None

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a dispatch (op 0) to the session whose shard holds its server (see
        :mod:`.shards`); buffered for RESUME if that session is reconnecting."""
        guild_id = guild_of(event, data)
        session = self.session_for(guild_id)
        if session is None:
            raise RuntimeError(f"no bot has identified with the fake gateway for the shard "
                               f"of guild {guild_id} ({event})")
        frame = session.frame(event, data)
        if session.connection is not None:
            await session.connection.send(frame)
        await self.notify()

    async def dispatch_if_connected(self, event: str, data: JSON) -> None:
        if self.session_for(guild_of(event, data)) is not None:
            await self.dispatch(event, data)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py reconnects and RESUMEs."""
        if self.session is not None and self.session.connection is not None:
            await self.session.connection.send({"op": 7, "d": None, "s": None, "t": None})

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the bot's websocket abruptly (as a network failure would)."""
        if self.session is not None and self.session.connection is not None:
            await self.session.connection.close(code, "dropped by test")

    async def end_session(self, code: int = 4009) -> None:
        """Close the websocket as Discord does when a session cannot go on (4009 "Session
        timed out"): discord.py tries to RESUME, is answered INVALID_SESSION (the session
        is unknown from now on) and IDENTIFYs anew. Events sent in between are lost, as
        on Discord; a bot finds its guilds again in the new READY."""
        if self.session is not None:
            self.session.session_id = f"ended-{secrets.token_hex(8)}"
            if self.session.connection is not None:
                await self.session.connection.close(code, "session timed out")

    async def invalidate_session(self) -> None:
        """Send op 9 INVALID_SESSION (not resumable) on the live connection: discord.py
        closes it and IDENTIFYs anew."""
        if self.session is not None and self.session.connection is not None:
            await self.session.connection.send({"op": 9, "d": False, "s": None, "t": None})

    # Simulated users ---------------------------------------------------------------------

    def _find_command(self, guild: FakeGuild | None, name: str) -> JSON | None:
        if guild is not None and name in self.command_scope(guild.id):
            return self.command_scope(guild.id)[name]
        return self.command_scope(None).get(name)

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """`user` runs `/command` (use "group sub" for subcommands) in `channel`.

        Option values are typed from the synced command definition (string 3, integer 4,
        boolean 5, user 6 with `resolved`, channel 7, role 8, number 10); for commands the
        bot never synced, set `require_synced_commands = False` and types are inferred.
        """
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        root, *path = command.split()
        definition = self._find_command(guild, root)
        if definition is None and self.require_synced_commands:
            raise LookupError(
                f"/{root} was never synced (synced: "
                f"{ {k: list(v) for k, v in self.commands.items()} })"
            )
        resolved: JSON = {}
        leaf = build_options(
            self,
            guild,
            leaf_definitions(definition, path) if definition else [],
            options or {},
            resolved,
        )
        data: JSON = {
            "id": definition["id"] if definition else str(self.next_id()),
            "name": root,
            "type": 1,
            "options": nest_subcommands(path, leaf, definition),
        }
        if definition is not None and "guild_id" in definition:
            data["guild_id"] = definition["guild_id"]
        if resolved:
            data["resolved"] = resolved
        record = self._new_record(APPLICATION_COMMAND, user, channel, name=command)
        return await self._send_interaction(record, data, None, wait, timeout)

    def _component_check(self, user: FakeUser, message: StoredMessage, custom_id: str) -> None:
        if message.deleted:
            raise AssertionError(f"message {message.id} is deleted; nobody can click it")
        if not message.visible_for(user):
            raise AssertionError(f"{user.name} cannot see message {message.id}")

    def _resolve_button(self, message: StoredMessage, button: str) -> str:
        for b in message.buttons:
            if b.custom_id == button:
                if b.disabled:
                    raise AssertionError(f"button {button!r} is disabled")
                return button
        for b in message.buttons:
            if b.label == button and b.custom_id is not None:
                if b.disabled:
                    raise AssertionError(f"button {button!r} is disabled")
                return b.custom_id
        raise AssertionError(
            f"no button {button!r} on message {message.id}: "
            f"{[(b.label, b.custom_id) for b in message.buttons]}"
        )

    async def click(
        self,
        user: FakeUser,
        message: StoredMessage,
        button: str,
        *,
        wait: bool = True,
        timeout: float | None = None,
        force: bool = False,
    ) -> InteractionResult:
        """`user` clicks a button (by custom id, or by label) on `message`.

        Refuses (AssertionError) what a real user could not do: clicking a missing or
        disabled button, or a message they cannot see. `force=True` skips those checks.
        """
        custom_id = button
        if not force:
            self._component_check(user, message, button)
            custom_id = self._resolve_button(message, button)
        data: JSON = {"custom_id": custom_id, "component_type": 2}
        record = self._new_record(
            MESSAGE_COMPONENT,
            user,
            self.channels[message.channel_id],
            custom_id=custom_id,
            source_message_id=message.id,
        )
        return await self._send_interaction(record, data, message, wait, timeout)

    async def select(
        self,
        user: FakeUser,
        message: StoredMessage,
        custom_id: str,
        values: Sequence[str],
        *,
        wait: bool = True,
        timeout: float | None = None,
        force: bool = False,
    ) -> InteractionResult:
        """`user` picks `values` in the select menu `custom_id` on `message`."""
        menu = next((s for s in message.selects if s.custom_id == custom_id), None)
        if not force:
            self._component_check(user, message, custom_id)
            if menu is None:
                raise AssertionError(f"no select {custom_id!r} on message {message.id}")
            if menu.disabled:
                raise AssertionError(f"select {custom_id!r} is disabled")
            allowed = {o.value for o in menu.options}
            if menu.type == 3 and not set(values) <= allowed:
                raise AssertionError(f"values {set(values) - allowed} not among the options")
            if not menu.min_values <= len(values) <= menu.max_values:
                raise AssertionError(
                    f"{len(values)} values outside {menu.min_values}..{menu.max_values}"
                )
        data: JSON = {
            "custom_id": custom_id,
            "component_type": menu.type if menu else 3,
            "values": list(values),
        }
        record = self._new_record(
            MESSAGE_COMPONENT,
            user,
            self.channels[message.channel_id],
            custom_id=custom_id,
            source_message_id=message.id,
        )
        return await self._send_interaction(record, data, message, wait, timeout)

    def _new_record(
        self, itype: int, user: FakeUser, channel: FakeChannel, **extra: Any
    ) -> InteractionRecord:
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        record = InteractionRecord(
            id=self._ids.next(ago=self.delivery_delay),
            token=f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(48)}",
            type=itype,
            user=user,
            channel=channel,
            guild=guild,
            dispatched_at=self.clock.now() - self.delivery_delay,
            **extra,
        )
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        return record

    def interaction_payload(
        self, record: InteractionRecord, data: JSON, message: StoredMessage | None
    ) -> JSON:
        guild, user, channel = record.guild, record.user, record.channel
        payload: JSON = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": record.type,
            "data": data,
            "token": record.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": {
                **channel.payload(bot_user_id=self.bot_user.id),
                "permissions": str(self._permissions(guild, user)),
            },
            "app_permissions": str(self.bot_permissions_in(channel)),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "context": 0 if guild is not None else 1,
        }
        if guild is not None:
            member = guild.members.get(user.id) or FakeMember(user)
            payload.update(
                guild_id=str(guild.id),
                guild=guild.partial_payload(),
                guild_locale="en-US",
                member={**member.payload(), "permissions": str(guild.permissions_of(user.id))},
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(user=user.payload(), authorizing_integration_owners={"1": str(user.id)})
        if message is not None:
            payload["message"] = message.payload()
        return payload

    def _permissions(self, guild: FakeGuild | None, user: FakeUser) -> int:
        if guild is None:
            return 0
        if user.id == self.bot_user.id:
            return guild.permissions_of(user.id) | self.bot_permissions
        return guild.permissions_of(user.id)

    def bot_permissions_in(self, channel: FakeChannel) -> int:
        """The bot's permissions in ``channel``: its server's, less the channel's denials."""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        if guild is None:
            return ALL_PERMISSIONS
        perms = self._permissions(guild, self.bot_user) & ~channel.bot_deny
        parent = self.channels.get(channel.parent_id) if channel.parent_id else None
        if parent is not None:
            perms &= ~parent.bot_deny
        return perms

    def require_bot_permissions(self, channel: FakeChannel, needed: int) -> None:
        """403 Missing Permissions (50013) unless the bot has every bit of ``needed`` there."""
        if self.bot_permissions_in(channel) & needed != needed:
            raise DiscordAPIError(403, core.MISSING_PERMISSIONS, "Missing Permissions")

    async def _send_interaction(
        self,
        record: InteractionRecord,
        data: JSON,
        message: StoredMessage | None,
        wait: bool,
        timeout: float | None,
    ) -> InteractionResult:
        if not self.connected_to(record.guild):
            raise RuntimeError("the bot is not connected to the fake gateway for this guild")
        record.dispatched_at = self.clock.now() - self.delivery_delay
        await self.dispatch("INTERACTION_CREATE", self.interaction_payload(record, data, message))
        result = InteractionResult(self, record)
        if wait:
            await self.wait_answered(result, timeout)
        return result

    async def wait_answered(
        self, result: InteractionResult, timeout: float | None = None
    ) -> InteractionResult:
        """Wait until the bot has called the interaction callback (or failed to in time)
        and, when the bot runs in this process, has read the reply.

        The second wait is what a person relies on: the bot has done what it does on
        hearing back from Discord (such as noting the id of the message it just posted)
        before the person's next click. Without it, which of the two runs first is the
        event loop's choice, and Python 3.11 and 3.12 choose differently.
        """
        limit = self.answer_timeout if timeout is None else timeout
        record = result.record
        try:
            async with asyncio.timeout(limit):
                await record.answered.wait()
                while record.replies_unread:
                    await record.replies_read.wait()
        except TimeoutError:
            if record.answered.is_set():
                raise InteractionNotAnswered(
                    f"the bot did not read Discord's reply to {record.name or record.custom_id!r}"
                    f" within {limit}s"
                ) from None
            self.record_violation(
                "unanswered",
                f"interaction {record.id} ({record.name or record.custom_id}) never answered",
            )
            raise InteractionNotAnswered(
                f"the bot did not answer {record.name or record.custom_id!r} within {limit}s"
            ) from None
        return result

    def describe(self, channel: FakeChannel) -> list[Any]:
        """Compact (id, visible_to, text) of every message in a channel, for debugging."""
        return summarize([m for m in self.messages.values() if m.channel_id == channel.id])


__all__ = ["FakeDiscord"]
