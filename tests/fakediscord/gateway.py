"""The fake gateway: one websocket per connection, one session for the bot.

Protocol (what discord.py 2.7's `gateway.py` expects):
HELLO (op 10) -> IDENTIFY (op 2) -> READY + one GUILD_CREATE per guild; HEARTBEAT (op 1) ->
HEARTBEAT_ACK (op 11); RESUME (op 6) -> replay of missed dispatches + RESUMED, or
INVALID_SESSION (op 9). Server frames are compressed as the URL's `compress=` asks:
`zlib-stream` (one zlib stream per connection, every message flushed with Z_SYNC_FLUSH) or
`zstd-stream` (one zstd stream, every message a flushed block; needs `zstandard`).
"""

from __future__ import annotations

import asyncio
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSMsgType, web

from .shards import CLOSE_INVALID_SHARD, holds, identify_shard
from .world import JSON

if TYPE_CHECKING:
    from .server import FakeDiscord

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

CLOSE_DECODE_ERROR = 4002
CLOSE_AUTH_FAILED = 4004


def _zlib_stream() -> Callable[[bytes], bytes]:
    compressor = zlib.compressobj()

    def compress(data: bytes) -> bytes:
        return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)

    return compress


def _zstd_stream() -> Callable[[bytes], bytes] | None:
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        return None
    compressor = zstandard.ZstdCompressor().compressobj()

    def compress(data: bytes) -> bytes:
        out: bytes = compressor.compress(data) + compressor.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        return out

    return compress


class GatewayConnection:
    """One websocket. Sends are serialised so the compression stream stays in order."""

    def __init__(
        self, ws: web.WebSocketResponse, compress: Callable[[bytes], bytes] | None
    ) -> None:
        self.ws = ws
        self._compress = compress
        self._lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, frame: JSON) -> None:
        raw = orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS)
        async with self._lock:
            if self.ws.closed:
                return
            if self._compress is None:
                await self.ws.send_str(raw.decode())
            else:
                await self.ws.send_bytes(self._compress(raw))

    async def close(self, code: int = 1000, message: str = "") -> None:
        await self.ws.close(code=code, message=message.encode())


@dataclass
class GatewaySession:
    """The bot's gateway session; it outlives connections so RESUME can replay events."""

    session_id: str
    intents: int
    seq: int = 0
    buffer: list[JSON] = field(default_factory=list)
    connection: GatewayConnection | None = None
    identify: JSON = field(default_factory=dict)
    shard: tuple[int, int] = (0, 1)
    """``(id, count)`` from IDENTIFY: the servers whose events this session gets."""

    def frame(self, event: str, data: JSON) -> JSON:
        self.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        del self.buffer[:-1000]
        return frame


async def handle_gateway(fake: FakeDiscord, request: web.Request) -> web.WebSocketResponse:
    """The websocket endpoint (`/gateway`)."""
    ws = web.WebSocketResponse(max_msg_size=0)
    await ws.prepare(request)
    mode = request.query.get("compress")
    compress: Callable[[bytes], bytes] | None = None
    if mode == "zlib-stream":
        compress = _zlib_stream()
    elif mode == "zstd-stream":
        compress = _zstd_stream()
        if compress is None:
            await ws.close(code=CLOSE_DECODE_ERROR, message=b"zstd-stream needs zstandard")
            return ws
    if request.query.get("encoding", "json") != "json":
        await ws.close(code=CLOSE_DECODE_ERROR, message=b"only encoding=json is supported")
        return ws
    conn = GatewayConnection(ws, compress)
    fake.gateway_connections.append(conn)
    try:
        await conn.send(
            {
                "op": OP_HELLO,
                "d": {"heartbeat_interval": fake.heartbeat_interval_ms},
                "s": None,
                "t": None,
            }
        )
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                if msg.type is WSMsgType.BINARY:
                    await conn.close(CLOSE_DECODE_ERROR, "binary frames are not supported")
                break
            await _on_frame(fake, conn, orjson.loads(msg.data))
    finally:
        for session in fake.sessions.values():
            if session.connection is conn:
                session.connection = None
        if conn in fake.gateway_connections:
            fake.gateway_connections.remove(conn)
    return ws


async def _on_frame(fake: FakeDiscord, conn: GatewayConnection, frame: JSON) -> None:
    op = frame.get("op")
    data: Any = frame.get("d")
    fake.gateway_received.append(frame)
    if op == OP_HEARTBEAT:
        await conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
    elif op == OP_IDENTIFY:
        if data.get("token") != fake.token:
            await conn.close(CLOSE_AUTH_FAILED, "Authentication failed.")
            return
        await _identify(fake, conn, data)
    elif op == OP_RESUME:
        await _resume(fake, conn, data)
    elif op == OP_REQUEST_MEMBERS:
        await _send_member_chunk(fake, data)
    # PRESENCE_UPDATE and VOICE_STATE_UPDATE are accepted and ignored.
    await fake.notify()


async def _identify(fake: FakeDiscord, conn: GatewayConnection, data: JSON) -> None:
    shard = identify_shard(data)
    if shard is None:
        await conn.close(CLOSE_INVALID_SHARD, "Invalid shard.")
        return
    session = GatewaySession(
        session_id=secrets.token_hex(16), intents=int(data.get("intents", 0)), identify=data,
        shard=shard,
    )
    session.connection = conn
    fake.add_session(session)
    fake.identify_count += 1
    guilds = [g for g in fake.guilds.values() if holds(session, g.id)]
    ready: JSON = {
        "v": 10,
        "user": fake.bot_user.client_payload(),
        "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
        "session_id": session.session_id,
        "session_type": "normal",
        "resume_gateway_url": fake.gateway_url,
        "application": {"id": str(fake.application_id), "flags": fake.application_flags},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["us-east"],
        "user_settings": {},
        "auth": {},
        "_trace": ["fakediscord"],
    }
    if "shard" in data:
        ready["shard"] = data["shard"]
    await conn.send(session.frame("READY", ready))
    for guild in guilds:
        await conn.send(session.frame("GUILD_CREATE", fake.guild_create_payload(guild)))


async def _resume(fake: FakeDiscord, conn: GatewayConnection, data: JSON) -> None:
    session = next(
        (s for s in fake.sessions.values() if s.session_id == data.get("session_id")), None
    )
    if session is None or data.get("token") != fake.token:
        await conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
        return
    fake.resume_count += 1
    session.connection = conn
    last = int(data.get("seq") or 0)
    for frame in list(session.buffer):
        if frame["s"] > last:
            await conn.send(frame)
    await conn.send(session.frame("RESUMED", {"_trace": ["fakediscord"]}))


async def _send_member_chunk(fake: FakeDiscord, data: JSON) -> None:
    guild = fake.guilds.get(int(data.get("guild_id", 0)))
    if guild is None:
        return
    payload: JSON = {
        "guild_id": str(guild.id),
        "members": [m.payload() for m in guild.members.values()],
        "chunk_index": 0,
        "chunk_count": 1,
        "not_found": [],
    }
    if data.get("nonce") is not None:
        payload["nonce"] = data["nonce"]
    await fake.dispatch("GUILD_MEMBERS_CHUNK", payload)
