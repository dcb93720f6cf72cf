"""Leaderboards, /stats and exported game records, through the fake Discord.

Results come from whole games played the way people play them (two people and
a computer), or, for paging and the per-server checks, are written to the
store directly as many games would.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
import re
import sys
from pathlib import Path

from bot.models import GameResult, ResultPlayer, TableStatus
from bot.tables.seasons import season_of
from bot.tables.session import Session
from cogs import ids
from tests.answers import answered_privately, answered_publicly, updated_the_message
from tests.botdriver import (
    open_table,
    play_to_the_end,
    running_bot,
    table_message,
    take_turn,
    wait_settled,
)
from tests.fakediscord import FakeDiscord, InteractionResult, StoredMessage
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.messages import visible_text
from tests.fakediscord.world import FakeChannel, FakeUser

REPO = Path(__file__).resolve().parents[2]

LINE = re.compile(
    r"\*\*(?P<place>\d+)\.\*\* <@(?P<user>\d+)> · \*\*(?P<rating>-?\d+)\*\* · "
    r"(?P<games>\d+) games?, (?P<wins>\d+) wins? \((?P<rate>\d+)%\)"
)


# --------------------------------------------------------------------------- helpers


async def play_game(world: FakeWorld, bot, host: FakeUser, guest: FakeUser,
                    seed: int) -> Session:
    """A whole quick Fiasco: ``host`` and ``guest`` and one computer player."""
    session = await open_table(world.fake, bot, host, world.table, "fiasco", people=[guest],
                               computers=1)
    await play_to_the_end(world.fake, bot, session, {host.id: host, guest.id: guest},
                          random.Random(seed))
    assert session.table.status is TableStatus.FINISHED
    await wait_settled(bot, session)
    return session


def board_lines(message: StoredMessage) -> list[dict[str, int]]:
    """The leaderboard's player lines, parsed."""
    description = message.embeds[0].get("description") or ""
    rows = [LINE.fullmatch(line) for line in description.splitlines()]
    assert all(rows), description
    return [{k: int(v) for k, v in row.groupdict().items()} for row in rows if row]


def pings_nobody(message: StoredMessage) -> bool:
    mentions = message.allowed_mentions or {}
    return mentions.get("parse") == [] and not mentions.get("users") \
        and not mentions.get("roles")


async def seed_results(bot, guild_id: int, user_ids: list[int], *, table_id: str,
                       game: str = "fiasco") -> None:
    """One finished game of ``user_ids`` (all people) in that order: first place first."""
    players = [ResultPlayer(seat=i, user_id=uid, name=f"p{uid}", score=100 - i, place=i + 1,
                            winner=i == 0) for i, uid in enumerate(user_ids)]
    result = GameResult(table_id=table_id, guild_id=guild_id, game=game,
                        finished_at=dt.datetime.now(dt.UTC), players=players, record={})
    assert await bot.store.record_result(result)


async def leaderboard(fake: FakeDiscord, user: FakeUser, channel: FakeChannel,
                      game: str = "fiasco") -> InteractionResult:
    shown = await fake.slash(user, channel, "leaderboard", {"game": game})
    assert answered_publicly(shown), shown
    return shown


async def replay(record: bytes) -> tuple[int, dict[str, object]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "games", "replay", "-", cwd=REPO,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await process.communicate(record)
    assert process.returncode is not None
    return process.returncode, json.loads(out) if out.strip() else {"stderr": err.decode()}


# --------------------------------------------------------------------------- /leaderboard


async def test_the_leaderboard_ranks_the_players_of_finished_games_by_rating(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        played = [await play_game(world, bot, world.alice, world.bob, seed=1),
                  await play_game(world, bot, world.carol, world.alice, seed=2)]
        games_of: dict[int, int] = {}
        wins_of: dict[int, int] = {}
        for session in played:
            assert session.game is not None
            for seat_index, seat in enumerate(session.seats):
                if seat.user_id is not None:
                    games_of[seat.user_id] = games_of.get(seat.user_id, 0) + 1
                    won = seat_index in session.game.winners
                    wins_of[seat.user_id] = wins_of.get(seat.user_id, 0) + int(won)

        shown = await leaderboard(fake, world.bob, world.lobby)
        board = shown.message
        assert not shown.ephemeral, "the server's leaderboard is public"
        assert pings_nobody(board)
        assert "Fiasco leaderboard" in board.text
        lines = board_lines(board)
        assert [line["place"] for line in lines] == [1, 2, 3]
        assert {line["user"] for line in lines} == {world.alice.id, world.bob.id, world.carol.id}
        ratings = [line["rating"] for line in lines]
        assert ratings == sorted(ratings, reverse=True), "best rating first"
        for line in lines:
            assert line["games"] == games_of[line["user"]]
            assert line["wins"] == wins_of[line["user"]]
            assert line["rate"] == round(100 * line["wins"] / line["games"])
            stats = await bot.store.stats(world.guild.id, line["user"])
            assert stats[0].rating == line["rating"]
        assert "Page 1 of 1" in board.text
        assert not board.buttons, "one page: nothing to turn"
        # The computer seats are on no leaderboard.
        assert "Computer" not in board.text


async def test_an_empty_leaderboard_says_how_to_get_on_it(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        # A person alone against computers counts in /stats but is not rated.
        await seed_results(bot, world.guild.id, [world.alice.id], table_id="solo")
        shown = await leaderboard(fake, world.alice, world.table, "fumblaroo")
        assert "Nobody is on the Fumblaroo leaderboard yet" in shown.text
        assert "at least two people" in shown.text
        assert not shown.message.buttons
        shown = await leaderboard(fake, world.alice, world.table, "fiasco")
        assert "Nobody is on the Fiasco leaderboard yet" in shown.text


async def test_the_leaderboard_pages_ten_players_at_a_time(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    players = list(range(7000, 7023))  # 23 people, best first
    async with running_bot(fake, tmp_path) as bot:
        await seed_results(bot, world.guild.id, players, table_id="big")
        shown = await leaderboard(fake, world.alice, world.table)
        board = shown.message
        first = board_lines(board)
        assert [line["user"] for line in first] == players[:10]
        assert [line["place"] for line in first] == list(range(1, 11))
        assert "Page 1 of 3" in board.text and "23 rated players" in board.text
        assert board.button("Previous").disabled and not board.button("Next").disabled

        turned = await fake.click(world.bob, board, "Next")
        assert updated_the_message(turned) and turned.message.id == board.id
        assert pings_nobody(board)
        second = board_lines(board)
        assert [line["user"] for line in second] == players[10:20]
        assert [line["place"] for line in second] == list(range(11, 21))
        assert "Page 2 of 3" in board.text
        assert not board.button("Previous").disabled and not board.button("Next").disabled

        await fake.click(world.carol, board, "Next")
        third = board_lines(board)
        assert [line["user"] for line in third] == players[20:]
        assert "Page 3 of 3" in board.text and board.button("Next").disabled

        await fake.click(world.alice, board, "Previous")
        assert [line["user"] for line in board_lines(board)] == players[10:20]
        ratings = [line["rating"] for line in first + second + third]
        assert ratings == sorted(ratings, reverse=True)

        # A forged id past the end, not on the message: a private last page, board untouched.
        edits = board.edit_count
        forged = await fake.click(world.alice, board, "ff:lb:fiasco:990", force=True)
        assert answered_privately(forged)
        assert [line["user"] for line in board_lines(forged.message)] == players[20:]
        assert board.edit_count == edits
        # A forged id of an unknown game.
        odd = await fake.click(world.alice, board, "ff:lb:poker:0", force=True)
        assert odd.ephemeral and "not of a game I know" in odd.text


async def test_leaderboard_pages_still_turn_after_a_restart(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    players = list(range(7100, 7112))
    async with running_bot(fake, tmp_path) as bot:
        await seed_results(bot, world.guild.id, players, table_id="before")
        board = (await leaderboard(fake, world.alice, world.table)).message
    async with running_bot(fake, tmp_path):
        turned = await fake.click(world.bob, board, "Next")
        assert updated_the_message(turned)
        assert [line["user"] for line in board_lines(board)] == players[10:]


async def test_a_forged_page_id_shows_only_the_server_it_is_clicked_in(
    fake_world: FakeWorld, tmp_path
):
    world, fake = fake_world, fake_world.fake
    other = fake.add_guild("Another Server")
    elsewhere = fake.add_channel(other, "games")
    dave = fake.add_user("dave")  # a member of both servers
    here_players = list(range(8000, 8015))
    there_players = list(range(9000, 9012))
    async with running_bot(fake, tmp_path) as bot:
        await seed_results(bot, world.guild.id, here_players, table_id="here")
        await seed_results(bot, other.id, there_players, table_id="there")
        # The Next id of this server's board, copied and clicked in the other server.
        ours = (await leaderboard(fake, world.alice, world.table)).message
        copied = ours.button("Next").custom_id
        assert copied == ids.leaderboard_id("fiasco", 10, season_of(dt.datetime.now(dt.UTC)))
        theirs = (await leaderboard(fake, dave, elsewhere)).message
        assert {line["user"] for line in board_lines(theirs)} == set(there_players[:10])

        # Not on the message: answered privately, with the other server's own board.
        forged = await fake.click(dave, theirs, "ff:lb:fiasco:5", force=True)
        assert forged.ephemeral
        assert {line["user"] for line in board_lines(forged.message)} == set(there_players[:10])
        # On the message: the page turns, still that server's players only.
        turned = await fake.click(dave, theirs, copied)
        assert updated_the_message(turned)
        assert [line["user"] for line in board_lines(theirs)] == there_players[10:]
        assert not set(here_players) & {line["user"] for line in board_lines(theirs)}
        # And this server's board never showed the other's players.
        assert {line["user"] for line in board_lines(ours)} == set(here_players[:10])


# --------------------------------------------------------------------------- /stats


async def test_stats_show_games_wins_ratings_and_recent_games(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        first = await play_game(world, bot, world.alice, world.bob, seed=3)
        second = await play_game(world, bot, world.bob, world.alice, seed=4)
        # Alone against computers in another game: counted, not rated.
        await seed_results(bot, world.guild.id, [world.alice.id], table_id="solo",
                           game="fumblaroo")

        mine = await fake.slash(world.alice, world.table, "stats")
        assert mine.ephemeral and mine.message.visible_to == world.alice.id
        text = mine.text
        assert "alice" in text
        wins = sum(world.alice.id in [s.seats[w].user_id for w in s.game.winners]
                   for s in (first, second))
        fiasco = next(f for f in mine.message.embeds[0]["fields"] if f["name"] == "Fiasco")
        assert fiasco["value"].startswith(f"2 games, {wins} win")
        assert f"({round(100 * wins / 2)}%)" in fiasco["value"]
        rating = (await bot.store.stats(world.guild.id, world.alice.id))
        fiasco_rating = next(s.rating for s in rating if s.game == "fiasco")
        assert f"rating **{fiasco_rating:.0f}**" in fiasco["value"]
        fumblaroo = next(f for f in mine.message.embeds[0]["fields"]
                         if f["name"] == "Fumblaroo")
        assert fumblaroo["value"].startswith("1 game, 1 win (100%)")
        assert "not rated yet" in fumblaroo["value"]
        assert "3 games" in text  # in all

        recent = next(f for f in mine.message.embeds[0]["fields"]
                      if f["name"] == "Recent games")["value"].splitlines()
        assert len(recent) == 3
        assert recent[0].startswith("Fumblaroo · 1st of 1 · 100 pts")
        # The two played games, newest first, each with place, score and a Discord timestamp.
        for line, session in zip(recent[1:], (second, first), strict=True):
            seat = session.seat_of(world.alice.id)
            place = session.game.outcome.places[seat]
            score = session.game.scores[seat]
            suffix = {1: "st", 2: "nd", 3: "rd"}[place]
            assert line.startswith(f"Fiasco · {place}{suffix} of 3 · {score} pt")
            stamp = int(session.table.updated_at.timestamp())
            assert line.endswith(f"<t:{stamp}:R>"), line

        # Someone else's: bob asks about alice.
        theirs = await fake.slash(world.bob, world.table, "stats", {"player": world.alice})
        assert theirs.ephemeral and theirs.message.visible_to == world.bob.id
        assert theirs.message.embeds[0]["fields"] == mine.message.embeds[0]["fields"]
        assert pings_nobody(theirs.message)

        # Someone who never played here.
        nobody = await fake.slash(world.alice, world.table, "stats", {"player": world.carol})
        assert nobody.ephemeral and "has not finished a game in this server yet" in nobody.text


# --------------------------------------------------------------------------- exported records


def records_of(message):
    """The message's attached game records (its table picture aside)."""
    return [a for a in message.attachments if a.filename.endswith(".json")]


async def test_a_finished_game_offers_its_record_which_replays(fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=1)
        users = {world.alice.id: world.alice, world.bob.id: world.bob}
        rng = random.Random(11)
        while True:
            await wait_settled(bot, session)
            assert session.game is not None
            if session.game.over:
                break
            # Nothing of the record (every hand) is posted while the game runs (the table's
            # picture, drawn from the public view, is).
            assert not any(records_of(m) for m in fake.messages.values())
            seat = session.to_act()
            await take_turn(fake, session, users[session.seats[seat].user_id], rng)
        assert session.table.status is TableStatus.FINISHED
        final = table_message(fake, session)
        await fake.wait_for(lambda: bool(records_of(final)))

        # Every earlier version of the table message was without it; it came with "Game over".
        versions = [*final.history, final.snapshot()]
        first = next(i for i, v in enumerate(versions)
                     if any(a.endswith(".json") for a in v["attachments"]))
        assert all(not any(a.endswith(".json") for a in v["attachments"])
                   for v in versions[:first])
        assert "Game over" in visible_text(versions[first])
        assert [m.id for m in fake.messages.values() if records_of(m)] == [final.id]

        [attachment] = records_of(final)
        assert attachment.filename == f"fivefold-fiasco-{session.id}.json"
        record = json.loads(attachment.data)
        assert record["game"] == "fiasco" and record["players"] == 3
        assert record["deals"], "the deals (hidden cards) are in the record once it is over"
        meta = record["meta"]
        assert meta["guild"] == world.guild.id and meta["channel"] == world.table.id
        assert [(p["name"], p["user_id"]) for p in meta["players"]] == \
            [(s.name, s.user_id) for s in session.seats]
        started = dt.datetime.fromisoformat(meta["started_at"])
        ended = dt.datetime.fromisoformat(meta["ended_at"])
        assert started <= ended

        status, output = await replay(attachment.data)
        assert status == 0, output
        assert output["over"] is True
        assert output["winners"] == sorted(session.game.winners)
        assert output["scores"] == list(session.game.scores)


async def test_an_ended_table_offers_no_record(fake_world: FakeWorld, tmp_path):
    """Only a game that ends with a result is exported; an ended table keeps its hands hidden."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=1)
        users = {world.alice.id: world.alice, world.bob.id: world.bob}
        seat = session.to_act()
        await take_turn(fake, session, users[session.seats[seat].user_id], random.Random(2))
        ended = await fake.slash(world.alice, world.table, "end")
        assert ended.ephemeral
        await wait_settled(bot, session)
        assert session.table.status is TableStatus.CANCELLED
        assert "This table was ended" in table_message(fake, session).text
        assert not any(records_of(m) for m in fake.messages.values())
