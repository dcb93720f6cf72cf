"""Small helpers shared by the commands, the renderers and the click handlers: answering an
interaction, building static views, and the words every message uses (:func:`sentence`,
:func:`plural`, the rules core's :func:`games.core.words.plural`), so that no module types
them again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from games.core.words import plural as plural  # counted words: one helper for every layer

EMBED_COLOUR = discord.Colour(0x2B7A4B)
FIELD_LIMIT = 1024
NO_MENTIONS = discord.AllowedMentions.none()
APOLOGY = "Something went wrong on my side."
UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction that expired (or was answered) before the call."""

log = logging.getLogger(__name__)


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, as the response or (if answered already) as a followup."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=NO_MENTIONS)


@contextlib.asynccontextmanager
async def answered_on_failure(interaction: discord.Interaction[Any], what: str, *,
                              apology: str = APOLOGY) -> AsyncIterator[None]:
    """Log any failure of ``what``; the user gets ``apology``, never "This interaction failed".

    A failure to reach Discord itself is only logged: there is no one to answer.
    """
    try:
        yield
    except discord.NotFound as exc:
        if exc.code != UNKNOWN_INTERACTION:
            log.exception("%s could not be answered", what)
        else:
            # Expired before the answer reached Discord: the bot is behind. One line, no
            # traceback: under load these come in bursts, and formatting a traceback
            # for each cost more CPU than answering a click.
            log.warning("%s was answered after Discord's deadline", what)
    except discord.HTTPException:
        log.exception("%s could not be answered", what)
    except Exception:
        log.exception("%s failed", what)
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, apology)


async def settled(running: Mapping[Any, asyncio.Task[None]]) -> None:
    """Wait until ``running`` is empty: its tasks take themselves out as they end, and
    may start others before they do (the publisher's and the live menus' edits)."""
    while running:
        await asyncio.gather(*running.values(), return_exceptions=True)


async def edit_original(interaction: discord.Interaction[Any], *, content: str | None = MISSING,
                        view: discord.ui.View | None = MISSING,
                        attachments: Sequence[discord.File] = MISSING,
                        allowed_mentions: discord.AllowedMentions | None = MISSING) -> None:
    """``interaction.edit_original_response(...)`` without the edited message built back
    from Discord's answer: the bot never reads it, and a hand menu of 25 buttons costs more
    to parse than to send. Views here are static (:func:`static_view`): none is stored."""
    state = interaction._state
    with handle_message_parameters(content=content, view=view, attachments=attachments,
                                   allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=state.allowed_mentions) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session,
            proxy=state.http.proxy, proxy_auth=state.http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files)


def static_view(buttons: list[discord.ui.Button[discord.ui.View]]) -> discord.ui.View:
    """A view that only describes components: clicks are routed by custom id, not by it.

    It is stopped at once so discord.py does not keep it in its view store.
    """
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    view.stop()
    return view


def button(label: str, custom_id: str, *,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           disabled: bool = False, row: int | None = None) -> discord.ui.Button[discord.ui.View]:
    """A button; its label is plain text (Discord shows no markdown there), so a name
    escaped for messages (:func:`safe_name`) reads as it was typed."""
    return discord.ui.Button(label=unescaped(label)[:80], custom_id=custom_id, style=style,
                             disabled=disabled, row=row)


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


_ESCAPE = re.compile(r"\\([\\*_`~|>#\[\]()-])")


def unescaped(text: str) -> str:
    """``text`` with the escapes of :func:`safe_name` taken out, for plain text."""
    return _ESCAPE.sub(r"\1", text)


def clip(text: str, limit: int = FIELD_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sentence(text: str) -> str:
    """A reason or a note as a sentence: "not your turn" -> "Not your turn."."""
    return text[:1].upper() + text[1:] + "."


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def is_ephemeral(interaction: discord.Interaction[discord.Client]) -> bool:
    """Whether the clicked message is an ephemeral one (a hand menu)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


EMBED_BUDGET = 5800


def fit(embed: discord.Embed) -> discord.Embed:
    """Shorten the longest fields until the embed is within Discord's 6,000 characters."""
    while len(embed) > EMBED_BUDGET and embed.fields:
        index = max(range(len(embed.fields)), key=lambda i: len(embed.fields[i].value or ""))
        field = embed.fields[index]
        value = field.value or ""
        excess = len(embed) - EMBED_BUDGET
        keep = max(8, len(value) - excess - 1)
        if keep >= len(value):
            embed.remove_field(index)
            continue
        embed.set_field_at(index, name=field.name, value=value[:keep] + "…",
                           inline=field.inline)
    return embed
