"""Nothing shows another player's hidden cards, checked over whole games of every game.

After a game played through the fake Discord, its record is replayed step by
step to know every hand at every table version. Then every version of every
message is checked: each person's hand menus show exactly their own hand at
the version the menu was drawn for, public custom ids name no card, and public
text names no card that was never face up. A person watching the game (``Watch``)
is held to the public rule: every version of their private view is checked like the
table message.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import games
from bot.tables.snapshots import own_cards
from bot.tables.timezones import game_context
from games.core.records import Record
from games.core.replay import load, split_action
from tests.botdriver import open_table, play_to_the_end, running_bot, settings_for
from tests.custom_ids import card_of, is_card, is_move, is_public, kind_of, version_of
from tests.fakediscord.fixtures import FakeWorld
from tests.scenarios.test_discord_game import shortest_options
from tests.voice import cards_named


def replay_hands(record: dict, context: dict) -> tuple[list[list[Counter]], set[str]]:
    """Every seat's own cards (hand and face up) after each number of actions, and every
    card ever shown in public (face up in a zone, or named by an event or a fact)."""
    rec = Record.from_data(record)
    game = load(rec, **context)
    hands: list[list[Counter]] = []
    public: set[str] = set()

    def snapshot() -> None:
        view = game.view_for(None)
        public.update(c.text for z in view.zones if z.cards is not None for c in z.cards)
        public.update(c.text for _, c in view.trick)
        for _, value in view.facts:
            public.update(re.findall(r"[A-Za-z0-9]+", value))
            public.update(cards_named(game.name, value))
        hands.append([Counter(c.text for c in sum(own_cards(game, p), ()))
                      for p in range(game.players)])

    snapshot()
    for line in rec.actions:
        player, text = split_action(line, game.players)
        for event in game.apply(player, text):
            public.update(re.findall(r"[A-Za-z0-9]+", str(event)))
            public.update(cards_named(game.name, str(event)))
        snapshot()
    return hands, public


def versions(message) -> list[dict]:
    return [*message.history, message.snapshot()]


@pytest.mark.parametrize("game", games.names())
async def test_no_hidden_card_is_ever_shown_to_the_wrong_person(
    game, fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    cls = games.get(game)
    people = [world.alice, world.bob, world.carol][: min(3, cls.max_players)]
    computers = max(0, cls.min_players - len(people))
    watcher = fake.add_user("dave")
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, people[0], world.table, game,
                                   people=people[1:], computers=computers,
                                   options=shortest_options(game))
        watched = await fake.click(watcher, fake.messages[session.table.message_id], "Watch")
        assert watched.ephemeral and watched.message is not None, watched
        await play_to_the_end(fake, bot, session, {u.id: u for u in people},
                              random.Random(11))
    menus, watched = assert_no_hidden_card_shown(fake, session, tmp_path, watcher=watcher.id)
    assert menus > 0
    assert watched > 2  # the view was edited as the game went on


def assert_no_hidden_card_shown(fake, session, tmp_path, *, watcher: int | None = None,
                                since: int = 0) -> tuple[int, int]:
    """Check every version of every message posted from message id ``since`` on against
    ``session``'s finished game (see the module): each hand menu shows its seat's own cards
    at its version; public messages, ``watcher``'s views and any other private answer to
    someone not seated name no card never shown in public. How many menu versions and
    watcher's views were checked."""
    record = session.table.record
    seat_of = {s.user_id: i for i, s in enumerate(session.seats)}
    # Every save bumps the version, lobby ones too: the game began at the version
    # before its first action (its last action was the session's last version).
    began = session.version - len(record["actions"])
    game = session.table.game
    cls = games.get(game)
    hands, public_cards = replay_hands(record, game_context(game, settings_for(tmp_path)))
    menus_checked = watched_checked = 0
    deck = {c.text for c in cls.deck_for(len(session.seats), cls.options_model())}
    for message in fake.messages.values():
        if message.id < since:
            continue
        for snap in versions(message):
            ids = [c.get("custom_id", "") for row in snap["components"]
                   for c in row.get("components", [])]
            if not message.ephemeral or message.visible_to not in seat_of:
                if message.ephemeral and message.visible_to == watcher:  # a watcher: no card
                    assert all(kind_of(i) == "watching" for i in ids), ids
                    watched_checked += 1
                elif message.ephemeral:  # a refusal, a list: nobody's cards either
                    assert not any(map(is_move, ids)), ids
                else:
                    assert all(is_public(i) for i in ids), ids
                text = snap["content"] + " " + " ".join(
                    str(e.get("fields", "")) + str(e.get("description", ""))
                    for e in snap["embeds"])
                words = set(re.findall(r"[A-Za-z0-9]+", text)) | cards_named(game, text)
                leaked = (words & deck) - public_cards
                assert not leaked, f"public text names hidden cards {leaked}"
                continue
            seat = seat_of[message.visible_to]
            shown: dict[int, Counter] = {}
            for custom_id in filter(is_card, ids):
                version = version_of(custom_id)
                shown.setdefault(version, Counter())[card_of(custom_id)] += 1

            for version, cards in shown.items():
                assert cards == hands[version - began][seat], (message.visible_to, version)
                menus_checked += 1
    return menus_checked, watched_checked
