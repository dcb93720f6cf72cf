"""What reaches into discord.py's private attributes (cogs.discord_internals): an
answer or an edit sent without asking Discord for the message back (respond,
edit_message), and a click's reference cycles cut (let_go)."""

from __future__ import annotations

import gc
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.webhook.async_ import async_context

from bench.clicks import payload, state
from cogs.discord_internals import edit_message, let_go, respond
from cogs.render.static_view import StaticView, button


def _response():
    class R:
        status = 500
        reason = "Internal Server Error"

    return R()


class Adapter:
    """discord.py's webhook adapter as respond() uses it: the requests it was asked for."""

    def __init__(self, fail: bool = False) -> None:
        self.requests: list[tuple[Any, dict[str, Any]]] = []
        self.fail = fail

    async def request(self, route: Any, **kwargs: Any) -> None:
        self.requests.append((route, kwargs))
        if self.fail:
            raise discord.HTTPException(_response(), "refused")


def clicked(kind: discord.InteractionType = discord.InteractionType.component) -> Any:
    parent = SimpleNamespace(
        id=11, token="tok", _session=object(), type=kind,
        _state=SimpleNamespace(allowed_mentions=None,
                               http=SimpleNamespace(proxy=None, proxy_auth=None)))
    parent.response = discord.InteractionResponse(parent)  # type: ignore[arg-type]
    return parent


async def test_respond_sends_one_callback_asking_nothing_back_and_marks_it_answered():
    adapter, interaction = Adapter(), clicked()
    async_context.set(adapter)  # type: ignore[arg-type]
    view = StaticView([button("Play", "p")])

    await respond(interaction, "Your hand", view=view, ephemeral=True)

    ((route, kwargs),) = adapter.requests
    assert (route.method, route.url) == (
        "POST", f"{discord.http.Route.BASE}/interactions/11/tok/callback")
    assert "params" not in kwargs  # no with_response: Discord sends no message back
    assert kwargs["payload"]["type"] == 4  # CHANNEL_MESSAGE_WITH_SOURCE
    data = kwargs["payload"]["data"]
    assert data["content"] == "Your hand" and data["flags"] == 64
    assert data["components"] == view.to_components()
    assert interaction.response.is_done()
    with pytest.raises(discord.InteractionResponded):
        await respond(interaction, "again")
    assert len(adapter.requests) == 1


async def test_respond_updates_the_clicked_message_with_its_attachments():
    adapter, interaction = Adapter(), clicked()
    async_context.set(adapter)  # type: ignore[arg-type]

    await respond(interaction, "Played", update=True, view=StaticView([]), files=[])

    ((_, kwargs),) = adapter.requests
    assert kwargs["payload"]["type"] == 7  # UPDATE_MESSAGE
    assert kwargs["payload"]["data"]["attachments"] == []  # the old picture taken off
    assert "flags" not in kwargs["payload"]["data"]
    assert interaction.response.is_done()


async def test_only_a_click_or_a_form_can_update_and_a_public_answer_has_no_flags():
    adapter = Adapter()
    async_context.set(adapter)  # type: ignore[arg-type]
    command = clicked(discord.InteractionType.application_command)
    await respond(command, "Played", update=True)  # as discord.py: no message to replace
    assert adapter.requests == [] and not command.response.is_done()

    await respond(command, "The table")
    ((_, kwargs),) = adapter.requests
    assert kwargs["payload"] == {"type": 4, "data": {"tts": False, "content": "The table"}}
    assert command.response.is_done()


async def test_a_refused_respond_leaves_the_interaction_unanswered():
    adapter, interaction = Adapter(fail=True), clicked()
    async_context.set(adapter)  # type: ignore[arg-type]
    with pytest.raises(discord.HTTPException):
        await respond(interaction, "Your hand", ephemeral=True)
    assert not interaction.response.is_done()


class Http:
    def __init__(self) -> None:
        self.edits: list[tuple[int, int, dict[str, Any]]] = []

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> Any:
        self.edits.append((channel_id, message_id, params.payload))
        return {"id": str(message_id)}  # Discord's message: read by no one here


async def test_edit_message_patches_the_table_and_keeps_its_attachments_unless_told():
    http = Http()
    message = SimpleNamespace(id=7, channel=SimpleNamespace(id=3),
                              _state=SimpleNamespace(allowed_mentions=None, http=http))
    view = StaticView([button("Rules", "r")])

    await edit_message(message, content="Table", view=view,  # type: ignore[arg-type]
                       allowed_mentions=discord.AllowedMentions.none())
    await edit_message(message, content="Table", attachments=[])  # type: ignore[arg-type]

    (channel, first, kept), (_, _, cleared) = http.edits
    assert (channel, first) == (3, 7)
    assert kept["content"] == "Table" and kept["components"] == view.to_components()
    assert "attachments" not in kept and cleared["attachments"] == []


def cyclic_garbage(click: Any) -> list[str]:
    """The discord.py objects that only the collector would free after ``click`` (given a
    parsed click and the view discord.py made from its message) has run."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        click()
        gc.collect()
        return sorted({type(o).__qualname__ for o in gc.garbage
                       if type(o).__module__.startswith("discord")})
    finally:
        gc.garbage.clear()
        gc.set_debug(0)


@pytest.mark.parametrize("cut", [True, False])
def test_let_go_leaves_nothing_for_the_collector(cut: bool) -> None:
    """A click on a whole hand menu (ten buttons: the gate leaves some messages whole) and
    its answer: discord.py's interaction, response and view are freed as the last
    reference goes once :func:`let_go` has run, and only then."""
    connection = state()
    connection._add_guild(discord.Guild(data={"id": "6", "name": "g", "roles": [], "emojis": [],
                                              "stickers": [], "features": []},
                                        state=connection))
    data = payload(10)

    def click() -> None:
        interaction = discord.Interaction(data=data, state=connection)
        assert interaction.message is not None
        view = discord.ui.View.from_message(interaction.message, timeout=None)
        item = view.children[3]
        assert not interaction.response.is_done()
        if cut:
            let_go(item, interaction)
            assert not interaction.response.is_done()  # still answers the question

    left = cyclic_garbage(click)
    if cut:
        assert left == []
    else:  # the cycles are there to cut
        assert {"Interaction", "InteractionResponse", "View", "Button"} <= set(left), left
