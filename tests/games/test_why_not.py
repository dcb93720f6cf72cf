"""``Game.why_not`` in every registered game: the reason ``apply`` would give, asked without
changing anything.

In seeded random playouts of every game at every player count (the shortest options, then
each other option choice once), at every turn: each action the grammar can write for the
player to act (each card they hold, a few they do not, every suit, pile and player argument)
is either legal, and ``why_not`` says None, or not, and ``why_not`` gives the message
``apply`` raises: not empty, and the game's own reason rather than the core's fallback.
Asking never changes the record.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import games
from games.core.actions import STACK, Action, Param
from games.core.errors import GameError
from games.core.game import Game
from games.core.zones import ZoneKind
from tests.games.test_every_game import new, option_sets

HELD = (ZoneKind.HAND, ZoneKind.FACE_UP)


def held(game: Game[Any], seat: int) -> list[Any]:
    """The cards ``seat`` holds: their hand and, where a game has one, their face-up card."""
    return [c for z in game.zones() if z.owner == seat and z.kind in HELD for c in z.cards]


def writable(game: Game[Any], seat: int, rng: random.Random) -> list[Action]:
    """Every action the game's grammar can write for ``seat`` now, with each card they hold
    and three they do not."""
    mine = held(game, seat)
    others = [c for c in dict.fromkeys(game.full_deck.cards) if c not in mine]
    cards = [*dict.fromkeys(mine), *rng.sample(others, min(3, len(others)))]
    seats = [str(p) for p in range(game.players)]
    values: dict[Param, list[Any]] = {
        Param.CARD: cards,
        Param.SUIT: list(game.grammar.suits),
        Param.PLAYER: seats,
        Param.SOURCE: [STACK, *seats],
    }
    out = []
    for verb, params in game.grammar.verbs.items():
        for combo in itertools.product(*(values[p] for p in params)):
            card = next((v for p, v in zip(params, combo, strict=True) if p is Param.CARD), None)
            arg = next((v for p, v in zip(params, combo, strict=True) if p is not Param.CARD),
                       None)
            out.append(Action(verb, card, arg))
    return out


def refusal(game: Game[Any], seat: int, action: Action) -> str:
    """The message ``apply`` raises for ``action`` (which must be refused)."""
    with pytest.raises(GameError) as refused:
        game.apply(seat, action)
    return refused.value.message


def check_turn(game: Game[Any], rng: random.Random) -> None:
    """``why_not`` against ``apply`` for every writable action of the player to act."""
    seat = game.to_act
    assert seat is not None
    legal = set(game.legal_actions())
    for action in writable(game, seat, rng):
        record = game.record()
        reason = game.why_not(seat, action)
        assert game.why_not(seat, str(action)) == reason
        assert game.record() == record, f"why_not({seat}, {action}) changed the game"
        if action in legal:
            assert reason is None, (action, reason)
            continue
        assert reason and reason != f"you cannot {action} now", (game.phase(), action, reason)
        assert refusal(game, seat, action) == reason
        assert game.record() == record
    other = (seat + 1) % game.players
    if other != seat:
        action = next(iter(legal))
        assert game.why_not(other, action) == refusal(game, other, action)


def playouts() -> list[Any]:
    """Every game at every player count with its shortest options, then each other choice
    of an option (``test_every_game.option_sets``) at the fewest players it fits."""
    out = []
    for name in games.names():
        cls = games.get(name)
        counts = range(cls.min_players, cls.max_players + 1)
        shortest, *others = option_sets(name)
        out += [pytest.param(name, p, shortest, id=f"{name}-{p}p") for p in counts]
        for options in others:
            fits = next(p for p in counts if new(name, p, options) is not None)
            out.append(pytest.param(name, fits, options, id=f"{name}-{fits}p-{options}"))
    return out


@pytest.mark.parametrize(("name", "players", "options"), playouts())
def test_why_not_gives_the_reason_apply_raises_and_changes_nothing(name, players, options):
    game = new(name, players, options)
    assert game is not None
    rng = random.Random(players)
    while not game.over:
        check_turn(game, rng)
        game.apply(game.to_act, rng.choice(game.legal_actions()))  # type: ignore[arg-type]
    action = Action(next(iter(game.grammar.verbs)))
    assert game.why_not(0, action) == refusal(game, 0, action) == "the game is over"
