"""Everything in ``cogs`` that reaches into discord.py's private attributes, kept in this
one module so that a discord.py upgrade is checked in one place.

Answers and edits sent without the message built back from Discord's answer, which the
bot never reads (:func:`respond`, :func:`edit_original`, :func:`edit_message`: they read
``interaction._state``, ``interaction._session`` and ``message._state``, and mark a
response answered by its ``_response_type``), and :func:`let_go`, which cuts the
reference cycles discord.py leaves behind a click (``_view``, ``_cs_response``,
``_parent``). For the gate that sheds late interactions (:class:`cogs.clicks.deadline.Gate`):
discord.py's gateway parsers (:func:`gateway_parsers`, ``client._connection``) and an
answer made from a raw id and token (:func:`answer_by_token`, the HTTP client's private
session). Views here are static (:class:`cogs.render.static_view.StaticView`): none
is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

Parser = Callable[[Any], None]
"""discord.py's parser of one gateway event: it takes the event's raw payload."""


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


def gateway_parsers(client: discord.Client) -> dict[str, Parser]:
    """discord.py's parser of each gateway event, by the event's name: one per name, which
    every shard of ``client`` shares (the gate wraps ``INTERACTION_CREATE``'s)."""
    parsers: dict[str, Parser] = client._connection.parsers
    return parsers


async def answer_by_token(client: discord.Client, interaction_id: int, token: str,
                          content: str, *, flags: int) -> None:
    """Answer an interaction known only by its raw id and token, with no ``Interaction``
    made for it: the same REST call discord.py's ``send_message`` makes."""
    http = client.http
    params = interaction_response_params(
        type=discord.InteractionResponseType.channel_message.value,
        data={"content": content, "flags": flags})
    await async_context.get().create_interaction_response(
        interaction_id, token, session=http._HTTPClient__session,  # type: ignore[attr-defined]
        proxy=http.proxy, proxy_auth=http.proxy_auth, params=params)
