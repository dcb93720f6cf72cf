"""Cooldowns: commands that write (``/play``, ``/table``, ``/timezone``, ``/settings``) are
rate limited per person (:func:`writes`), and so are the buttons that write or ping (Play
again with ``/play``, Join and Leave: :class:`Throttle`); a refusal says when to try again
(:func:`slow_down`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from games.core.words import plural

T = TypeVar("T")
Interaction = discord.Interaction[Any]


def cooldown_key(interaction: Interaction) -> tuple[int | None, int]:
    """Cooldowns are per person and server."""
    return interaction.guild_id, interaction.user.id


def _cooldown(interaction: Interaction) -> app_commands.Cooldown | None:
    """``COMMANDS_PER_MINUTE`` uses a minute per person (0: no limit)."""
    rate = int(getattr(getattr(interaction.client, "settings", None), "commands_per_minute", 0))
    return app_commands.Cooldown(rate, 60.0) if rate > 0 else None


def writes() -> Callable[[T], T]:
    """The cooldown of a command that writes: ``COMMANDS_PER_MINUTE`` uses a minute each."""
    return app_commands.checks.dynamic_cooldown(_cooldown, key=cooldown_key)


def slow_down(retry_after: float, rate: int) -> str:
    """The refusal of a use over its limit: when to try again, and the limit."""
    return (f"not so fast: try that again in {max(1.0, retry_after):.0f} s "
            f"({plural(rate, 'use')} a minute each)")


class Throttle:
    """At most ``rate`` uses a minute per person and server, shared by every command and
    button that counts against it (0: no limit).

    One :class:`~discord.app_commands.Cooldown` per person, as the commands' own
    cooldowns; the people who have not used it for a minute are forgotten.
    """

    KEPT = 4096  # people remembered before the idle ones are forgotten

    def __init__(self, rate: int, per: float = 60.0) -> None:
        self.rate = rate
        self.per = per
        self._buckets: dict[tuple[int | None, int], app_commands.Cooldown] = {}

    def refusal(self, interaction: Interaction) -> str | None:
        """Count a use by ``interaction``'s person: None if allowed, else why not."""
        if self.rate <= 0:
            return None
        key = cooldown_key(interaction)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.KEPT:
                self._forget_idle()
            bucket = self._buckets[key] = app_commands.Cooldown(self.rate, self.per)
        retry = bucket.update_rate_limit()
        return None if retry is None else slow_down(retry, self.rate)

    def _forget_idle(self) -> None:
        """Forget the people whose limit is whole again (no use in the last minute)."""
        now = time.time()
        for key, bucket in list(self._buckets.items()):
            if bucket.get_tokens(now) >= self.rate:
                del self._buckets[key]


__all__ = ["Throttle", "cooldown_key", "slow_down", "writes"]
