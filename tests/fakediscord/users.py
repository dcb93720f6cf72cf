"""Simulated users: building INTERACTION_CREATE payloads, and what came back from the bot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .messages import StoredMessage
from .world import JSON, FakeChannel, FakeGuild, FakeRole, FakeUser

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
NUMBER = 10


class InteractionNotAnswered(AssertionError):
    """The bot did not call the interaction callback within the wait timeout."""


@dataclass
class InteractionRecord:
    """Server-side state of one interaction the fake dispatched."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    dispatched_at: float
    name: str | None = None
    custom_id: str | None = None
    source_message_id: int | None = None
    response_type: int | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: JSON | None = None
    choices: list[JSON] | None = None
    error_codes: list[int] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the bot's callback request has been handled here (answer or refusal)."""
    replies_unread: int = 0
    """Callback requests of an in-process client whose reply it has not read yet."""
    replies_read: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever ``replies_unread`` falls to zero."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


class InteractionResult:
    """What the bot did with one simulated interaction. Live: it reflects later edits too.

    - response_type: the callback type (4 message, 5 deferred, 6 deferred update, 7 update,
      8 autocomplete, 9 modal), or None if the callback was refused (see error_codes).
    - message: the message the response created (4/5) or the clicked message (6/7),
      in its current state; None for a modal.
    - ephemeral: whether that message is visible only to the user.
    - followups: messages sent through the interaction webhook, oldest first. (After a
      type 5 defer, Discord turns the first followup into the deferred message; it is then
      both `message` and `followups[0]`.)
    - modal: the modal's data for a type 9 response.
    """

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self._fake = fake
        self.record = record

    def __repr__(self) -> str:
        return (
            f"<InteractionResult type={self.response_type} ephemeral={self.ephemeral} "
            f"text={self.text[:60]!r} followups={len(self.record.followup_ids)}>"
        )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def user(self) -> FakeUser:
        return self.record.user

    @property
    def response_type(self) -> int | None:
        return self.record.response_type

    @property
    def error_codes(self) -> list[int]:
        return list(self.record.error_codes)

    @property
    def message(self) -> StoredMessage | None:
        mid = self.record.original_message_id
        return None if mid is None else self._fake.messages.get(mid)

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return msg is not None and msg.ephemeral

    @property
    def deferred(self) -> bool:
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self._fake.messages[i] for i in self.record.followup_ids]

    @property
    def modal(self) -> JSON | None:
        return self.record.modal

    @property
    def choices(self) -> list[JSON] | None:
        return self.record.choices

    @property
    def text(self) -> str:
        """Visible text of the response message (empty if none)."""
        msg = self.message
        return "" if msg is None else msg.text

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        """Wait until at least `count` followups exist; return them all."""
        await self._fake.wait_for(lambda: len(self.record.followup_ids) >= count, timeout)
        return self.followups

    async def wait_until(
        self, predicate: Callable[[InteractionResult], bool], timeout: float = 5.0
    ) -> InteractionResult:
        """Wait until `predicate(self)` holds (checked after every request the bot makes)."""
        await self._fake.wait_for(lambda: predicate(self), timeout)
        return self


# Payload building ------------------------------------------------------------------------


def infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, FakeRole):
        return ROLE
    return STRING


def build_options(
    fake: FakeDiscord,
    guild: FakeGuild | None,
    definitions: list[JSON],
    values: Mapping[str, Any],
    resolved: JSON,
) -> list[JSON]:
    """Typed `data.options` for `values`, using the synced definitions when there are any."""
    by_name = {d.get("name"): d for d in definitions}
    options: list[JSON] = []
    for name, value in values.items():
        definition = by_name.get(name)
        if definitions and definition is None:
            known = sorted(map(str, by_name))
            raise KeyError(f"option {name!r} is not defined; synced options: {known}")
        otype = int(definition["type"]) if definition else infer_option_type(value)
        options.append(
            {
                "name": name,
                "type": otype,
                "value": _option_value(fake, guild, otype, value, resolved),
            }
        )
    return options


def _option_value(
    fake: FakeDiscord, guild: FakeGuild | None, otype: int, value: Any, resolved: JSON
) -> Any:
    if otype == STRING:
        return str(value)
    if otype == INTEGER:
        return int(value)
    if otype == NUMBER:
        return float(value)
    if otype == BOOLEAN:
        return bool(value)
    if otype == USER:
        user = value if isinstance(value, FakeUser) else fake.users[int(value)]
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(with_user=False)
            member["permissions"] = str(guild.permissions_of(user.id))
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if otype == CHANNEL:
        channel = value if isinstance(value, FakeChannel) else fake.channels[int(value)]
        data = channel.payload()
        data["permissions"] = str(guild.permissions_of(fake.bot_user.id) if guild else 0)
        resolved.setdefault("channels", {})[str(channel.id)] = data
        return str(channel.id)
    if otype == ROLE:
        role: FakeRole = value
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)
    return value


def nest_subcommands(path: list[str], options: list[JSON], command: JSON | None) -> list[JSON]:
    """Wrap leaf options in SUB_COMMAND (and SUB_COMMAND_GROUP) options for `a b c` paths."""
    if not path:
        return options
    definitions = (command or {}).get("options") or []
    definition = next((d for d in definitions if d.get("name") == path[0]), None)
    otype = SUB_COMMAND_GROUP if len(path) > 1 else SUB_COMMAND
    if definition is not None:
        otype = int(definition["type"])
    return [
        {"name": path[0], "type": otype, "options": nest_subcommands(path[1:], options, definition)}
    ]


def leaf_definitions(command: JSON | None, path: list[str]) -> list[JSON]:
    """The option definitions of the (sub)command at `path` below `command`."""
    node = command
    for name in path:
        if node is None:
            return []
        node = next((d for d in node.get("options") or [] if d.get("name") == name), None)
    return list((node or {}).get("options") or [])
