"""Invariant checks and seeded random playouts shared by every game's tests.

``random_playout`` plays uniformly random legal actions to the end and, after
every action, checks that every card is in exactly one zone, that no player
sees a card they may not, that a pile or a stock changes at its top (the first
card its zone lists, ``games/core/zones.py``), that the player to act has a legal
action, and that illegal actions raise ``GameError`` and change nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeVar

import pytest

from games.core.actions import Action
from games.core.errors import GameError
from games.core.game import Game
from games.core.records import Record
from games.core.replay import split_action, summarize
from games.core.zones import Visibility, Zone, ZoneKind, all_cards

GameT = TypeVar("GameT", bound=Game[Any])


def snapshot(game: Game[Any]) -> tuple[Any, ...]:
    """Everything observable about a state, to prove an action changed nothing."""
    return (
        summarize(game),
        [(z.name, tuple(z.cards)) for z in game.zones()],
        tuple(game.history),
        game.to_act,
    )


def check_zones(game: Game[Any]) -> None:
    """Every card of the deal in exactly one zone; hidden cards seen by their owner only."""
    assert all_cards(game.zones()) == Counter(game.deck_in_play().cards)
    for zone in game.zones():
        if zone.kind is ZoneKind.HAND:
            assert zone.visibility is Visibility.OWNER, f"{zone.name} must be private"
    for viewer in [None, *range(game.players)]:
        view = game.view_for(viewer)
        for zone, seen in zip(game.zones(), view.zones, strict=True):
            may_see = zone.visibility is Visibility.PUBLIC or (
                zone.visibility is Visibility.OWNER and viewer == zone.owner
            )
            if may_see:
                assert seen.cards == tuple(zone.cards)
            else:
                assert seen.cards is None, f"{viewer} sees {zone.name}"
            assert seen.count == len(zone.cards)


def taken_at_the_top(before: list[Zone], after: list[Zone]) -> None:
    """A pile or a stock that gained or lost one card did so at its top: every reader
    (the menu, the table, the pictures) names the top as ``zone.top``, the first card."""
    for old, new in zip(before, after, strict=True):
        if old.kind not in (ZoneKind.PILE, ZoneKind.STOCK):
            continue
        was, now = tuple(old.cards), tuple(new.cards)
        if len(now) == len(was) - 1:
            assert now == was[1:], f"{old.name} lost a card that was not its top {old.top}"
        elif len(now) == len(was) + 1:
            assert now[1:] == was, f"{old.name} gained a card below its top"


def illegal_candidates(game: Game[Any], rng: random.Random) -> list[tuple[int, Action | str]]:
    """A few actions that must be refused: the wrong player, or an action not legal now."""
    assert game.to_act is not None
    legal = set(game.legal_actions())
    out: list[tuple[int, Action | str]] = []
    others = [p for p in range(game.players) if p != game.to_act]
    if others and legal:
        out.append((rng.choice(others), rng.choice(sorted(legal, key=str))))
    universe = [Action(a.verb, c, a.arg) for a in legal for c in game.deck_in_play().cards]
    not_legal = [a for a in universe if a not in legal]
    if not_legal:
        out.append((game.to_act, rng.choice(not_legal)))
    out.append((game.to_act, "frobnicate"))
    return out


def random_playout(
    game: GameT, seed: int, *, max_actions: int = 20_000, probe_every: int = 7
) -> GameT:
    """Play random legal actions to the end, checking the invariants after each."""
    rng = random.Random(seed)
    check_zones(game)
    for step in range(max_actions):
        if game.over:
            assert game.legal_actions() == []
            assert game.to_act is None
            return game
        legal = game.legal_actions()
        assert legal, f"no legal action for seat {game.to_act} in {game.phase()}"
        if step % probe_every == 0:
            for player, bad in illegal_candidates(game, rng):
                before = snapshot(game)
                with pytest.raises(GameError):
                    game.apply(player, bad)
                assert snapshot(game) == before
        before_zones = game.zones()
        before_zones = [Zone(z.name, z.kind, tuple(z.cards), z.visibility, z.owner)
                        for z in before_zones]
        game.apply(game.to_act, rng.choice(legal))  # type: ignore[arg-type]
        check_zones(game)
        taken_at_the_top(before_zones, game.zones())
    raise AssertionError(f"the game did not end within {max_actions} actions")


def replayed(kind: type[GameT], record: Record) -> GameT:
    """``record``, a game of ``kind``, replayed to its last action (typed as ``kind``);
    AssertionError if it records another game, GameError if an action does not apply."""
    assert record.game == kind.name, f"a record of {record.game}, not {kind.name}"
    game = kind.new(record.players, record.options, seed=record.seed, dealer=record.dealer,
                    deals=record.deals)
    for line in record.actions:
        game.apply(*split_action(line, game.players))
    return game
