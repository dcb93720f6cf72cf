"""The message store: every message the bot created, with visibility and full edit history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from .world import JSON, FakeUser, iso


def fresh(data: Any) -> Any:
    """A deep copy of JSON data (what a request's body parsed into), for a snapshot or a
    payload no later edit reaches: the same as ``copy.deepcopy`` for such data, through
    orjson at a small part of its cost (deepcopy was a seventh of the fake's CPU under
    ``bench.bot``)."""
    return orjson.loads(orjson.dumps(data))


EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Message types.
DEFAULT = 0
CHAT_INPUT_COMMAND = 20
CONTEXT_MENU_COMMAND = 23


@dataclass
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None
    url: str

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
        }

    def text(self, encoding: str = "utf-8") -> str:
        return self.data.decode(encoding)


@dataclass
class Button:
    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    emoji: JSON | None = None
    url: str | None = None


@dataclass
class SelectOption:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass
class Select:
    custom_id: str
    type: int
    options: list[SelectOption]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool


@dataclass
class StoredMessage:
    """One message as the fake holds it. Fields always describe the current version."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    """None for a public message, else the id of the only user who can see it (ephemeral)."""
    allowed_mentions: JSON | None = None
    source: str = "channel"
    """How it was created: "channel" (REST), "interaction" (a callback), "followup"."""
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_name: str | None = None
    interaction_type: int | None = None
    application_id: int | None = None
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    edited_at: dt.datetime | None = None
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)
    """Earlier versions, oldest first: snapshots of (content, embeds, components, flags)."""
    reference: JSON | None = None

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def edit_count(self) -> int:
        return len(self.history)

    def snapshot(self) -> JSON:
        return {
            "content": self.content,
            "embeds": fresh(self.embeds),
            "components": fresh(self.components),
            "flags": self.flags,
            "attachments": [a.filename for a in self.attachments],
        }

    def visible_for(self, user: FakeUser | int | None) -> bool:
        uid = user.id if isinstance(user, FakeUser) else user
        return self.visible_to is None or self.visible_to == uid

    # Convenience views -------------------------------------------------------------------

    @property
    def text(self) -> str:
        return visible_text(self)

    @property
    def buttons(self) -> list[Button]:
        return buttons(self)

    @property
    def selects(self) -> list[Select]:
        return selects(self)

    def button(self, label_or_id: str) -> Button:
        """The button whose label or custom id is `label_or_id` (AssertionError if none)."""
        for b in self.buttons:
            if label_or_id in (b.label, b.custom_id):
                return b
        labels = [(b.label, b.custom_id) for b in self.buttons]
        raise AssertionError(f"no button {label_or_id!r} on message {self.id}; have {labels}")

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": DEFAULT,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": fresh(self.embeds),
            "components": fresh(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.reference is not None:
            data["message_reference"] = self.reference
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
            data["webhook_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["type"] = CHAT_INPUT_COMMAND if self.interaction_type == 2 else DEFAULT
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
            if self.interaction_name is not None:
                data["interaction_metadata"]["name"] = self.interaction_name
        return data


# Component and text helpers ------------------------------------------------------------------


def _walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component, depth first, including those nested in rows, containers and sections."""
    for comp in components:
        yield comp
        yield from _walk_components(comp.get("components") or [])
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def _components_of(message: StoredMessage | JSON) -> list[JSON]:
    if isinstance(message, StoredMessage):
        return message.components
    return list(message.get("components") or [])


def buttons(message: StoredMessage | JSON) -> list[Button]:
    """All buttons of a message (or of a raw message payload), in display order."""
    return [
        Button(
            custom_id=c.get("custom_id"),
            label=c.get("label"),
            style=int(c.get("style", 1)),
            disabled=bool(c.get("disabled", False)),
            emoji=c.get("emoji"),
            url=c.get("url"),
        )
        for c in _walk_components(_components_of(message))
        if c.get("type") == 2
    ]


def selects(message: StoredMessage | JSON) -> list[Select]:
    """All select menus (string, user, role, mentionable, channel) of a message."""
    return [
        Select(
            custom_id=c["custom_id"],
            type=int(c["type"]),
            options=[
                SelectOption(
                    label=o.get("label", ""),
                    value=o.get("value", ""),
                    description=o.get("description"),
                    default=bool(o.get("default", False)),
                )
                for o in c.get("options") or []
            ],
            placeholder=c.get("placeholder"),
            min_values=int(c.get("min_values", 1)),
            max_values=int(c.get("max_values", 1)),
            disabled=bool(c.get("disabled", False)),
        )
        for c in _walk_components(_components_of(message))
        if c.get("type") in (3, 5, 6, 7, 8)
    ]


def embed_texts(embed: JSON) -> list[str]:
    """The visible strings of one embed, in reading order."""
    parts: list[str] = []
    author = embed.get("author") or {}
    for value in (author.get("name"), embed.get("title"), embed.get("description")):
        if value:
            parts.append(str(value))
    for f in embed.get("fields") or []:
        parts.extend(str(v) for v in (f.get("name"), f.get("value")) if v)
    footer = embed.get("footer") or {}
    if footer.get("text"):
        parts.append(str(footer["text"]))
    return parts


def visible_text(message: StoredMessage | JSON) -> str:
    """Everything a reader sees as text: content, embeds, text-display components, labels."""
    if isinstance(message, StoredMessage):
        content, embeds = message.content, message.embeds
    else:
        content, embeds = message.get("content") or "", message.get("embeds") or []
    parts: list[str] = [content] if content else []
    for embed in embeds:
        parts.extend(embed_texts(embed))
    for comp in _walk_components(_components_of(message)):
        if comp.get("type") == 10 and comp.get("content"):
            parts.append(str(comp["content"]))
    return "\n".join(parts)


def apply_edit(
    message: StoredMessage, body: JSON, new_attachments: list[StoredAttachment], when: dt.datetime
) -> None:
    """Apply a PATCH-style edit: present keys replace, absent keys stay."""
    message.history.append(message.snapshot())
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = list(body["embeds"] or [])
    if "components" in body:
        message.components = list(body["components"] or [])
    if "allowed_mentions" in body:
        message.allowed_mentions = body["allowed_mentions"]
    if body.get("flags") is not None:
        # Only some flags can be changed by an edit; keep ephemeral and v2 as they were
        # unless v2 is being turned on.
        keep = message.flags & (EPHEMERAL | IS_COMPONENTS_V2)
        message.flags = keep | (int(body["flags"]) & ~(EPHEMERAL | LOADING))
    if "attachments" in body:
        keep_ids = {int(a["id"]) for a in body["attachments"] or [] if "id" in a}
        message.attachments = [a for a in message.attachments if a.id in keep_ids]
    message.attachments.extend(new_attachments)
    message.flags &= ~LOADING
    message.edited_at = when


def summarize(messages: list[StoredMessage]) -> list[Any]:
    """A compact view for assertion messages."""
    return [(m.id, m.visible_to, m.text[:80]) for m in messages]
