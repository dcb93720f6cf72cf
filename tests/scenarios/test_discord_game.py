"""Whole games through the Discord layer: /play to the final table, people and computers."""

from __future__ import annotations

import random

import pytest

import games
from bot.models import TableStatus
from cogs.options import game_specs
from tests.botdriver import open_table, play_to_the_end, running_bot, table_message
from tests.fakediscord.fixtures import FakeWorld


def shortest_options(game: str) -> dict[str, object]:
    """The options that make ``game`` shortest, found generically (the lowest number, one item),
    given as a person types them into /play."""
    options: dict[str, object] = {}
    for spec in game_specs(game):
        if spec.kind == "int" and spec.minimum is not None:
            options[spec.name] = spec.minimum
        elif spec.kind == "list":
            options[spec.name] = str(spec.default[0])
    return options


@pytest.mark.parametrize("game", games.names())
async def test_a_whole_game_plays_from_play_to_the_final_table(
    game, fake_world: FakeWorld, tmp_path
):
    world = fake_world
    fake = world.fake
    cls = games.get(game)
    people = [world.alice, world.bob, world.carol][: min(3, cls.max_players)]
    computers = max(0, cls.min_players - len(people)) + (1 if len(people) < cls.max_players else 0)
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, people[0], world.table, game,
                                   people=people[1:], computers=computers,
                                   options=shortest_options(game))
        assert session.game is not None
        users = {u.id: u for u in people}
        await play_to_the_end(fake, bot, session, users, random.Random(7))
        assert session.table.status is TableStatus.FINISHED
        final = table_message(fake, session)
        assert "Game over" in final.text and "Winners" in final.text
        assert [b.label for b in final.buttons] == ["Details", "Rules"]  # no play left
        stored = await bot.store.get_table(session.id)
        assert stored is not None and stored.status is TableStatus.FINISHED
        stats = await bot.store.stats(world.guild.id, world.alice.id)
        assert [s.game for s in stats] == [game] and stats[0].games == 1
        # The channel is free again.
        again = await fake.slash(world.alice, world.table, f"play {game}")
        assert not again.ephemeral
