"""The words every message uses, so that no module types them again: a reason as a
sentence (:func:`sentence`), counted words (:func:`plural`, the rules core's
:func:`games.core.words.plural`), text cut to a field (:func:`clip`), a person's name made
safe for markdown and back (:func:`safe_name`, :func:`display_name`,
:func:`unescaped`), and a link to a
message (:func:`jump_url`)."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.render.embeds import FIELD_LIMIT
from games.core.words import plural as plural  # counted words: one helper for every layer

CONTENT_LIMIT = 2000
"""The most characters Discord takes in a message's text (a menu is clipped to it)."""
NAME_LENGTH = 64
"""The longest display name a seat or a message keeps (before escaping)."""


def safe_name(name: str) -> str:
    """A person's display name as every message writes it: markdown escaped, so a name
    such as ``[Claim your prize](https://evil.example/x)`` or ``**admin**`` is shown as
    typed and never becomes a link, bold text or a heading.

    Names are escaped once, where the bot takes them from Discord: a seat keeps the
    escaped name, so the lobby, the table, the log lines, the result and the pictures' alt
    text all write it safely. Plain text (button labels, the drawn pictures) shows it
    back as typed with :func:`unescaped`.
    """
    return discord.utils.escape_markdown(name[:NAME_LENGTH])


def display_name(interaction: discord.Interaction[Any]) -> str:
    """The name of the person who clicked or typed, as the bot writes it everywhere:
    markdown escaped (:func:`safe_name`)."""
    user = interaction.user
    return safe_name(getattr(user, "display_name", None) or user.name)


_ESCAPE = re.compile(r"\\([\\*_`~|>#\[\]()-])")


def unescaped(text: str) -> str:
    """``text`` with the escapes of :func:`safe_name` taken out, for plain text."""
    return _ESCAPE.sub(r"\1", text) if "\\" in text else text


def clip(text: str, limit: int = FIELD_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sentence(text: str) -> str:
    """A reason or a note as a sentence: "not your turn" -> "Not your turn."."""
    return text[:1].upper() + text[1:] + "."


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """The link to a message (or, without one, to its channel), as Discord writes it."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where
