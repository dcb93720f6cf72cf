"""The leaderboard page and the ``/stats`` card, rendered from the ledger's rows only.

Players appear as mentions (``<@id>``) so Discord shows their current names;
every message built here is sent with ``AllowedMentions.none()``, so a
leaderboard never pings anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

import games
from bot.models import GameStats, LeaderRow, RecentGame, SeasonStanding
from bot.tables.seasons import season_words
from cogs import ids
from cogs.render.embeds import EMBED_COLOUR
from cogs.render.pages import PAGE_SIZE
from cogs.render.static_view import StaticView, button
from cogs.render.text import clip, plural

RATING_NOTE = "Rating: OpenSkill, 1000 for a new player; only games with two or more people count."


@dataclass
class Page:
    """One leaderboard page as sent: an embed and, when there is anything to page, buttons."""

    embed: discord.Embed
    view: discord.ui.View | None


def win_rate(games_played: int, wins: int) -> str:
    """``wins`` out of ``games_played`` as a whole percentage ("60%"), "-" with no games."""
    return f"{round(100 * wins / games_played)}%" if games_played else "-"


def ordinal(place: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def leader_line(place: int, row: LeaderRow) -> str:
    return (f"**{place}.** <@{row.user_id}> · **{row.rating:.0f}** · "
            f"{plural(row.games, 'game')}, {plural(row.wins, 'win')} "
            f"({win_rate(row.games, row.wins)})")


@dataclass(frozen=True)
class Season:
    """Which season a leaderboard shows, and whether it is over (and who won it)."""

    season: str  # YYYY-MM
    over: bool
    champion: int | None = None  # the first of a season that is over


def season_note(season: Season) -> str:
    """What a season's board says of the season, under its players."""
    words = season_words(season.season)
    if not season.over:
        return (f"The {words} season ends with the month (UTC); a new one starts afresh, and "
                "all-time ratings never reset (period: All time).")
    champion = f" Its champion: <@{season.champion}>." if season.champion else ""
    return f"The {words} season is over.{champion} This month's: period: This month."


def render_leaderboard(game: str, rows: list[LeaderRow], total: int, offset: int,
                       season: Season | None = None) -> Page:
    """The page of ``game``'s leaderboard that starts at ``offset`` (``rows`` are its players):
    all time, or of ``season``."""
    title = games.get(game).title
    scope = "all time" if season is None else f"{season_words(season.season)} season"
    embed = discord.Embed(title=f"{title} leaderboard · {scope}", colour=EMBED_COLOUR)
    if season is not None:
        embed.add_field(name="Season", value=season_note(season), inline=False)
    if not rows:
        embed.description = (
            f"Nobody is on the {title} leaderboard yet{' this season' if season else ''}. "
            f"Finish a game of {title} with at least two people (computer players may fill "
            f"the other seats) to get on it: `/play {game}`."
        )
        return Page(embed, None)
    embed.description = clip("\n".join(
        leader_line(offset + i + 1, row) for i, row in enumerate(rows)), 4096)
    pages = (total + PAGE_SIZE - 1) // PAGE_SIZE
    page = offset // PAGE_SIZE + 1
    embed.set_footer(text=f"Page {page} of {pages} · {plural(total, 'rated player')}. "
                          f"{RATING_NOTE}")
    if pages == 1:
        return Page(embed, None)
    previous = max(0, offset - PAGE_SIZE)
    following = offset + PAGE_SIZE
    key = None if season is None else season.season
    buttons = [
        # Distinct ids even when disabled: on the first page Previous names page 1 itself.
        button("Previous", ids.leaderboard_id(game, previous, key), disabled=offset == 0),
        button("Next", ids.leaderboard_id(game, following, key), disabled=following >= total),
    ]
    return Page(embed, StaticView(buttons))


def stats_line(stat: GameStats) -> str:
    rating = (f"rating **{stat.rating:.0f}**" if stat.rating is not None
              else "not rated yet (rated games have two or more people)")
    return (f"{plural(stat.games, 'game')}, {plural(stat.wins, 'win')} "
            f"({win_rate(stat.games, stat.wins)})\n{rating}")


def recent_line(game: RecentGame) -> str:
    title = games.get(game.game).title if game.game in games.names() else game.game
    stamp = int(game.finished_at.timestamp())
    return (f"{title} · {ordinal(game.place)} of {game.players} · {plural(game.score, 'pt')} · "
            f"<t:{stamp}:R>")


def standing_line(stat: SeasonStanding) -> str:
    """``May 2026 · Fiasco · 1st of 8 · rating 1130``."""
    title = games.get(stat.game).title if stat.game in games.names() else stat.game
    return (f"{season_words(stat.season)} · {title} · {ordinal(stat.place)} of "
            f"{stat.players} · rating {stat.rating:.0f}")


def render_stats(user_id: int, name: str, stats: list[GameStats], recent: list[RecentGame],
                 seasons: Sequence[SeasonStanding] = ()) -> discord.Embed:
    """A player's games, wins, win rate and rating per game here, their latest games, and
    where they finished the last seasons."""
    embed = discord.Embed(title=clip(f"{name}'s card games here", 256), colour=EMBED_COLOUR)
    if not stats:
        embed.description = (f"<@{user_id}> has not finished a game in this server yet. "
                             "`/play` opens a table.")
        return embed
    played = sum(s.games for s in stats)
    won = sum(s.wins for s in stats)
    embed.description = (f"<@{user_id}>: {plural(played, 'game')}, {plural(won, 'win')} "
                         f"({win_rate(played, won)}) in all.")
    for stat in stats[:20]:
        title = games.get(stat.game).title if stat.game in games.names() else stat.game
        embed.add_field(name=title, value=stats_line(stat), inline=True)
    if recent:
        embed.add_field(name="Recent games",
                        value=clip("\n".join(recent_line(g) for g in recent)), inline=False)
    if seasons:  # the end of each season, as an event of the player's history here
        embed.add_field(name="Past seasons",
                        value=clip("\n".join(standing_line(s) for s in seasons)), inline=False)
    embed.set_footer(text=RATING_NOTE)
    return embed
