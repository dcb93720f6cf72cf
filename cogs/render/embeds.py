"""What every embed the bot sends shares: its colour, the length of a field, and
:func:`fit`, which keeps an embed within Discord's limit."""

from __future__ import annotations

import discord

EMBED_COLOUR = discord.Colour(0x2B7A4B)
FIELD_LIMIT = 1024
"""The most characters Discord shows in one embed field."""
EMBED_BUDGET = 5800
"""What :func:`fit` keeps an embed within (Discord's limit is 6,000 characters)."""


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
