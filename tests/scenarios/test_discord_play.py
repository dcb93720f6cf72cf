"""``/play <game>`` per game, its refusals in plain words, the lobby's pitch and ``/rules``."""

from __future__ import annotations

import pytest

import games
from cogs.commands.play import TABLE_OPTIONS
from cogs.options import MAX_LIST_ENTRIES, game_specs, to_model_values
from cogs.render.rules import PAGE_CHARS, sections
from games.core.errors import SetupError
from tests.answers import updated_the_menu
from tests.botdriver import running_bot, session_in, table_message
from tests.fakediscord.fixtures import FakeWorld

SUB_COMMAND = 1

# A value other than the default for every option of every game, as a person types it.
CHOSEN = {
    "fazes": ({"fazes": "2,2,5"}, {"fazes": [2, 2, 5]}, "fazes: 2,2,5"),
    "fiasco": ({"length": "extended", "teams": True, "suits": "six"},
               {"length": "extended", "teams": True, "suits": "six"}, "teams: yes"),
    "fibonachos": ({"rounds": 5}, {"rounds": 5}, "rounds: 5"),
    "fizzbin": ({"hands": 2, "time": "night"}, {"hands": 2, "time": "night"}, "time: night"),
    "fumblaroo": ({"target": 25}, {"target": 25}, "target: 25"),
}

# Every kind of bad value: out of range (a client past Discord's checks), a wrong entry,
# an empty list, too many entries, an unknown choice, a timer the game has not.
REFUSED = [
    ("fazes", {"fazes": "1,9"},
     "`fazes` was given 9 as its 2nd entry; each entry must be a whole number from 1 to 6"),
    ("fazes", {"fazes": "1,x"},
     '`fazes` was given "x" as its 2nd entry; each entry must be a whole number from 1 to 6'),
    ("fazes", {"fazes": ", ,"}, "`fazes` needs at least 1 entry"),
    ("fazes", {"fazes": ",".join(["1"] * (MAX_LIST_ENTRIES + 1))},
     f"`fazes` was given {MAX_LIST_ENTRIES + 1} entries; a table takes at most "
     f"{MAX_LIST_ENTRIES}"),
    ("fibonachos", {"rounds": 9}, "`rounds` was given 9; it must be a whole number from 1 to 5"),
    ("fumblaroo", {"target": 0}, "`target` was given 0; it must be a whole number from 5 to 25"),
    ("fizzbin", {"time": "dusk"}, '`time` was given "dusk"; it must be one of clock, day, night'),
    ("fiasco", {"length": "long"},
     '`length` was given "long"; it must be one of quick, extended'),
    ("fazes", {"timer": "tournament"},
     '`timer` was given "tournament"; a Fazes table\'s timer must be one of off, 30s, 1m, 2m, 5m'),
    ("fiasco", {"timer": "1h"}, '`timer` was given "1h"'),
]


async def test_every_game_has_its_own_subcommand_with_described_options(
    fake_world: FakeWorld, tmp_path
):
    fake = fake_world.fake
    async with running_bot(fake, tmp_path):
        synced = fake.commands[None]["play"]
        subs = {o["name"]: o for o in synced["options"]}
        assert list(subs) == games.names()
        for name, sub in subs.items():
            assert sub["type"] == SUB_COMMAND and sub["description"] == games.get(name).pitch
            options = {o["name"]: o for o in sub["options"]}
            own = [spec.name for spec in game_specs(name)]
            assert list(options) == [*own, *TABLE_OPTIONS]
            for option in own:
                words = options[option]["description"]
                assert "default" in words and len(words) <= 100, words
            timers = [c["value"] for c in options["timer"]["choices"]]
            assert timers == ["off", "30s", "1m", "2m", "5m"] + \
                (["tournament"] if name == "fiasco" else [])
        assert options_of(subs["fibonachos"], "rounds")["min_value"] == 1
        assert options_of(subs["fibonachos"], "rounds")["max_value"] == 5
        assert [c["value"] for c in options_of(subs["fiasco"], "length")["choices"]] == \
            ["quick", "extended"]
        assert "each 1 to 6; default 1,2,3,4,5,6" in options_of(subs["fazes"],
                                                               "fazes")["description"]


def options_of(sub, name):
    return next(o for o in sub["options"] if o["name"] == name)


@pytest.mark.parametrize("game", games.names())
async def test_play_opens_a_lobby_of_that_game_with_its_options(game, fake_world: FakeWorld,
                                                                tmp_path):
    world, fake = fake_world, fake_world.fake
    typed, stored, shown = CHOSEN[game]
    async with running_bot(fake, tmp_path) as bot:
        opened = await fake.slash(world.alice, world.table, f"play {game}",
                                  {**typed, "timer": "1m"})
        assert not opened.ephemeral, opened.text
        session = session_in(bot, world.table)
        assert session.table.game == game and session.table.options == stored
        assert shown in opened.text
        # The pitch, the goal and a Rules button on the lobby.
        cls = games.get(game)
        assert cls.pitch in opened.text and cls.goal in opened.text
        rules = await fake.click(world.bob, table_message(fake, session), "Rules")
        assert rules.ephemeral and rules.text.startswith(f"**{cls.title}: overview**")


@pytest.mark.parametrize(("game", "typed", "words"), REFUSED,
                         ids=[f"{g}-{next(iter(o))}-{i}" for i, (g, o, _) in enumerate(REFUSED)])
async def test_bad_option_values_are_refused_in_plain_words(game, typed, words,
                                                            fake_world: FakeWorld, tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        refused = await fake.slash(world.alice, world.table, f"play {game}", typed)
        assert refused.ephemeral and words in refused.text, refused.text
        assert refused.text[0].isupper() and refused.text.endswith(".")
        assert refused.text.startswith(f"Those {games.get(game).title} options will not do: ")
        for jargon in ("Input should", "validation error", "type=", "[", "loc="):
            assert jargon not in refused.text
        assert bot.tables.registry.in_channel(world.table.id) is None  # nothing opened


def test_an_option_of_another_game_is_named_as_unknown():
    """Discord offers a game's own options only; an old client's extra one is refused."""
    with pytest.raises(SetupError, match=r"Fiasco has no option target \(its options: "
                                         r"length, teams, suits\)"):
        to_model_values("fiasco", {"target": 7})


@pytest.mark.parametrize("game", games.names())
def test_the_rules_sections_are_phone_sized_and_keep_every_point(game):
    cls = games.get(game)
    parts = sections(game)
    assert list(parts) == ["overview", *(n for n in parts if n.startswith("play")), "options"]
    play = [text for name, text in parts.items() if name.startswith("play")]
    assert play and all(len(page) <= PAGE_CHARS for page in play if "\n" in page)
    _, *points = cls.summary.strip().split("\n- ")
    assert "\n".join(play) == "\n".join(f"- {p}" for p in points)  # nothing lost
    assert cls.pitch in parts["overview"] and cls.goal in parts["overview"]
    # How points are won is on the first page a player reads, and on no other.
    assert cls.scoring and f"**Scoring:** {cls.scoring}" in parts["overview"]
    assert all(cls.scoring not in text for name, text in parts.items() if name != "overview")
    assert len(parts["overview"]) <= 2 * PAGE_CHARS  # a phone screen, give or take
    for spec in game_specs(game):
        assert f"**{spec.name}**" in parts["options"]


async def test_rules_turn_their_pages_in_one_private_message(fake_world: FakeWorld,
                                                             tmp_path):
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path):
        shown = await fake.slash(world.alice, world.table, "rules", {"game": "fizzbin"})
        assert shown.ephemeral and shown.text.startswith("**Fizzbin: overview**")
        labels = [b.label for b in shown.message.buttons]
        assert labels[0] == "Overview" and labels[1] == "How to play" and \
            labels[-1] == "Options"
        assert shown.message.button("Overview").disabled
        page = await fake.click(world.alice, shown.message, "Options")
        assert updated_the_menu(page) and page.message.id == shown.message.id
        assert page.text.startswith("**Fizzbin: options**") and "**hands**" in page.text
        assert page.message.button("Options").disabled
        jumped = await fake.slash(world.alice, world.table, "rules",
                                  {"game": "fizzbin", "section": "play"})
        assert jumped.text.startswith("**Fizzbin: how to play**")
        # A forged section shows the overview rather than failing.
        forged = await fake.click(world.alice, shown.message, "ff:rules:fizzbin:nope",
                                  force=True)
        assert updated_the_menu(forged) and "overview" in forged.text
    async with running_bot(fake, tmp_path):  # rules buttons need no table: after a restart
        again = await fake.click(world.alice, shown.message, "How to play")
        assert updated_the_menu(again) and again.text.startswith("**Fizzbin: how to play**")

