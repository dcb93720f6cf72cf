"""The table a phone can read: sorted cards with suit emoji, a short table message, Details.

Rendered directly for every game at its largest table from random positions, and
through the fake Discord for the buttons, the ping's link and a table posted anew
when Discord refuses more edits of an old message.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from pathlib import Path
from typing import Any

import pytest

import games
from bot.models import Seat, StoredTable, TableStatus
from bot.tables.session import Session
from bot.tables.snapshots import table_of
from cogs.render.cards import card_label
from cogs.render.table import TURN, render_table
from tests.botdriver import open_table, running_bot, table_message, take_turn, wait_settled
from tests.fakediscord.fixtures import FakeWorld

MAX_LINES = 15


def session_at(name: str, players: int, actions: int, seed: int = 0) -> Session:
    """A started table of ``name`` after ``actions`` random actions."""
    now = dt.datetime.now(dt.UTC)
    table = StoredTable(id="abc123", guild_id=1, channel_id=2, host_id=10, game=name,
                        status=TableStatus.PLAYING, created_at=now, updated_at=now,
                        seats=[Seat(user_id=10 + i, name=f"Player{i + 1}")
                               for i in range(players)])
    game = games.new_game(name, players, seed=seed)
    rng = random.Random(seed)
    session = Session(table, game)
    for _ in range(actions):
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        events = game.apply(seat, rng.choice(game.legal_actions()))
        session.recent.extend(e.describe(session.names()) for e in events)
    return session


def lines_of(shown: Any) -> list[str]:
    """Every line a reader sees: title, description, fields, footer."""
    embed = shown.embed
    lines = [embed.title or ""]
    lines += (embed.description or "").splitlines()
    for field in embed.fields:
        lines += [field.name or "", *(field.value or "").splitlines()]
    if embed.footer.text:
        lines.append(embed.footer.text)
    return [line for line in lines if line.strip()]


@pytest.mark.parametrize("name", games.names())
def test_the_table_fits_a_phone_at_the_largest_table(name: str) -> None:
    cls = games.get(name)
    rng = random.Random(name)
    for i in range(8):
        session = session_at(name, cls.max_players, rng.randrange(0, 200), seed=i)
        shown = render_table(table_of(session))
        lines = lines_of(shown)
        assert len(lines) <= MAX_LINES, "\n".join(lines)
        text = "\n".join(lines)
        assert text.count(TURN) <= 1  # whose turn it is, said once
        assert session.game is not None
        for player in session.names():
            assert player in text
        for seat, card in session.game.view_for(None).trick:
            assert f"{session.names()[seat]} {card_label(name, card)}" in text


def test_an_ended_or_finished_table_shows_no_turn_and_no_hand_button() -> None:
    session = session_at("fumblaroo", 3, 10)
    session.table.status = TableStatus.CANCELLED
    shown = render_table(table_of(session))
    text = "\n".join(lines_of(shown))
    assert TURN not in text and "This table was ended" in text
    assert shown.view is not None
    assert [b.label for b in shown.view.children] == ["Details", "Rules"]  # type: ignore[attr-defined]


def test_counts_are_said_in_plain_words() -> None:
    session = session_at("fumblaroo", 3, 0)
    text = "\n".join(lines_of(render_table(table_of(session))))
    assert not re.search(r"\b1 (pts|cards)\b", text) and "0 pts" in text
    assert "cards left" in text  # a stock is a count of cards, not a value


@pytest.mark.parametrize("name", games.names())
def test_hands_are_sorted_by_suit_then_rank_with_a_suit_emoji(name: str) -> None:
    game = games.new_game(name, games.get(name).max_players, seed=3)
    deck = list(dict.fromkeys(game.deck_in_play().cards))
    shuffled = deck[:]
    random.Random(1).shuffle(shuffled)
    ordered = game.sorted_hand(shuffled)
    suits = [c.suit for c in ordered]
    # Each suit in one run, in the deck's order; ranks rising within it.
    runs = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(runs) == len(set(suits)) and runs == list(dict.fromkeys(c.suit for c in deck))
    for a, b in itertools.pairwise(ordered):
        if a.suit == b.suit:
            assert a.rank <= b.rank
    for card in deck:
        label = card_label(name, card)
        assert label[0] not in "0123456789" and not label.isascii()  # an emoji leads
        assert "T" not in label  # ten is said "10"


def test_fumblaroo_sorts_trump_first_in_trump_order() -> None:
    game = games.new_game("fumblaroo", 3, seed=1)
    game.trump = "H"  # type: ignore[attr-defined]
    deck = game.grammar.deck
    cards = [deck.parse(t) for t in ("AS", "2D", "9H", "2H", "AH", "TC", "2S")]
    assert [c.text for c in game.sorted_hand(cards)] == ["9H", "AH", "2D", "2H", "2S", "AS",
                                                         "TC"]
    assert card_label("fumblaroo", deck.parse("TD")) == "♦️10"


async def test_details_and_rules_answer_privately(fake_world: FakeWorld, tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=1)
        users = {world.alice.id: world.alice, world.bob.id: world.bob}
        for _ in range(2):  # two people claim their suits
            seat = session.to_act()
            assert seat is not None and session.seats[seat].user_id is not None
            await take_turn(fake, session, users[session.seats[seat].user_id],
                            random.Random(2))
            await wait_settled(bot, session)
        message = table_message(fake, session)
        before = session.version
        rules = await fake.click(world.carol, message, "Rules")  # anyone, seated or not
        assert rules.ephemeral and "Claim a suit" in rules.text and "2-6 players" in rules.text
        assert "**Scoring:** **Counting Round:**" in rules.text  # on the first page
        details = await fake.click(world.carol, message, "Details")
        assert details.ephemeral and "**Log**" in details.text
        assert "Fiasco begins" in details.text
        assert all(event in details.text for event in session.recent)  # the whole log
        assert "collects" in details.text  # the claims, in the players' notes
        assert details.text.count("Stock") == 1  # a fact is not repeated as a zone
        assert session.version == before  # looking changes nothing


async def test_the_ping_links_to_the_table_in_its_server(fake_world: FakeWorld,
                                                         tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1)
        await wait_settled(bot, session)
        link = f"/channels/{world.guild.id}/{world.table.id}/{session.table.message_id}"
        pings = [m for m in fake.messages.values()
                 if not m.deleted and "it is your turn in" in m.content]
        assert pings and all(link in m.content for m in pings), [m.content for m in pings]
        assert not any("/channels/@me/" in m.content for m in fake.messages.values())


async def test_a_table_whose_edits_are_refused_is_posted_anew(fake_world: FakeWorld,
                                                             tmp_path: Path) -> None:
    """Discord allows only so many edits of a message older than an hour (30046)."""
    world, fake = fake_world, fake_world.fake
    fake.limit_old_message_edits = True
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fumblaroo",
                                   people=[world.bob], computers=1)
        await wait_settled(bot, session)
        old = table_message(fake, session)
        old.created_at -= dt.timedelta(hours=2)
        users = {world.alice.id: world.alice, world.bob.id: world.bob}
        seat = session.to_act()
        assert seat is not None
        user_id = session.seats[seat].user_id
        assert user_id is not None
        await take_turn(fake, session, users[user_id], random.Random(1))
        await wait_settled(bot, session)
        new = table_message(fake, session)
        assert new.id != old.id and old.deleted and not new.deleted
        stored = await bot.store.get_table(session.id)
        assert stored is not None and stored.message_id == new.id  # kept across restarts
        assert session.recent[-1].split()[0] in new.text  # the move is on the new table


@pytest.mark.parametrize("name", games.names())
async def test_the_largest_table_on_discord_is_short(name: str, fake_world: FakeWorld,
                                                     tmp_path: Path) -> None:
    """Through the fake Discord: the message as a phone shows it, at most 15 lines."""
    world, fake = fake_world, fake_world.fake
    cls = games.get(name)
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, name,
                                   computers=cls.max_players - 1)
        await wait_settled(bot, session)
        message = table_message(fake, session)
        embed = message.embeds[0]
        lines = [embed.get("title", ""), *embed.get("description", "").splitlines()]
        lines += [embed.get("footer", {}).get("text", "")] if embed.get("footer") else []
        lines += [f.get("name", "") for f in embed.get("fields", [])]
        shown = [line for line in lines if line.strip()] + (
            message.content.splitlines() if message.content else [])
        assert len(shown) <= MAX_LINES, "\n".join(shown)
        assert "**alice**" in embed.get("description", "")
