"""A click reaches discord.py with its message's components cut to the one clicked.

discord.py parses the clicked message's every component twice per click; the gate
(:class:`cogs.clicks.deadline.Gate`) hands it the clicked one alone
(:func:`cogs.clicks.deadline.clicked_only`). Routing still works, and a click on an id its
message does not carry (forged, or gone) is still told so.
"""

from __future__ import annotations

import copy

import pytest

from cogs import ids
from cogs.clicks.deadline import COMPONENTS_V2, clicked_only
from tests.answers import updated_the_menu
from tests.botdriver import answer_text, enabled_choices, hand_to_act, open_table, running_bot
from tests.fakediscord.fixtures import FakeWorld


def button(custom_id: str) -> dict[str, object]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


def row(*custom_ids: str) -> dict[str, object]:
    return {"type": 1, "components": [button(c) for c in custom_ids]}


def click(custom_id: str, components: list[object], flags: int = 0) -> dict[str, object]:
    return {"type": 3, "id": "1", "token": "t",
            "data": {"custom_id": custom_id, "component_type": 2},
            "message": {"id": "9", "flags": flags, "components": components}}


def test_only_the_clicked_component_is_kept_with_its_row():
    payload = click("b", [row("a", "x"), row("y", "b", "z")])
    before = copy.deepcopy(payload)
    cut = clicked_only(payload)
    assert cut["message"]["components"] == [{"type": 1, "components": [button("b")]}]
    assert payload == before  # the gateway's payload itself is left as it came
    assert {k: v for k, v in cut.items() if k != "message"} == \
        {k: v for k, v in payload.items() if k != "message"}
    assert cut["message"]["id"] == "9"


def test_a_click_on_an_id_its_message_does_not_carry_keeps_no_component():
    assert clicked_only(click("forged", [row("a", "b")]))["message"]["components"] == []
    # Same id, another kind of component: not the one clicked either.
    payload = click("a", [row("a")])
    payload["data"]["component_type"] = 3  # type: ignore[index]
    assert clicked_only(payload)["message"]["components"] == []


@pytest.mark.parametrize("payload", [
    click("a", [row("a", "b")], flags=COMPONENTS_V2),  # a layout of containers: left whole
    click("a", [{"type": 17, "components": [row("a", "b")]}]),  # not rows: left whole
    click("a", [row("a"), "junk"]),
    click("a", [{"type": 1, "components": None}]),
    {**click("a", [row("a", "b")]), "type": 2},  # a command
    {**click("a", [row("a", "b")]), "message": None},
    {**click("a", [row("a", "b")]), "data": "junk"},
    {"type": 3},
    "not a payload",
])
def test_anything_else_goes_on_as_it_came(payload: object):
    assert clicked_only(payload) is payload


async def test_a_click_is_built_with_the_clicked_button_alone_and_plays(
        fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob])
        person, menu = await hand_to_act(fake, session, [world.alice, world.bob])
        seen: dict[int, list[list[str | None]]] = {}

        async def on_interaction(interaction) -> None:
            if interaction.message is not None:
                seen[interaction.id] = [[getattr(c, "custom_id", None) for c in r.children]
                                        for r in interaction.message.components]

        bot.add_listener(on_interaction)
        card = enabled_choices(menu)[0]
        assert len(menu.buttons) > 1  # a menu of several buttons...
        version = session.version
        played = await fake.click(person, menu, card)
        assert updated_the_menu(played), played
        assert session.version > version
        assert seen[played.record.id] == [[card]]  # ...reached discord.py as the one clicked

        # A button its menu does not carry (here the Hint of a table without hints) is
        # still answered with its reason, and changes nothing.
        version = session.version
        forged = await fake.click(person, played.message or menu, ids.hint_id(session.id),
                                  force=True)
        assert seen[forged.record.id] == []
        assert "no hints" in (forged.text + answer_text(fake, forged))
        assert session.version == version
