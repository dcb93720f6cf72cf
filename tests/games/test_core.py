"""The rules core: notation, records, the registry, doctests."""

from __future__ import annotations

import doctest
import importlib
import itertools
import pkgutil
import re
from pathlib import Path

import pytest

import games
from games.core.actions import Action, Grammar, Param, Verb
from games.core.cards import Card, Deck
from games.core.errors import GameError, SetupError, UnknownAction
from games.core.outcome import places
from games.core.records import Record
from games.core.registry import get, new_game

# The purity of games/ (no discord, asyncio, aiosqlite, bot or cogs) is tests/test_codebase.py.


@pytest.mark.parametrize(
    "module",
    sorted(m.name for m in pkgutil.walk_packages(games.__path__, "games.")
           if not m.name.endswith("__main__")),
)
def test_docstring_examples_run(module):
    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


def test_every_registered_game_has_the_registry_fields():
    for name in games.names():
        cls = get(name)
        assert cls.name == name
        assert cls.title and cls.summary
        assert 2 <= cls.min_players <= cls.max_players <= 8
        cls.options_model.model_validate({})  # defaults alone are valid
        # The lobby's pitch and /play's option descriptions (Discord: 100 characters).
        assert cls.pitch and len(cls.pitch) <= 100
        assert all(info.description for info in cls.options_model.model_fields.values())


def test_cards_are_immutable_hashable_values_with_their_text_form():
    a, b = Card("K", "", 9), Card("K", "", 9)
    assert a == b and hash(a) == hash(b) and str(a) == "K"
    with pytest.raises(AttributeError):
        a.rank = 3  # type: ignore[misc]


class ToyVerb(Verb):
    PLAY = "play"
    CALL = "call"
    DRAW = "draw"
    DISCARD = "discard"
    PASS = "pass"


def test_grammar_reads_case_insensitively_and_names_what_is_wrong():
    deck = Deck([Card("S4", "S", 4), Card("TD", "D", 10)])
    g = Grammar({ToyVerb.PLAY: (Param.CARD,), ToyVerb.CALL: (Param.SUIT,),
                 ToyVerb.DRAW: (Param.SOURCE,), ToyVerb.DISCARD: (Param.CARD, Param.PLAYER),
                 ToyVerb.PASS: ()},
                deck=deck, suits="SD", players=3)
    assert g.parse("PLAY td") == Action(ToyVerb.PLAY, deck.parse("TD"))
    assert g.parse("Pass").verb is ToyVerb.PASS
    assert str(g.parse("discard s4 2")) == "discard S4 2"
    assert str(g.parse("draw STACK")) == "draw stack"
    assert str(g.parse("Pass")) == "pass"
    for text, fragment in [("", "empty"), ("jump", "unknown verb"), ("play", "does not read"),
                           ("play X1", "no card"), ("call H", "unknown suit"),
                           ("draw 3", "not 'stack' or a player"), ("pass now", "does not read")]:
        with pytest.raises(UnknownAction, match=fragment):
            g.parse(text)


# A verb compared with a word: ``verb == "play"``, ``verb != 'draw'``, ``verb in ("pick", ...``.
VERB_WORD = re.compile(r"""verb\s*(==|!=)\s*["']|verb\s+(not\s+)?in\s*[(\[{]\s*["']""")


def verbs_compared_with_words(root: Path) -> list[str]:
    """Every line under ``root`` that compares a verb with a string instead of its enum member."""
    return [f"{path}:{number}: {line.strip()}"
            for path in sorted(root.rglob("*.py"))
            for number, line in enumerate(path.read_text().splitlines(), 1)
            if VERB_WORD.search(line)]


def test_games_compare_verbs_with_their_enum_members_so_mypy_checks_the_spelling():
    assert verbs_compared_with_words(Path(games.__file__).parent) == []


def test_the_verb_scan_catches_a_word(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('if action.verb == "paly":\n    pass\nok = verb in ("pick", "turn")\n')
    assert len(verbs_compared_with_words(tmp_path)) == 2


def test_unknown_action_is_a_game_error_and_setup_error_is_not():
    assert issubclass(UnknownAction, GameError)
    assert not issubclass(SetupError, GameError)


def test_places_share_ties_and_respect_lower_is_better():
    assert places([3, 9, 9, 1]) == (3, 1, 1, 4)
    assert places([3, 9, 9, 1], lower_is_better=True) == (2, 3, 3, 1)


def test_records_keep_unknown_top_level_keys_and_refuse_ill_typed_ones():
    r = Record.from_data({"game": "fiasco", "players": 3, "meta": {"guild": 1}})
    assert r.model_extra == {"meta": {"guild": 1}}
    for bad in [{"game": "fiasco"}, {"game": "fiasco", "players": "3"},
                {"game": "fiasco", "players": 3, "seed": 1.5}, []]:
        with pytest.raises(SetupError):
            Record.from_data(bad)


def test_new_game_refuses_unknown_games_options_and_player_counts():
    with pytest.raises(SetupError, match="unknown game"):
        new_game("poker", 3)
    with pytest.raises(SetupError, match="unknown options"):
        new_game("fiasco", 3, {"speed": 1}, seed=1)
    with pytest.raises(SetupError, match="2 to 6 players"):
        new_game("fiasco", 7, seed=1)


def test_clone_is_independent_of_the_original():
    g = new_game("fiasco", 3, {}, seed=5)
    for _ in range(5):
        g.apply(g.to_act, g.legal_actions()[0])
    c = g.clone()
    c.apply(c.to_act, c.legal_actions()[0])
    assert len(c.history) == len(g.history) + 1
    assert [len(h) for h in g.hands] != [len(h) for h in c.hands] or g.pot != c.pot
    assert c.options is g.options


@pytest.mark.parametrize("name", ["fumblaroo", "fazes", "fibonachos", "fizzbin", "fiasco"])
def test_a_record_with_its_deals_goes_on_to_the_same_deals_as_the_game(name):
    from games.core.replay import replay

    cls = get(name)
    whole = new_game(name, cls.min_players + 1 if name != "fumblaroo" else 3, seed=21)
    records = []
    while not whole.over:
        records.append(whole.record())
        whole.apply(whole.to_act, whole.legal_actions()[len(whole.history) % 2 - 1])
    # Cut the game at every deal boundary: the replayed record (deals included) deals on
    # exactly as the uninterrupted game did.
    cuts = [r for r, nxt in itertools.pairwise(records)
            if len(nxt.deals) > len(r.deals)]
    assert cuts, "the game has a second deal"
    for cut in cuts:
        game = replay(cut).game
        for line in whole.history[len(cut.actions):]:
            seat, _, text = line.partition(" ")
            game.apply(int(seat), text)
        assert game.record() == whole.record()
