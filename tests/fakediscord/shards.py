"""Sharding in the fake gateway: which connection a server's events go to.

Discord gives each gateway session one shard, ``shard: [id, count]`` in IDENTIFY
(none: ``[0, 1]``), and sends a server's events (GUILD_CREATE, INTERACTION_CREATE,
...) only to the session whose shard holds it: ``(guild_id >> 22) % count``.
Events of no server (direct messages) go to shard 0. An IDENTIFY with a shard
outside its count is closed with 4010 (Invalid shard), as Discord does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .world import JSON

if TYPE_CHECKING:
    from .gateway import GatewaySession

CLOSE_INVALID_SHARD = 4010

GUILD_EVENTS_BY_ID = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
"""Dispatches whose payload is the guild itself (its id in ``id``, not ``guild_id``)."""


def shard_of(guild_id: int | None, count: int) -> int:
    """Discord's formula; a direct message (no guild) is shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def identify_shard(data: JSON) -> tuple[int, int] | None:
    """``(id, count)`` from an IDENTIFY payload (``(0, 1)`` if absent); None if invalid."""
    shard: Any = data.get("shard", [0, 1])
    if not (isinstance(shard, list) and len(shard) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)):
        return None
    shard_id, count = shard
    if count < 1 or not 0 <= shard_id < count:
        return None
    return shard_id, count


def guild_of(event: str, data: JSON) -> int | None:
    """The server a dispatch is about, or None (a direct message, the bot's own user)."""
    raw = data.get("id") if event in GUILD_EVENTS_BY_ID else data.get("guild_id")
    return None if raw is None else int(raw)


def holds(session: GatewaySession, guild_id: int | None) -> bool:
    """Whether ``session``'s shard holds ``guild_id``."""
    shard_id, count = session.shard
    return shard_of(guild_id, count) == shard_id


def session_for(sessions: Iterable[GatewaySession],
                guild_id: int | None) -> GatewaySession | None:
    """The newest of ``sessions`` whose shard holds ``guild_id``; None if no shard does."""
    found = None
    for session in sessions:
        if holds(session, guild_id):
            found = session
    return found


__all__ = [
    "CLOSE_INVALID_SHARD",
    "guild_of",
    "holds",
    "identify_shard",
    "session_for",
    "shard_of",
]
