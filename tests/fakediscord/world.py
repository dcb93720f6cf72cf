"""The fake Discord's world: guilds, channels, threads, users, roles, and their JSON payloads.

Payload builders return the shapes Discord sends (API v10) so that discord.py's parsers
(`state.py`, `guild.py`, `channel.py`, `threads.py`, `member.py`) accept them unchanged.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# Channel types (Discord's numbering).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Permission bits used by the defaults.
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

FIXED_TIMESTAMP = "2025-01-01T00:00:00.000000+00:00"


def iso(when: dt.datetime) -> str:
    """Discord's timestamp format."""
    return when.astimezone(dt.UTC).isoformat(timespec="microseconds")


class SnowflakeFactory:
    """Monotonic snowflakes that look real (timestamp in the top bits) and never repeat."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self, ago: float = 0.0) -> int:
        """A new id, its time ``ago`` seconds in the past."""
        now_ms = int((dt.datetime.now(dt.UTC).timestamp() - ago) * 1000)
        return ((now_ms - DISCORD_EPOCH_MS) << 22) | (next(self._counter) & 0x3FFFFF)


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    dms_open: bool = False
    """Whether a DM to this user succeeds (Discord users often disable DMs)."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "avatar_decoration_data": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def client_payload(self) -> JSON:
        """The READY `user` / `GET /users/@me` shape."""
        return {
            **self.payload(),
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
            "email": None,
            "bot": True,
        }


@dataclass
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeMember:
    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = FIXED_TIMESTAMP

    def payload(self, *, with_user: bool = True) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass
class FakeChannel:
    """A guild text channel, a thread (type 11/12), or a DM channel (type 1)."""

    id: int
    guild_id: int | None
    name: str
    type: int = GUILD_TEXT
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    topic: str | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    created_at: str = FIXED_TIMESTAMP
    deleted: bool = False
    last_message_id: int | None = None
    message_count: int = 0
    member_ids: set[int] = field(default_factory=set)
    recipient: FakeUser | None = None
    # Permission bits denied to the bot here (a channel overwrite on its role); a thread
    # also has its parent's.
    bot_deny: int = 0
    # The people this channel is hidden from: a member overwrite denying View Channel each,
    # sent with the channel (GUILD_CREATE), so the bot's cache knows who cannot see it.
    hidden_from: set[int] = field(default_factory=set)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self, *, bot_user_id: int | None = None, newly_created: bool = False) -> JSON:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt_str(self.last_message_id),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": _opt_str(self.parent_id),
            "last_message_id": _opt_str(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if self.is_thread:
            data.update(
                owner_id=_opt_str(self.owner_id),
                message_count=self.message_count,
                member_count=len(self.member_ids),
                total_message_sent=self.message_count,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
            )
            if bot_user_id is not None and bot_user_id in self.member_ids:
                data["member"] = {
                    "id": str(self.id),
                    "user_id": str(bot_user_id),
                    "join_timestamp": self.created_at,
                    "flags": 0,
                }
            if newly_created:
                data["newly_created"] = True
        else:
            data.update(
                position=self.position,
                permission_overwrites=[
                    {"id": str(user_id), "type": 1, "allow": "0", "deny": str(VIEW_CHANNEL)}
                    for user_id in sorted(self.hidden_from)],
                topic=self.topic,
                default_thread_rate_limit_per_user=0,
            )
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    """Text channels and threads of this guild, by id (deleted ones removed)."""

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == GUILD_TEXT]

    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions computed the way Discord does (no channel overwrites)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def payload(self, *, bot_user_id: int) -> JSON:
        """The GUILD_CREATE payload (a full, available guild)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "features": [],
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": FIXED_TIMESTAMP,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(self.members),
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.text_channels()],
            "threads": [c.payload(bot_user_id=bot_user_id) for c in self.threads()],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "incidents_data": None,
        }

    def partial_payload(self) -> JSON:
        """The `guild` object an INTERACTION_CREATE carries."""
        return {"id": str(self.id), "locale": "en-US", "features": []}


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)
