"""Computer players through the fake Discord: choosing their level, seeing it, hints.

The real bot, its worker processes and SQLite, clicked the way people click.
``COMPUTER_BUDGET`` is small here (see :func:`tests.botdriver.settings_for`), so hard
computers decide in milliseconds.
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.models import TableStatus
from bot.tables.computers import Question, move_seed, think
from cogs import ids
from games.players import perspective
from games.players.base import hint_words
from tests.answers import deferred, updated_the_menu
from tests.botdriver import (
    answer_text,
    open_table,
    play_to_the_end,
    running_bot,
    session_in,
    table_message,
    take_turn,
    until,
    wait_settled,
)
from tests.fakediscord.fixtures import FakeWorld

BUDGET = 0.01  # the botdriver's COMPUTER_BUDGET


async def test_the_host_chooses_each_computers_level_and_lobby_and_table_show_it(
    fake_world: FakeWorld, tmp_path: Path
):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        await fake.slash(world.alice, world.table, "play fumblaroo")
        session = session_in(bot, world.table)
        stranger = await fake.click(world.carol, table_message(fake, session),
                                    "Add computer player")
        assert stranger.ephemeral and "Only players" in stranger.text

        chooser = await fake.click(world.alice, table_message(fake, session),
                                   "Add computer player")
        menu = chooser.message
        assert menu is not None and menu.visible_to == world.alice.id
        assert "which level" in menu.text
        assert [b.label for b in menu.buttons] == ["Hard", "Easy"]
        assert menu.button("Hard").style == 1  # the default stands out (primary)
        assert session.seats[1:] == []  # asking the level adds nobody yet

        easy = await fake.click(world.alice, menu, "Easy")
        assert updated_the_menu(easy) and "Computer 1 (easy) joined" in menu.text
        assert "Add another" in menu.text
        hard = await fake.click(world.alice, menu, "Hard")
        assert updated_the_menu(hard) and "Computer 2 (hard) joined" in menu.text
        assert "The table is full" in menu.text
        assert all(b.disabled for b in menu.buttons)
        await wait_settled(bot, session)
        lobby = table_message(fake, session).text
        assert "Computer 1 (easy)" in lobby and "Computer 2 (hard)" in lobby
        stored = await bot.store.get_table(session.id)
        assert stored is not None and [s.level for s in stored.seats] == [None, "easy", "hard"]

        full = await fake.click(world.alice, menu, ids.computer_id(session.id, "hard"),
                                force=True)
        assert "full" in full.text and len(session.seats) == 3

        await fake.click(world.alice, table_message(fake, session), "Start")
        await wait_settled(bot, session)
        shown = table_message(fake, session).text
        assert "Computer 1 (easy)" in shown and "Computer 2 (hard)" in shown
        table_id = session.id

    # The levels are stored with the seats: after a restart the table still shows them,
    # and the computers play on to the end at their levels.
    async with running_bot(fake, tmp_path, seed_source=lambda: 3) as bot:
        session = bot.tables.registry.get(table_id)
        assert [s.label for s in session.seats][1:] == ["Computer 1 (easy)",
                                                        "Computer 2 (hard)"]
        await wait_settled(bot, session)
        await until(lambda: "Computer 1 (easy)" in table_message(fake, session).text, 10,
                    "the table message to be drawn again")
        await play_to_the_end(fake, bot, session, {world.alice.id: world.alice},
                              random.Random(2))
        assert session.table.status is TableStatus.FINISHED


async def test_a_whole_game_against_hard_computers(fake_world: FakeWorld, tmp_path: Path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path, seed_source=lambda: 8) as bot:
        session = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                   people=[world.bob], computers=2)
        assert [s.level for s in session.seats] == [None, None, "hard", "hard"]
        await play_to_the_end(fake, bot, session, {world.alice.id: world.alice,
                                                   world.bob.id: world.bob},
                              random.Random(5))
        assert session.table.status is TableStatus.FINISHED
        final = table_message(fake, session).text
        assert "Game over" in final and "Computer 2 (hard)" in final
        moves = [line for line in session.table.record["actions"]
                 if session.seats[int(line.split()[0])].is_computer]
        assert len(moves) > 10


async def test_the_hint_answers_only_the_player_to_act_privately_and_the_game_is_unrated(
    fake_world: FakeWorld, tmp_path: Path
):
    world, fake = fake_world, fake_world.fake
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    async with running_bot(fake, tmp_path, seed_source=lambda: 4) as bot:
        opened = await fake.slash(world.alice, world.table, "play fiasco",
                                  {"hints": True})
        assert "not rated" in opened.text
        session = session_in(bot, world.table)
        await fake.click(world.bob, table_message(fake, session), "Join")
        await wait_settled(bot, session)
        await fake.click(world.alice, table_message(fake, session), "Start")
        await wait_settled(bot, session)
        game = session.game
        assert game is not None and session.table.hints
        seat = game.to_act
        assert seat is not None
        mover = users[session.seats[seat].user_id or 0]
        waiting = users[session.seats[1 - seat].user_id or 0]

        theirs = (await fake.click(waiting, table_message(fake, session), "Show my hand")).message
        assert theirs is not None and "Hint" not in [b.label for b in theirs.buttons]
        refused = await fake.click(waiting, theirs, ids.hint_id(session.id), force=True)
        assert "only for the player whose turn it is" in refused.text

        mine = (await fake.click(mover, table_message(fake, session), "Show my hand")).message
        assert mine is not None and mine.visible_to == mover.id
        actions_before = len(session.table.record["actions"])
        question = Question("hard", perspective(game, seat),
                            move_seed(game.seed, actions_before, "hard", seat))
        expected = think(question, BUDGET)
        asked = await fake.click(mover, mine, "Hint")
        assert deferred(asked)  # the search runs in a worker

        await until(lambda: "Hint:" in mine.text, 10, "the hint")
        label = game.action_label(expected.action, session.names())
        assert f"Hint: {hint_words(label, expected.reason)}" in mine.text
        assert "%" not in mine.text and "sampled" not in mine.text  # no search figures
        assert mine.visible_to == mover.id  # private: in the clicker's own menu
        assert "Hint:" not in table_message(fake, session).text
        assert len(session.table.record["actions"]) == actions_before  # a hint plays nothing
        assert [b.label for b in mine.buttons].count("Hint") == 1

        await play_to_the_end(fake, bot, session, users, random.Random(1))
        assert session.table.status is TableStatus.FINISHED
        for user in users.values():
            [stats] = await bot.store.stats(world.guild.id, user.id)
            assert stats.games == 1 and stats.rating is None  # counted, not rated
        board = await fake.slash(world.alice, world.table, "leaderboard", {"game": "fiasco"})
        assert "alice" not in board.text and "bob" not in board.text

        # A table without hints refuses a forged Hint with its reason.
        plain = await open_table(fake, bot, world.alice, world.table, "fiasco",
                                 people=[world.bob])
        person = users[plain.seats[plain.to_act() or 0].user_id or 0]
        shown = await fake.click(person, table_message(fake, plain), "Show my hand")
        assert shown.message is not None
        assert "Hint" not in [b.label for b in shown.message.buttons]
        forged = await fake.click(person, shown.message, ids.hint_id(plain.id), force=True)
        assert "no hints" in (forged.text + answer_text(fake, forged))
        await take_turn(fake, plain, person, random.Random(0))
