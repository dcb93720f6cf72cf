"""A game's rules in short sections a phone can read, and the buttons between them.

The sections are cut from each game's rules summary, so a new game gets them for free:

- ``overview``: the pitch, the goal, who may play (the summary's first line says it), the
  cards and how points are won
  (the first page a player reads, so the scoring is on it);
- ``play``, ``play2`` ...: the rules' points, a few to a page (at most
  :data:`PAGE_CHARS` characters);
- ``options``: each option with its meaning, what it allows and its default.

Custom ids name the game and the section only (``ff:rules:<game>:<section>``), so
the buttons work for anyone, after a restart too.
"""

from __future__ import annotations

import discord

import games
from cogs import ids
from cogs.options import game_specs
from cogs.render.static_view import StaticView, button
from cogs.render.text import clip
from games.core.option_words import allowed

PAGE_CHARS = 650
"""The longest page of rules: about a phone screen."""
SECTION_LABELS = {"overview": "Overview", "play": "How to play", "options": "Options"}


def _paged(points: list[str]) -> list[str]:
    """The points grouped into pages of at most :data:`PAGE_CHARS` (a longer point alone)."""
    pages: list[list[str]] = [[]]
    for point in points:
        if pages[-1] and len("\n".join([*pages[-1], point])) > PAGE_CHARS:
            pages.append([])
        pages[-1].append(point)
    return ["\n".join(page) for page in pages if page]


def _options_page(game: str) -> str:
    model = games.get(game).options_model
    lines = []
    for spec in game_specs(game):
        lines.append(f"- **{spec.name}**: {spec.meaning}. Takes {allowed(model, spec.name)}; "
                     f"default {spec.default_words()}.")
    lines.append("Every table also has `thread`, `pictures`, `hints` (not rated) and `timer`: "
                 f"`/play {game}` describes them.")
    return "\n".join(lines)


def sections(game: str) -> dict[str, str]:
    """``game``'s rules as sections, by their id, in reading order."""
    cls = games.get(game)
    head, *points = cls.summary.strip().split("\n- ")
    overview = "\n".join(filter(None, (f"*{cls.pitch}*" if cls.pitch else "",
                                       f"**Goal:** {cls.goal}" if cls.goal else "",
                                       head,
                                       f"**Scoring:** {cls.scoring}" if cls.scoring else "")))
    out = {"overview": overview}
    for number, page in enumerate(_paged([f"- {p}" for p in points]), start=1):
        out["play" if number == 1 else f"play{number}"] = page
    out["options"] = _options_page(game)
    return out


def _label(section: str) -> str:
    if section in SECTION_LABELS:
        return SECTION_LABELS[section]
    return f"{SECTION_LABELS['play']} ({section.removeprefix('play')})"


def rules_page(game: str, section: str = "overview") -> tuple[str, discord.ui.View]:
    """One section of ``game``'s rules and the buttons to every section (this one off).

    An unknown section (an old or forged button) shows the overview.
    """
    cls = games.get(game)
    pages = sections(game)
    if section not in pages:
        section = "overview"
    text = clip(f"**{cls.title}: {_label(section).lower()}**\n{pages[section]}", 2000)
    view = StaticView([
        button(_label(name), ids.rules_id(game, name), disabled=name == section,
               style=discord.ButtonStyle.primary if name == section
               else discord.ButtonStyle.secondary)
        for name in pages
    ])
    return text, view


__all__ = ["PAGE_CHARS", "SECTION_LABELS", "rules_page", "sections"]
