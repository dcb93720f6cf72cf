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
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Self

import discord
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

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


async def settled(running: Mapping[Any, asyncio.Task[None]] | AbstractSet[asyncio.Task[None]]
                  ) -> None:
    """Wait until ``running`` (tasks, or a mapping to them) is empty: its tasks take
    themselves out as they end, by a done callback, and may start others before they do
    (the publisher's and the live menus' edits, the hand menus' late pictures).

    Each pass gives the loop a turn after the gather: from Python 3.12 a gather of tasks
    that have all ended returns without one, so the done callbacks that take them out,
    already queued, would never run and this loop would spin for ever.
    """
    while running:
        tasks = running.values() if isinstance(running, Mapping) else running
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(0)


async def edit_original(interaction: discord.Interaction[Any], *, content: str | None = MISSING,
                        view: discord.ui.View | None = MISSING,
                        attachments: Sequence[discord.File] = MISSING,
                        allowed_mentions: discord.AllowedMentions | None = MISSING) -> None:
    """``interaction.edit_original_response(...)`` without the edited message built back
    from Discord's answer: the bot never reads it, and a hand menu of 25 buttons costs more
    to parse than to send. Views here are static (:class:`StaticView`): none is stored."""
    state = interaction._state
    with handle_message_parameters(content=content, view=view, attachments=attachments,
                                   allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=state.allowed_mentions) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session,
            proxy=state.http.proxy, proxy_auth=state.http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files)


async def edit_message(message: discord.PartialMessage | discord.Message, *,
                       content: str | None = MISSING, embed: discord.Embed | None = MISSING,
                       view: discord.ui.View | None = MISSING,
                       attachments: Sequence[discord.File] = MISSING,
                       allowed_mentions: discord.AllowedMentions | None = MISSING) -> None:
    """``message.edit(...)`` without the edited message built back from Discord's answer,
    which the publisher never reads (as :func:`edit_original` for a menu). Views here are
    static (:class:`StaticView`): none is stored."""
    state = message._state
    previous = state.allowed_mentions if content is not MISSING else None
    with handle_message_parameters(content=content, embed=embed, view=view,
                                   attachments=attachments, allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=previous) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)


def let_go(item: discord.ui.Item[Any], interaction: discord.Interaction[Any]) -> None:
    """Undo the reference cycles discord.py leaves behind a click once it is answered, so
    that its objects are freed as soon as nothing holds them rather than by the garbage
    collector.

    Two cycles, made for every click: the ``Interaction`` and its ``InteractionResponse``
    (each holds the other), which keep the clicked message, the member and every parsed
    component alive; and the view discord.py builds from the message to find the clicked
    item (each of its items holds the view). Left to the collector, a busy bot's clicks
    outlive a young collection or two, are scanned and moved up the generations, and
    are freed only by a middle or full one: a tenth of the bot's CPU and most of its
    memory per table at 500 busy tables (``docs/performance.md``).

    The response stays on the interaction, so whether it was answered can still be asked
    (a kept menu's edits do not ask: they go by the token, :func:`edit_original`); only
    its way back to the interaction is cut, and nothing answers it again.
    """
    view = item.view
    if view is not None:
        for child in view.children:
            child._view = None
    item._view = None
    response = getattr(interaction, "_cs_response", None)
    if response is not None:
        response._parent = None


UPDATABLE = (discord.InteractionType.component, discord.InteractionType.modal_submit)
"""The interactions whose answer may replace the message they came from."""


async def respond(interaction: discord.Interaction[Any], content: str | None = MISSING, *,
                  update: bool = False, embed: discord.Embed | None = MISSING,
                  view: discord.ui.View | None = MISSING,
                  files: Sequence[discord.File] = MISSING, ephemeral: bool = False,
                  allowed_mentions: discord.AllowedMentions | None = MISSING) -> None:
    """``interaction.response.send_message(...)``, or with ``update``
    ``interaction.response.edit_message(content, ..., attachments=files)``, without the
    message built back from Discord's answer.

    discord.py asks Discord for the message it sent or replaced (``with_response``) and
    makes a ``Message`` of it, which no caller here reads; Discord answers this call with
    no body instead. Like discord.py's, the call raises ``InteractionResponded`` for an
    interaction already answered and marks it answered once Discord took it; views here
    are static (:class:`StaticView`), so none is to be kept.
    """
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    flags = MISSING
    if update:
        if interaction.type not in UPDATABLE:
            return  # as discord.py: only a click or a form has a message to replace
        kind = discord.InteractionResponseType.message_update
    else:
        kind = discord.InteractionResponseType.channel_message
        if ephemeral:
            flags = discord.MessageFlags._from_value(0)
            flags.ephemeral = True
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value, content=content, embed=embed, view=view, flags=flags,
        previous_allowed_mentions=state.allowed_mentions, allowed_mentions=allowed_mentions,
        files=MISSING if update else files, attachments=files if update else MISSING)
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                  webhook_id=interaction.id, webhook_token=interaction.token)
    await async_context.get().request(
        route, session=interaction._session, proxy=state.http.proxy,
        proxy_auth=state.http.proxy_auth, payload=params.payload,
        multipart=params.multipart, files=params.files)
    response._response_type = kind


@dataclass(slots=True)
class StaticButton:
    """A button as the bot sends it: what discord.py's ``Button`` would say of it, no more.

    Its ``row`` may be set until it is laid out in a :class:`StaticView`.
    """

    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The component, as discord.py's ``Button.to_component_dict`` writes it."""
        payload: dict[str, Any] = {"type": 2, "style": self.style.value,
                                   "disabled": self.disabled}
        if self.label:
            payload["label"] = self.label
        if self.custom_id:
            payload["custom_id"] = self.custom_id
        return payload


class StaticView(discord.ui.View):
    """A view that only describes components: clicks are routed by custom id, not by it.

    Every message the bot sends with buttons has one, and a busy bot sends hundreds a
    second, so it is made for that alone: its buttons are laid out in rows once, as
    discord.py lays out a view's items (a button with a row goes there, one without to the
    first row with room; at most 25, five a row), and :meth:`to_components` writes them.
    ``discord.ui.View.__init__`` is deliberately not called: it draws a random id from the
    operating system, makes a future on the event loop and walks the class's declared
    items, all for a view that discord.py keeps and dispatches to, which this one never is
    (:meth:`is_finished`, and no item of it is dispatchable). discord.py reads a view it is
    given through :meth:`to_components`, :meth:`has_components_v2`, :meth:`is_finished`,
    :meth:`is_dispatchable` and :attr:`timeout`; those are all it needs here.
    """

    def __init__(self, buttons: Sequence[StaticButton] = ()) -> None:
        self.buttons = list(buttons)
        if len(self.buttons) > 25:
            raise ValueError("maximum number of children exceeded")
        weights = [0] * 5
        self._rows: list[int] = []
        for item in self.buttons:
            if item.row is not None:
                if not 0 <= item.row < 5:
                    raise ValueError("row cannot be negative or greater than or equal to 5")
                if weights[item.row] >= 5:
                    raise ValueError(f"item would not fit at row {item.row} (6 > 5 width)")
                row = item.row
            else:
                row = next((r for r, weight in enumerate(weights) if weight < 5), -1)
                if row < 0:
                    raise ValueError("could not find open space for item")
            weights[row] += 1
            self._rows.append(row)

    def __repr__(self) -> str:
        return f"<StaticView buttons={len(self.buttons)}>"

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        raise AttributeError("a static view never times out")

    @property
    def children(self) -> list[discord.ui.Item[Self]]:
        """The buttons as discord.py items, made when asked (nothing in the bot asks)."""
        return [discord.ui.Button(label=b.label, custom_id=b.custom_id, style=b.style,
                                  disabled=b.disabled, row=b.row) for b in self.buttons]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, top to bottom, each with its buttons in the order given."""
        rows: dict[int, list[dict[str, Any]]] = {}
        for row, item in zip(self._rows, self.buttons, strict=True):
            rows.setdefault(row, []).append(item.to_dict())
        return [{"type": 1, "components": rows[row]} for row in sorted(rows)]


def button(label: str, custom_id: str, *,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           disabled: bool = False, row: int | None = None) -> StaticButton:
    """A button; its label is plain text (Discord shows no markdown there), so a name
    escaped for messages (:func:`safe_name`) reads as it was typed."""
    return StaticButton(unescaped(label)[:80], custom_id, style, disabled, row)


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
    return _ESCAPE.sub(r"\1", text) if "\\" in text else text


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
