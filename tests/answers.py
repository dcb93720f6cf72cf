"""How the bot answered an interaction, in the words a test asserts with.

The bot answers every interaction once, through discord.py's ``interaction.response``;
Discord sees a callback of one type (the numbers in :mod:`tests.fakediscord.users`). A test
names the answer it expects with these helpers, never with the number:

=======================  ==============================================  ========================
helper                   what the bot called                             callback type
=======================  ==============================================  ========================
``answered_privately``   ``send_message(..., ephemeral=True)``           CHANNEL_MESSAGE
``answered_publicly``    ``send_message(...)``                           CHANNEL_MESSAGE
``updated_the_message``  ``edit_message(...)``: the clicked message      UPDATE_MESSAGE
``updated_the_menu``     the same, on a message only the clicker sees    UPDATE_MESSAGE
``deferred``             ``defer()`` on a click: edits come later        DEFERRED_UPDATE_MESSAGE
``thinking``             ``defer(thinking=True)``: a followup comes      DEFERRED_CHANNEL_MESSAGE
=======================  ==============================================  ========================

Each takes the :class:`~tests.fakediscord.InteractionResult` of a click or a command and
says whether it was answered that way: ``assert answered_privately(result), result``.
"""

from __future__ import annotations

from tests.fakediscord import InteractionResult
from tests.fakediscord.users import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
)


def answered_privately(result: InteractionResult) -> bool:
    """Answered with a new message only the person who asked sees (an ephemeral one)."""
    return result.response_type == CHANNEL_MESSAGE and result.ephemeral


def answered_publicly(result: InteractionResult) -> bool:
    """Answered with a new message everyone in the channel sees."""
    return (result.response_type == CHANNEL_MESSAGE and result.message is not None
            and not result.ephemeral)


def updated_the_message(result: InteractionResult) -> bool:
    """Answered by editing the message whose button was clicked, public or private."""
    return result.response_type == UPDATE_MESSAGE


def updated_the_menu(result: InteractionResult) -> bool:
    """Answered by editing the clicked message, one only the clicker sees: a hand menu,
    the computer chooser, a private page of the rules."""
    return updated_the_message(result) and result.ephemeral


def deferred(result: InteractionResult) -> bool:
    """A click acknowledged with nothing to show yet: the clicked message changes later,
    by an edit (slow work runs meanwhile, or another message shows the outcome)."""
    return result.response_type == DEFERRED_UPDATE_MESSAGE


def thinking(result: InteractionResult) -> bool:
    """Acknowledged with Discord's "thinking..." message, which the first followup fills."""
    return result.response_type == DEFERRED_CHANNEL_MESSAGE


__all__ = ["answered_privately", "answered_publicly", "deferred", "thinking",
           "updated_the_menu", "updated_the_message"]
