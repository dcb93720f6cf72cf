"""The fake REST API (`/api/v10/...`): routing, body parsing, checks, and the route handlers."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import BodyPartReader, web

from . import core
from .core import DiscordAPIError, RequestRecord, unknown
from .messages import EPHEMERAL, LOADING, StoredMessage
from .users import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    PING,
    PONG,
    UPDATE_MESSAGE,
    InteractionRecord,
)
from .world import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    GUILD_TEXT,
    JSON,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"
TOKEN_ROUTES = ("/webhooks/", "/interactions/")


@dataclass
class RestRequest:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[tuple[str, str, str | None, bytes]] = field(default_factory=list)
    """(form field, filename, content type, bytes) of each uploaded file."""

    def int_param(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise DiscordAPIError(
                400,
                50035,
                "Invalid Form Body",
                {name: {"_errors": [{"code": "NUMBER_TYPE_COERCE"}]}},
            ) from None

    @property
    def json(self) -> JSON:
        return self.body if isinstance(self.body, dict) else {}


Handler = Callable[[RestRequest], Awaitable[Any]]


def _compile(template: str) -> re.Pattern[str]:
    regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
    return re.compile("^" + regex + "$")


class RestAPI:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/{app_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/commands", self.upsert_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", self.delete_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.upsert_command),
            (
                "DELETE",
                "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
                self.delete_command,
            ),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/guilds/{guild_id}/threads/active", self.get_active_threads),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.edit_channel),
            ("DELETE", "/channels/{channel_id}", self.delete_channel),
            ("POST", "/channels/{channel_id}/typing", self.no_content),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.add_reaction,
            ),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self.create_thread_from_message,
            ),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            (
                "DELETE",
                "/channels/{channel_id}/thread-members/{user_id}",
                self.remove_thread_member,
            ),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.execute_webhook),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message),
            (
                "PATCH",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self.edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self.delete_webhook_message,
            ),
        ]
        self.routes = [(m, _compile(t), h) for m, t, h in routes]

    # Plumbing -----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else ""
        record = RequestRecord(
            method=request.method, path=path, query=dict(request.query), body=None
        )
        fake.requests.append(record)
        try:
            body, files = await _read_body(request)
            record.body, record.files = body, [(f[0], f[1], f[3]) for f in files]
            fault = fake.faults.take(record)
            response = (fault.response() if fault is not None
                        else await self._route(request, path, body, files))
        except DiscordAPIError as exc:
            record.status, record.error_code = exc.status, exc.code
            fake.errors.append(record)
            response = json_response(exc.payload(), status=exc.status)
        else:
            record.status = response.status
        await fake.notify()
        return response

    async def _route(
        self,
        request: web.Request,
        path: str,
        body: Any,
        files: list[tuple[str, str, str | None, bytes]],
    ) -> web.StreamResponse:
        fake = self.fake
        for method, pattern, handler in self.routes:
            match = pattern.match(path)
            if method != request.method or match is None:
                continue
            authorized = request.headers.get("Authorization") == f"Bot {fake.token}"
            if not path.startswith(TOKEN_ROUTES) and not authorized:
                raise DiscordAPIError(401, 0, "401: Unauthorized")
            if body is not None and request.method in ("POST", "PUT", "PATCH"):
                fake.check_openapi(request.method, path, body)
            rest_request = RestRequest(
                method=method,
                path=path,
                params=match.groupdict(),
                query=dict(request.query),
                body=body,
                files=files,
            )
            result = await handler(rest_request)
            if result is None:
                return web.Response(status=204)
            if isinstance(result, web.StreamResponse):
                return result
            return json_response(result)
        fake.record_violation(
            "unknown_route", "the fake has no such route (Discord may)", request.method, path
        )
        fake.unknown_routes.append((request.method, path))
        raise DiscordAPIError(404, 0, "404: Not Found")

    # Users, gateway, application -----------------------------------------------------------

    async def get_me(self, req: RestRequest) -> JSON:
        return self.fake.bot_user.client_payload()

    async def get_user(self, req: RestRequest) -> JSON:
        user = self.fake.users.get(req.int_param("user_id"))
        if user is None:
            raise unknown("User", core.UNKNOWN_USER)
        return user.payload()

    async def create_dm(self, req: RestRequest) -> JSON:
        return self.fake.dm_channel(self.fake.get_user(int(req.json["recipient_id"]))).payload()

    async def get_gateway(self, req: RestRequest) -> JSON:
        return {"url": self.fake.gateway_url}

    async def get_gateway_bot(self, req: RestRequest) -> JSON:
        return {
            "url": self.fake.gateway_url,
            "shards": self.fake.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def get_application(self, req: RestRequest) -> JSON:
        return self.fake.application_payload()

    # Commands ------------------------------------------------------------------------------

    def _check_app(self, req: RestRequest) -> int | None:
        if req.int_param("app_id") != self.fake.application_id:
            raise DiscordAPIError(403, 50001, "Missing Access")
        guild_id = req.params.get("guild_id")
        if guild_id is not None:
            self.fake.get_guild(int(guild_id))
            return int(guild_id)
        return None

    async def list_commands(self, req: RestRequest) -> list[JSON]:
        return list(self.fake.command_scope(self._check_app(req)).values())

    async def put_commands(self, req: RestRequest) -> list[JSON]:
        guild_id = self._check_app(req)
        if not isinstance(req.body, list):
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        old = self.fake.command_scope(guild_id)
        new = {
            c["name"]: self.fake.command_payload(c, guild_id, old.get(c["name"])) for c in req.body
        }
        self.fake.commands[guild_id] = new
        self.fake.sync_count += 1
        return list(new.values())

    async def upsert_command(self, req: RestRequest) -> JSON:
        guild_id = self._check_app(req)
        scope = self.fake.commands.setdefault(guild_id, {})
        command = self.fake.command_payload(req.json, guild_id, scope.get(req.json["name"]))
        scope[command["name"]] = command
        return command

    async def delete_command(self, req: RestRequest) -> None:
        scope = self.fake.command_scope(self._check_app(req))
        for name, command in list(scope.items()):
            if command["id"] == req.params["command_id"]:
                del scope[name]
                return
        raise unknown("application command", core.UNKNOWN_APPLICATION_COMMAND)

    # Guilds and channels -------------------------------------------------------------------

    async def get_guild(self, req: RestRequest) -> JSON:
        guild = self.fake.get_guild(req.int_param("guild_id"))
        data = self.fake.guild_create_payload(guild)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return data

    async def get_guild_channels(self, req: RestRequest) -> list[JSON]:
        guild = self.fake.get_guild(req.int_param("guild_id"))
        return [c.payload() for c in guild.text_channels()]

    async def get_member(self, req: RestRequest) -> JSON:
        guild = self.fake.get_guild(req.int_param("guild_id"))
        member = guild.members.get(req.int_param("user_id"))
        if member is None:
            raise DiscordAPIError(404, 10007, "Unknown Member")
        return member.payload()

    async def get_active_threads(self, req: RestRequest) -> JSON:
        guild = self.fake.get_guild(req.int_param("guild_id"))
        bot_id = self.fake.bot_user.id
        threads = [t for t in guild.threads() if not t.archived]
        return {"threads": [t.payload(bot_user_id=bot_id) for t in threads], "members": []}

    async def get_channel(self, req: RestRequest) -> JSON:
        channel = self.fake.get_channel(req.int_param("channel_id"))
        return channel.payload(bot_user_id=self.fake.bot_user.id)

    async def edit_channel(self, req: RestRequest) -> JSON:
        channel = self.fake.get_channel(req.int_param("channel_id"))
        body = req.json
        self._check_unarchive(channel, body)
        for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "invitable"):
            if key in body and body[key] is not None:
                setattr(channel, key, body[key])
        payload = channel.payload(bot_user_id=self.fake.bot_user.id)
        await self.fake.dispatch_if_connected(
            "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload
        )
        return payload

    def _check_unarchive(self, channel: FakeChannel, body: JSON) -> None:
        """An archived thread takes only its unarchiving, which a locked one allows only
        with Manage Threads (403 Missing Permissions otherwise)."""
        if not (channel.is_thread and channel.archived):
            return
        if body.get("archived") is not False:
            raise DiscordAPIError(400, core.THREAD_ARCHIVED, "Thread is archived")
        if not self.fake.may_unarchive(channel):
            raise DiscordAPIError(403, core.MISSING_PERMISSIONS, "Missing Permissions")

    async def delete_channel(self, req: RestRequest) -> JSON:
        channel = self.fake.get_channel(req.int_param("channel_id"))
        await self.fake.delete_channel(channel)
        return channel.payload()

    async def no_content(self, req: RestRequest) -> None:
        self.fake.get_channel(req.int_param("channel_id"))

    # Channel messages ----------------------------------------------------------------------

    def _channel_message(self, req: RestRequest) -> tuple[FakeChannel, StoredMessage]:
        channel = self.fake.get_channel(req.int_param("channel_id"))
        message = self.fake.messages.get(req.int_param("message_id"))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral
        ):
            # Ephemeral messages are not reachable through channel routes.
            raise unknown("Message", core.UNKNOWN_MESSAGE)
        return channel, message

    async def list_messages(self, req: RestRequest) -> list[JSON]:
        channel = self.fake.get_channel(req.int_param("channel_id"))
        messages = [m for m in self.fake.public_messages(channel)]
        if "before" in req.query:
            messages = [m for m in messages if m.id < int(req.query["before"])]
        if "after" in req.query:
            messages = [m for m in messages if m.id > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        newest_first = sorted(messages, key=lambda m: m.id, reverse=True)
        if "after" in req.query:
            newest_first = newest_first[-limit:]
        return [m.payload() for m in newest_first[:limit]]

    async def create_message(self, req: RestRequest) -> JSON:
        channel = self.fake.get_channel(req.int_param("channel_id"))
        if channel.type == DM:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise DiscordAPIError(403, core.CANNOT_DM_USER, "Cannot send messages to this user")
        body = req.json
        message = await self.fake.create_message(
            channel,
            body,
            req.files,
            source="channel",
            method=req.method,
            path=req.path,
        )
        if body.get("message_reference"):
            message.reference = body["message_reference"]
        return message.payload()

    async def get_message(self, req: RestRequest) -> JSON:
        return self._channel_message(req)[1].payload()

    async def edit_message(self, req: RestRequest) -> JSON:
        _, message = self._channel_message(req)
        if message.author.id != self.fake.bot_user.id:
            raise DiscordAPIError(
                403, core.CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user"
            )
        await self.fake.edit_message(message, req.json, req.files, req.method, req.path)
        return message.payload()

    async def delete_message(self, req: RestRequest) -> None:
        _, message = self._channel_message(req)
        await self.fake.delete_message(message)

    async def add_reaction(self, req: RestRequest) -> None:
        _, message = self._channel_message(req)
        self.fake.reactions.append((message.id, req.params["emoji"]))

    # Threads -------------------------------------------------------------------------------

    async def create_thread(self, req: RestRequest) -> JSON:
        parent = self.fake.get_channel(req.int_param("channel_id"))
        body = req.json
        thread_type = int(body.get("type") or PRIVATE_THREAD)
        if thread_type not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise DiscordAPIError(400, core.INVALID_FORM_BODY, "Invalid Form Body")
        self.fake.require_bot_permissions(parent, CREATE_PUBLIC_THREADS
                                          if thread_type == PUBLIC_THREAD
                                          else CREATE_PRIVATE_THREADS)
        thread = await self._new_thread(parent, body, thread_type, None)
        return thread.payload(bot_user_id=self.fake.bot_user.id)

    async def create_thread_from_message(self, req: RestRequest) -> JSON:
        parent, message = self._channel_message(req)
        if message.id in self.fake.channels:
            raise DiscordAPIError(
                400,
                core.THREAD_ALREADY_CREATED,
                "A thread has already been created for this message",
            )
        thread = await self._new_thread(parent, req.json, PUBLIC_THREAD, message.id)
        return thread.payload(bot_user_id=self.fake.bot_user.id)

    async def _new_thread(
        self, parent: FakeChannel, body: JSON, thread_type: int, thread_id: int | None
    ) -> FakeChannel:
        if parent.type != GUILD_TEXT:
            raise DiscordAPIError(
                400, core.INVALID_CHANNEL_TYPE, "Cannot execute action on this channel type"
            )
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise DiscordAPIError(
                400,
                core.INVALID_FORM_BODY,
                "Invalid Form Body",
                {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}},
            )
        return await self.fake.add_thread(
            parent,
            name,
            type=thread_type,
            thread_id=thread_id,
            owner=self.fake.bot_user,
            auto_archive_duration=int(body.get("auto_archive_duration") or 4320),
            invitable=bool(body.get("invitable", True)),
        )

    async def add_thread_member(self, req: RestRequest) -> None:
        thread = self.fake.get_channel(req.int_param("channel_id"))
        uid = self.fake.bot_user.id if req.params["user_id"] == "@me" else req.int_param("user_id")
        thread.member_ids.add(uid)

    async def remove_thread_member(self, req: RestRequest) -> None:
        thread = self.fake.get_channel(req.int_param("channel_id"))
        uid = self.fake.bot_user.id if req.params["user_id"] == "@me" else req.int_param("user_id")
        thread.member_ids.discard(uid)

    # Interactions --------------------------------------------------------------------------

    async def callback(self, req: RestRequest) -> JSON | None:
        fake = self.fake
        record = fake.interactions.get(req.int_param("interaction_id"))
        if record is None or record.token != req.params["token"]:
            raise unknown("interaction", core.UNKNOWN_INTERACTION)
        try:
            return await self._callback(record, req)
        except DiscordAPIError as exc:
            record.error_codes.append(exc.code)
            raise
        finally:
            record.answered.set()

    async def _callback(self, record: InteractionRecord, req: RestRequest) -> JSON | None:
        fake = self.fake
        if record.acknowledged:
            fake.record_violation(
                "double_response", f"interaction {record.id} answered twice", req.method, req.path
            )
            raise DiscordAPIError(
                400, core.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        elapsed = fake.clock.now() - record.dispatched_at
        if elapsed > fake.response_deadline:
            fake.record_violation(
                "late_response",
                f"interaction {record.id} answered after {elapsed:.2f}s "
                f"(limit {fake.response_deadline}s)",
                req.method,
                req.path,
            )
            raise unknown("interaction", core.UNKNOWN_INTERACTION)
        body = req.json
        ctype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        component = record.type == MESSAGE_COMPONENT
        allowed = {
            PONG: record.type == PING,
            CHANNEL_MESSAGE: record.type != PING,
            DEFERRED_CHANNEL_MESSAGE: record.type != PING,
            DEFERRED_UPDATE_MESSAGE: component,
            UPDATE_MESSAGE: component,
            AUTOCOMPLETE_RESULT: record.type == 4,
            MODAL: record.type in (APPLICATION_COMMAND, MESSAGE_COMPONENT),
        }
        if not allowed.get(ctype, False):
            fake.record_violation(
                "bad_request",
                f"callback type {ctype} is invalid for interaction type {record.type}",
                req.method,
                req.path,
            )
            raise DiscordAPIError(
                400,
                core.INVALID_FORM_BODY,
                "Invalid Form Body",
                {"type": {"_errors": [{"code": "INTERACTION_TYPE_INVALID"}]}},
            )
        message: StoredMessage | None = None
        if ctype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0)
            if ctype == DEFERRED_CHANNEL_MESSAGE:
                data = {"content": "", "flags": (flags & EPHEMERAL) | LOADING}
            message = await fake.create_message(
                record.channel,
                data,
                req.files,
                source="interaction",
                visible_to=record.user.id if flags & EPHEMERAL else None,
                interaction=record,
                method=req.method,
                path=req.path,
                allow_empty=ctype == DEFERRED_CHANNEL_MESSAGE,
            )
            record.original_message_id = message.id
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            assert record.source_message_id is not None
            message = fake.messages[record.source_message_id]
            if ctype == UPDATE_MESSAGE:
                await fake.edit_message(message, data, req.files, req.method, req.path)
            record.original_message_id = message.id
        elif ctype == MODAL:
            record.modal = data
        elif ctype == AUTOCOMPLETE_RESULT:
            record.choices = list(data.get("choices") or [])
        record.response_type = ctype
        record.responded_at = fake.clock.now()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return None
        interaction: JSON = {"id": str(record.id), "type": record.type}
        response: JSON = {"interaction": interaction}
        if message is not None:
            interaction.update(
                response_message_id=str(message.id),
                response_message_loading=bool(message.flags & LOADING),
                response_message_ephemeral=message.ephemeral,
            )
            if ctype != DEFERRED_UPDATE_MESSAGE:
                response["resource"] = {"type": ctype, "message": message.payload()}
        return response

    # Interaction webhooks ------------------------------------------------------------------

    def _webhook_record(self, req: RestRequest) -> InteractionRecord:
        fake = self.fake
        record = fake.interactions_by_token.get(req.params["token"])
        if record is None or req.int_param("app_id") != fake.application_id:
            raise unknown("Webhook", core.UNKNOWN_WEBHOOK)
        age = fake.clock.now() - record.dispatched_at
        if age > fake.token_lifetime:
            # What Discord answers for a token past its 15 minutes; a bot should never try.
            fake.record_violation(
                "expired_token",
                f"interaction {record.id}'s token used {age:.0f}s after it was issued "
                f"(it lives {fake.token_lifetime:.0f}s)",
                req.method,
                req.path,
            )
            raise DiscordAPIError(401, core.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if not record.acknowledged:
            # Discord refuses followups and edits before the interaction is acknowledged.
            raise unknown("Webhook", core.UNKNOWN_WEBHOOK)
        return record

    def _webhook_message(self, req: RestRequest, record: InteractionRecord) -> StoredMessage:
        raw = req.params["message_id"]
        mid = record.original_message_id if raw == "@original" else req.int_param("message_id")
        if mid is None or (mid != record.original_message_id and mid not in record.followup_ids):
            raise unknown("Message", core.UNKNOWN_MESSAGE)
        message = self.fake.messages.get(mid)
        if message is None or message.deleted:
            raise unknown("Message", core.UNKNOWN_MESSAGE)
        return message

    async def execute_webhook(self, req: RestRequest) -> JSON | None:
        fake = self.fake
        record = self._webhook_record(req)
        body = req.json
        original = (
            fake.messages.get(record.original_message_id)
            if record.original_message_id is not None
            else None
        )
        if (
            record.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.flags & LOADING
        ):
            # The first followup after a "thinking" defer replaces the loading message.
            await fake.edit_message(original, body, req.files, req.method, req.path)
            message = original
        else:
            flags = int(body.get("flags") or 0)
            message = await fake.create_message(
                record.channel,
                body,
                req.files,
                source="followup",
                visible_to=record.user.id if flags & EPHEMERAL else None,
                interaction=record,
                method=req.method,
                path=req.path,
            )
        record.followup_ids.append(message.id)
        if req.query.get("wait") in ("1", "true", "True"):
            return message.payload()
        return None

    async def get_webhook_message(self, req: RestRequest) -> JSON:
        record = self._webhook_record(req)
        return self._webhook_message(req, record).payload()

    async def edit_webhook_message(self, req: RestRequest) -> JSON:
        record = self._webhook_record(req)
        message = self._webhook_message(req, record)
        await self.fake.edit_message(message, req.json, req.files, req.method, req.path)
        return message.payload()

    async def delete_webhook_message(self, req: RestRequest) -> None:
        record = self._webhook_record(req)
        await self.fake.delete_message(self._webhook_message(req, record))


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord labels it: discord.py checks for `application/json` verbatim."""
    return web.Response(
        body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS), status=status,
        headers={"Content-Type": "application/json"},
    )


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, str, str | None, bytes]]]:
    """The JSON body (or multipart `payload_json`) and any uploaded files."""
    files: list[tuple[str, str, str | None, bytes]] = []
    if not request.body_exists:
        return None, files
    if request.content_type.startswith("multipart/"):
        body: Any = None
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            raw = await part.read()
            if name == "payload_json":
                body = orjson.loads(raw)
            else:
                content_type = part.headers.get("Content-Type")
                files.append((name, part.filename or name, content_type, bytes(raw)))
        return body, files
    raw_text = await request.text()
    if not raw_text:
        return None, files
    try:
        return orjson.loads(raw_text), files
    except orjson.JSONDecodeError:
        raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.") from None
