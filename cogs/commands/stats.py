"""The Stats cog: ``/leaderboard`` and ``/stats``, from the results the ledger reads.

``/leaderboard game:<game> [period:]`` posts the server's board publicly (it belongs to
the server, and a shared board is what people compare and talk about): this month's
season by default, last month's (over, with its champion) or all time on request
(:mod:`bot.tables.seasons`). Its ``Previous``/``Next`` buttons are a
:class:`LeaderboardButton` routed by custom id (``ff:lb:<game>:<offset>[:<season>]``, the
season named, so a page turned next month still shows the season it showed), so they work
after a restart. The server is always the interaction's, never the id's: a forged id can
only turn the pages of the board of the server it is clicked in. ``/stats [player]``
answers privately, with where the player finished their last seasons.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.tables.ledger import Ledger
from bot.tables.seasons import season_before, season_of
from cogs import ids
from cogs.answers import NO_MENTIONS, answered_on_failure, say
from cogs.clicks import router
from cogs.commands.play import game_choices
from cogs.render.pages import PAGE_SIZE, page_start
from cogs.render.stats import Page, Season, render_leaderboard, render_stats
from cogs.render.text import display_name, safe_name

if TYPE_CHECKING:
    from bot.app import FivefoldBot

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[discord.ui.View]
RECENT = 5
SEASONS = 4
"""Past seasons ``/stats`` shows (a line each: the season, the game, the place)."""
PERIODS = [app_commands.Choice(name="This month's season", value="season"),
           app_commands.Choice(name="Last month's season", value="last"),
           app_commands.Choice(name="All time", value="all")]


def stats_of(interaction: Interaction) -> Stats | None:
    cog = interaction.client.get_cog("Stats")
    return cog if isinstance(cog, Stats) else None


class LeaderboardButton(discord.ui.DynamicItem[Button], template=ids.LEADERBOARD_TEMPLATE):
    """``Previous``/``Next`` on a leaderboard: answered by updating that message."""

    def __init__(self, game: str, offset: int, season: str | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=ids.leaderboard_id(game, offset, season),
                                           label="-"))
        self.game = game
        self.offset = offset
        self.season = season

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LeaderboardButton:
        return cls(match["game"], int(match["offset"]), match["season"])

    async def callback(self, interaction: Interaction) -> None:
        cog = stats_of(interaction)
        if cog is None:
            await say(interaction, "The leaderboards are restarting; try again.")
            return
        await cog.turn_page(interaction, self.game, self.offset, self.season)


async def dropped_page(interaction: Interaction, match: re.Match[str]) -> None:
    """A leaderboard id that is not on the clicked message (forged): a private page instead.

    The clicked message is not that leaderboard, so it is left alone; the page
    shown is of this server's board, whatever server the id was copied from.
    """
    cog = stats_of(interaction)
    if cog is None:
        await say(interaction, "The leaderboards are restarting; try again.")
        return
    await cog.turn_page(interaction, match["game"], int(match["offset"]), match["season"],
                        update=False)


class Stats(commands.Cog):
    """Leaderboards and player statistics per server."""

    def __init__(self, bot: FivefoldBot) -> None:
        self.bot = bot
        self.ledger: Ledger = bot.ledger

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardButton)
        router.add_route(ids.LEADERBOARD_TEMPLATE, dropped_page)

    async def cog_unload(self) -> None:
        router.remove_route(ids.LEADERBOARD_TEMPLATE)
        self.bot.remove_dynamic_items(LeaderboardButton)

    # --- leaderboards -------------------------------------------------------------------

    def season_now(self) -> str:
        """This month's season, on the bot's clock."""
        return season_of(self.bot.tables.clock())

    async def page(self, guild_id: int, game: str, offset: int, season: str | None = None
                   ) -> tuple[Page, int]:
        """The page of ``game``'s board in ``guild_id`` at ``offset`` (clamped), all time or of
        ``season``, and its start."""
        rows, total = await self.ledger.leaderboard(guild_id, game, offset=offset,
                                                   limit=PAGE_SIZE, season=season)
        start = page_start(offset, total)
        if start != offset:  # past the end (the board shrank, or a forged id): the last page
            rows, total = await self.ledger.leaderboard(guild_id, game, offset=start,
                                                       limit=PAGE_SIZE, season=season)
        return render_leaderboard(game, rows, total, start,
                                  await self._season(guild_id, game, season)), start

    async def _season(self, guild_id: int, game: str, season: str | None) -> Season | None:
        """What the board says of ``season``: over or not, and its champion once over."""
        if season is None:
            return None
        if season >= self.season_now():
            return Season(season, over=False)
        top, _ = await self.ledger.leaderboard(guild_id, game, offset=0, limit=1, season=season)
        return Season(season, over=True, champion=top[0].user_id if top else None)

    @app_commands.command(name="leaderboard", description="The server's best players of a game")
    @app_commands.describe(game="The game", period="This month's season (the default), last "
                                                   "month's, or all time")
    @app_commands.choices(game=game_choices(), period=PERIODS)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, game: str,
                          period: str = "season") -> None:
        if interaction.guild_id is None:
            await say(interaction, "Leaderboards belong to a server; use this in one.")
            return
        if game not in games.names():
            await say(interaction, "I do not know that game.")
            return
        now = self.season_now()
        season = {"season": now, "last": season_before(now)}.get(period)
        async with answered_on_failure(interaction, "/leaderboard"):
            shown, _ = await self.page(interaction.guild_id, game, 0, season)
            await interaction.response.send_message(
                embed=shown.embed, view=shown.view or discord.utils.MISSING,
                allowed_mentions=NO_MENTIONS)

    async def turn_page(self, interaction: Interaction, game: str, offset: int,
                        season: str | None = None, *, update: bool = True) -> None:
        """A page click: update the clicked leaderboard (or, ``update`` False, answer privately)."""
        if interaction.guild_id is None:
            await say(interaction, "Leaderboards belong to a server.")
            return
        if game not in games.names():
            await say(interaction, "That leaderboard is not of a game I know.")
            return
        async with answered_on_failure(interaction, "a leaderboard page"):
            shown, _ = await self.page(interaction.guild_id, game, offset, season)
            if update:
                # view=None removes the buttons when everything fits on one page again.
                await interaction.response.edit_message(embed=shown.embed, view=shown.view,
                                                        allowed_mentions=NO_MENTIONS)
            else:
                await interaction.response.send_message(
                    embed=shown.embed, view=shown.view or discord.utils.MISSING,
                    allowed_mentions=NO_MENTIONS, ephemeral=True)

    # --- a player's statistics ----------------------------------------------------------

    @app_commands.command(name="stats", description="Games, wins and ratings of a player here")
    @app_commands.describe(player="Whose statistics (yourself if left out)")
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        if interaction.guild_id is None:
            await say(interaction, "Statistics are kept per server; use this in one.")
            return
        user_id = interaction.user.id if player is None else player.id
        name = display_name(interaction) if player is None else safe_name(player.display_name)
        async with answered_on_failure(interaction, "/stats"):
            stats = await self.ledger.stats(interaction.guild_id, user_id)
            recent = await self.ledger.recent_games(interaction.guild_id, user_id, limit=RECENT)
            seasons = await self.ledger.season_standings(
                interaction.guild_id, user_id, before=self.season_now(), limit=SEASONS)
            await interaction.response.send_message(
                embed=render_stats(user_id, name, stats, recent, seasons), ephemeral=True,
                allowed_mentions=NO_MENTIONS)


async def setup(bot: FivefoldBot) -> None:
    await bot.add_cog(Stats(bot))
