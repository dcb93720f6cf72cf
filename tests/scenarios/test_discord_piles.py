"""A pile's top card is the same card wherever a player reads it, through the fake Discord.

The rules core lists a pile top first (``games/core/zones.py``); the hand menu's ``Take``
button, the table message's ``Piles:`` line and the table picture's alt text must all name
that card, and taking it must bring exactly it into the taker's hand. Fizzbin is the game
with piles; :func:`games_with_piles` finds every such game, so a new one is held to the
same test (or this test says it needs a driver).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import games
from games.core.game import Game
from games.core.zones import ZoneKind
from tests.answers import updated_the_menu
from tests.botdriver import (
    enabled_choices,
    open_table,
    running_bot,
    table_message,
    wait_settled,
)
from tests.custom_ids import is_action, is_card
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.world import FakeUser


def games_with_piles() -> list[str]:
    """The games whose tables hold piles, found by a seeded random playout of each."""
    found = []
    for name in games.names():
        game: Game[Any] = games.new_game(name, games.get(name).min_players, seed=3)
        rng = random.Random(3)
        for _ in range(200):
            if any(z.kind is ZoneKind.PILE for z in game.view_for(None).zones):
                found.append(name)
                break
            if game.over:
                break
            game.apply(game.to_act, rng.choice(game.legal_actions()))  # type: ignore[arg-type]
    return found


def test_fizzbin_is_the_game_with_piles() -> None:
    """Every game with piles is driven below; a new one must be added to it."""
    assert games_with_piles() == ["fizzbin"]


def button_label(message: StoredMessage, custom_id: str) -> str:
    return next(b.label or "" for b in message.buttons if b.custom_id == custom_id)


async def discard_onto(fake: FakeDiscord, user: FakeUser, table: StoredMessage,
                       pile: str) -> None:
    """``user`` draws from the stack (as long as they may) and discards their first card
    onto ``pile`` ("alice's pile", or "your pile"), by the buttons a person sees."""
    shown = await fake.click(user, table, "Show my hand")
    assert shown.message is not None
    menu = shown.message
    while (draw := next((b for b in menu.buttons if b.label == "Draw from the stack"
                         and not b.disabled), None)) is not None \
            and not any(is_card(c) for c in enabled_choices(menu)):
        drawn = await fake.click(user, menu, draw.custom_id or "")
        assert updated_the_menu(drawn), drawn
    card = next(c for c in enabled_choices(menu) if is_card(c))
    step = await fake.click(user, menu, card)
    assert updated_the_menu(step), step
    target = next(c for c in enabled_choices(menu)
                  if is_action(c) and button_label(menu, c).endswith(f"onto {pile}"))
    done = await fake.click(user, menu, target)
    assert updated_the_menu(done), done


async def test_the_top_of_a_pile_is_one_card_for_the_menu_the_table_and_the_picture(
        fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    alice, bob = world.alice, world.bob
    async with running_bot(fake, tmp_path, seed_source=lambda: 5) as bot:
        session = await open_table(fake, bot, alice, world.table, "fizzbin", people=[bob],
                                   options={"time": "day", "pictures": True})
        game = session.game
        assert game is not None
        seat_of = {alice.id: session.seat_of(alice.id), bob.id: session.seat_of(bob.id)}
        pile = seat_of[alice.id]
        assert pile is not None
        # Both discard onto alice's pile until it holds three cards and bob is to act.
        for _ in range(12):
            await wait_settled(bot, session)
            game = session.game
            if len(game.view_for(None).zone(f"pile:{pile}").cards or ()) >= 3 \
                    and game.to_act == seat_of[bob.id]:
                break
            user = alice if game.to_act == seat_of[alice.id] else bob
            await discard_onto(fake, user, table_message(fake, session),
                               "your pile" if user is alice else "alice's pile")
        else:
            raise AssertionError("alice's pile never grew to three cards")
        await bot.get_cog("TableCommands").clicks.pictures.idle()  # type: ignore[union-attr]
        await wait_settled(bot, session)
        game = session.game
        cards = game.view_for(None).zone(f"pile:{pile}").cards or ()
        top = game.pile_top(pile)  # type: ignore[attr-defined]
        assert top == cards[0] and len(cards) >= 3 and len(set(cards)) == len(cards)
        label, words = game.card_label(top), game.card_name(top)

        table = table_message(fake, session)
        assert f"alice {label} ({len(cards)})" in table.text
        picture = next(a for a in table.attachments if a.filename == "table.png")
        assert f"alice's pile ({len(cards)}): {words} on top" in (picture.description or "")

        shown = await fake.click(bob, table, "Show my hand")
        assert shown.message is not None
        menu = shown.message
        take = next(b for b in menu.buttons if (b.label or "").startswith("Take "))
        assert take.label == f"Take {label} from alice's pile"
        for other in cards[1:]:  # no card below the top is named anywhere as the top
            assert f"alice {game.card_label(other)} (" not in table.text

        taken = await fake.click(bob, menu, take.custom_id or "")
        assert updated_the_menu(taken), taken
        await wait_settled(bot, session)
        # The card taken is that top (into bob's hand, or onto his own pile when forced).
        assert session.game.view_for(None).zone(f"pile:{pile}").cards == cards[1:]
        assert f"bob draws {label} from alice's pile" in table_message(fake, session).text
