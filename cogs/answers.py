"""Answering a person: an ephemeral reply (:func:`say`), the one place a failure is
answered with an apology instead of "This interaction failed"
(:func:`answered_on_failure`), and whether a click came from an ephemeral message
(:func:`is_ephemeral`), and how old an interaction is against the time it may take to be
answered (:func:`age`, :data:`ANSWER_BUDGET`). Used by the slash commands, the click
handlers and the messages kept in step with a table alike."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord.utils import DISCORD_EPOCH

NO_MENTIONS = discord.AllowedMentions.none()
APOLOGY = "Something went wrong on my side."
UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction that expired (or was answered) before the call."""
ANSWER_BUDGET = 1.5
"""Seconds after an interaction was created by when work must be done or be deferred:
half of Discord's 3 s, leaving room for a slow defer."""

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


def is_ephemeral(interaction: discord.Interaction[discord.Client]) -> bool:
    """Whether the clicked message is an ephemeral one (a hand menu)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord created ``interaction`` (never below 0: clocks drift)."""
    return snowflake_age(interaction.id)


def snowflake_age(snowflake: int) -> float:
    """Seconds since Discord made the id ``snowflake`` (never below 0), read from its bits
    alone: what :func:`age` gives once the interaction is built, without building it."""
    return max(0.0, time.time() - ((snowflake >> 22) + DISCORD_EPOCH) / 1000)
