"""A Fizzbin player's own draw is named to them in their menu, and to nobody else.

The table says "bob draws a card from the stack"; among seven cards the drawer should
not have to find the new one: their menu says "You drew ♦️6." The other player's menu
and the public table never name it.
"""

from __future__ import annotations

from pathlib import Path

from tests.answers import updated_the_menu
from tests.botdriver import open_table, running_bot, table_message, wait_settled
from tests.fakediscord.fixtures import FakeWorld


async def test_the_drawer_alone_is_told_the_card_they_drew(fake_world: FakeWorld,
                                                           tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    people = {world.alice.id: world.alice, world.bob.id: world.bob}
    async with running_bot(fake, tmp_path, seed_source=lambda: 5) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fizzbin",
                                   people=[world.bob], options={"time": "day"})
        game = session.game
        assert game is not None and game.to_act is not None
        seat = game.to_act
        drawer = people[session.seats[seat].user_id or 0]
        other = next(u for u in people.values() if u is not drawer)
        theirs = (await fake.click(other, table_message(fake, session), "Show my hand")).message
        mine = (await fake.click(drawer, table_message(fake, session), "Show my hand")).message
        assert mine is not None and theirs is not None
        before = list(game.holding(seat))  # type: ignore[attr-defined]

        drawn = await fake.click(drawer, mine, "Draw from the stack")
        assert updated_the_menu(drawn), drawn
        await wait_settled(bot, session)
        game = session.game
        [card] = [c for c in game.holding(seat) if c not in before]  # type: ignore[attr-defined]
        label = game.card_label(card)
        assert f"You drew {label}." in mine.text
        assert "You drew" not in theirs.text
        table = table_message(fake, session).text
        assert "draws a card from the stack" in table and "You drew" not in table
