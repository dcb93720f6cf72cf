"""One test for every registered game, as OpenSpiel's ``random_sim_test``: a sixth game is
covered the day it registers, without a test of its own.

For every game in ``games.names()``: its defaults, then every player count it allows with the
shortest game (each number option at its lower bound) and each other choice of every option
one at a time (each ``Literal`` value, both booleans; lists keep their default). Each case is a
seeded random playout that keeps the invariants of ``tests/invariants.py`` after every action;
its record survives a JSON round trip and replays to the same state; and a clone taken
half-way is independent of the original. Long options (the upper bounds) are the per-game
tests' business: here every case is short, so that the whole file stays within seconds.
"""

from __future__ import annotations

import json
import typing
import zlib
from typing import Any

import annotated_types
import pytest
from pydantic.fields import FieldInfo

import games
from games.core.errors import SetupError
from games.core.game import Game
from games.core.records import Record
from games.core.replay import replay, split_action
from tests.invariants import random_playout, snapshot


def choices(info: FieldInfo) -> list[Any]:
    """Every value of a small option type (a ``Literal``, a boolean); [] for anything else."""
    if info.annotation is bool:
        return [False, True]
    if typing.get_origin(info.annotation) is typing.Literal:
        return list(typing.get_args(info.annotation))
    return []


def shortest(info: FieldInfo) -> list[Any]:
    """The lower bound of a number option (the fewest hands, rounds or points), if any."""
    if info.annotation is not int:
        return []
    return [m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)][:1]


def option_sets(name: str) -> list[dict[str, Any]]:
    """The shortest game (every number option at its lower bound), then each other choice
    of each option one at a time on top of it. Lists keep their default."""
    fields = games.get(name).options_model.model_fields
    base = {field: value for field, info in fields.items() for value in shortest(info)}
    sets = [base]
    for field, info in fields.items():
        sets += [base | {field: value} for value in choices(info) if value != info.default]
    return sets


def cases() -> list[Any]:
    """Every game with its defaults at its smallest table, then every player count with each
    option set."""
    out = []
    for name in games.names():
        cls = games.get(name)
        out.append(pytest.param(name, cls.min_players, {}, id=f"{name}-defaults"))
        for options in option_sets(name):
            for players in range(cls.min_players, cls.max_players + 1):
                out.append(pytest.param(name, players, options,
                                        id=f"{name}-{players}p-{json.dumps(options)}"))
    return out


def new(name: str, players: int, options: dict[str, Any]) -> Game[Any] | None:
    """A seeded game, or None where the options do not fit this player count."""
    seed = zlib.crc32(f"{name} {players} {sorted(options.items())}".encode())
    try:
        return games.new_game(name, players, options, seed=seed, **context(name))
    except SetupError:
        return None


def context(name: str) -> dict[str, Any]:
    """What the application passes in: Fizzbin's clock, fixed to day here."""
    return {"is_night": lambda: False} if name == "fizzbin" else {}


@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_random_playout_keeps_the_invariants_and_its_record_replays(name, players, options):
    game = new(name, players, options)
    if game is None:
        assert games.get(name).options_model.model_validate(options)  # fits other counts
        return
    random_playout(game, seed=players)
    record = game.record()
    again = replay(Record.from_json(record.model_dump_json()), **context(name))
    assert again.error is None
    assert again.game.record() == record
    assert snapshot(again.game) == snapshot(game)


@pytest.mark.parametrize("name", games.names())
def test_every_option_fits_some_player_count(name):
    cls = games.get(name)
    for options in option_sets(name):
        fits = [p for p in range(cls.min_players, cls.max_players + 1)
                if new(name, p, options) is not None]
        assert fits, f"{name} {options} fits no player count"


@pytest.mark.parametrize("name", games.names())
def test_a_clone_taken_half_way_is_independent_of_the_original(name):
    cls = games.get(name)
    whole = random_playout(new(name, cls.min_players, {}) or pytest.fail("defaults"), seed=4,
                           probe_every=10_000)
    record = whole.record()
    half = len(record.actions) // 2
    original = replay(record.model_copy(update={"actions": record.actions[:half]}),
                      **context(name)).game
    before = snapshot(original)
    clone = original.clone()
    assert snapshot(clone) == before
    rest = record.actions[half:]
    for line in rest[: max(1, len(rest) // 2)]:
        clone.apply(*split_action(line, clone.players))
    assert snapshot(original) == before, "playing the clone changed the original"
    for line in rest:
        original.apply(*split_action(line, original.players))
    assert original.record() == record, "the original plays on as if never cloned"


def _texts(data: Any) -> list[str]:
    """Every string inside ``data``, in order."""
    if isinstance(data, dict):
        return [t for value in data.values() for t in _texts(value)]
    if isinstance(data, list):
        return [t for value in data for t in _texts(value)]
    return [data] if isinstance(data, str) else []


def _vandalise(data: Any) -> None:
    """Change every list and dict inside ``data`` (a record) in place."""
    if isinstance(data, dict):
        for key, value in data.items():
            _vandalise(value)
            data[key] = None
        data["vandal"] = True
    elif isinstance(data, list):
        for value in data:
            _vandalise(value)
        data.clear()


@pytest.mark.parametrize("name", games.names())
def test_a_record_is_the_callers_own_to_change(name):
    """Editing what ``record()`` handed out, down to a deal's card lists, changes neither
    the game nor the next record; the game plays on as its untouched record replays."""
    cls = games.get(name)
    whole = random_playout(new(name, cls.min_players, {}) or pytest.fail("defaults"), seed=5,
                           probe_every=10_000)
    record = whole.record()
    half = len(record.actions) // 2
    game = replay(record.model_copy(update={"actions": record.actions[:half]}),
                  **context(name)).game
    before, state = game.record().model_dump_json(), snapshot(game)
    assert json.loads(before)["deals"], "a deal to tamper with"
    one, two = game.record().deals, game.record().deals
    assert one == two and one[0] is not two[0]
    # ...yet two copies share their card texts (interned): a copy costs lists, not strings.
    assert all(a is b for a, b in zip(_texts(one), _texts(two), strict=True))
    # dict() of a record holds its very options, deals and actions: vandalised in place.
    _vandalise(dict(game.record()))
    _vandalise(dict(whole.record()))
    assert game.record().model_dump_json() == before
    assert snapshot(game) == state
    for line in record.actions[half:]:
        game.apply(*split_action(line, game.players))
    assert game.record() == record
