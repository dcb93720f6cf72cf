"""The bot's own static view (cogs.render.static_view.StaticView) writes what
discord.py's View would.

Every message with buttons is sent with a StaticView, which lays its buttons out itself
instead of through discord.py's items: these tests hold its components equal to those of
a discord.py ``View`` given the same buttons, including where discord.py refuses a layout,
and check that discord.py's send paths take it as a view it neither keeps nor times.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.render.static_view import StaticButton, StaticView, button

STYLES = [discord.ButtonStyle.primary, discord.ButtonStyle.secondary,
          discord.ButtonStyle.success, discord.ButtonStyle.danger]


def as_discord(buttons: list[StaticButton]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(discord.ui.Button(label=b.label, custom_id=b.custom_id, style=b.style,
                                        disabled=b.disabled, row=b.row))
    return view


def outcome(make: Any) -> Any:
    """The components made, or the kind of error discord.py's rules raise."""
    try:
        return make().to_components()
    except ValueError:
        return ValueError


buttons = st.lists(
    st.builds(StaticButton, label=st.text(min_size=0, max_size=6),
              custom_id=st.text(min_size=0, max_size=8),
              style=st.sampled_from(STYLES), disabled=st.booleans(),
              row=st.one_of(st.none(), st.integers(0, 4))),
    max_size=27)


@settings(max_examples=300, deadline=None)
@given(buttons)
def test_the_components_are_discord_pys_for_any_buttons(given_buttons):
    ours = outcome(lambda: StaticView(given_buttons))
    theirs = outcome(lambda: as_discord(given_buttons))
    assert ours == theirs


def test_a_hand_menus_layout_rows_and_free_places():
    cards = [button(f"card {i}", f"c{i}", row=i // 5) for i in range(7)]
    rest = [button("Hint", "h"), button("Refresh", "r", disabled=True)]
    components = StaticView(cards + rest).to_components()
    assert components == as_discord(cards + rest).to_components()
    assert [[c["custom_id"] for c in row["components"]] for row in components] == [
        ["c0", "c1", "c2", "c3", "c4"], ["c5", "c6", "h", "r"]]


def test_a_row_out_of_range_is_refused_as_discord_py_refuses_it():
    with pytest.raises(ValueError):
        StaticView([button("x", "x", row=5)])
    with pytest.raises(ValueError):
        as_discord([button("x", "x", row=5)])


def test_labels_are_plain_text_and_clipped():
    b = button(r"\*\*Ann\*\*" + "x" * 100, "id")
    assert b.label.startswith("**Ann**") and len(b.label) == 80


def test_the_children_read_as_discord_py_items():
    view = StaticView([button("Play", "p", style=discord.ButtonStyle.success, disabled=True)])
    (child,) = view.children
    assert isinstance(child, discord.ui.Button)
    assert (child.label, child.custom_id, child.style, child.disabled) == (
        "Play", "p", discord.ButtonStyle.success, True)


async def test_discord_py_sends_it_and_never_keeps_it():
    view = StaticView([button("Play", "p")])
    assert view.is_finished() and not view.is_dispatchable() and view.timeout is None
    with pytest.raises(AttributeError):
        view.timeout = 60.0
    with handle_message_parameters(content="x", view=view) as params:
        assert params.payload["components"] == as_discord(view.buttons).to_components()
    params = interaction_message_response_params(type=7, content="x", view=view)
    assert params.payload["data"]["components"] == view.to_components()
