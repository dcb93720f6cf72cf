"""Fizzbin's computer players: legal, blind to unseen cards, consistent samplers, finite games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.core.records import Record
from games.core.registry import new_game
from games.fizzbin import Fizzbin
from games.fizzbin.cards import special_ranks
from games.fizzbin.computer.advice import CARDS, TARGETS, FizzbinAdvice
from games.fizzbin.computer.fast import (
    CARD_ID,
    DISCARD_BASE,
    DRAW,
    RANK,
    FastFizzbin,
    action_move,
    rank_strength,
)
from games.fizzbin.computer.history import split_hands, turns
from games.fizzbin.computer.knowledge import PLAYS_SAFE, read_table
from games.fizzbin.computer.thumb import tactics_for
from games.players import decide, knowledge_for, perspective
from games.players.hard import HardPlayer
from tests.invariants import replayed

KNOW = knowledge_for("fizzbin")
CASES = [(players, time) for players in range(2, 7) for time in ("clock", "day", "night")]


def _choose(level: str, game: Fizzbin, rng: random.Random) -> Any:
    p = perspective(game, game.to_act)  # type: ignore[arg-type]
    if level == "hard":
        decision = HardPlayer(budget=500).decide(p, rng)
    else:
        decision = decide(level, p, rng)
    assert decision.action in p.legal, (level, decision)
    assert decision.reason and PLAYS_SAFE not in decision.reason
    return decision.action


def _play(levels: list[str], seed: int, **options: Any) -> Fizzbin:
    nights = iter([True, False] * 20)
    game = Fizzbin.new(len(levels), options, seed=seed, is_night=lambda: next(nights))
    rng = random.Random(seed)
    for _ in range(5000):
        if game.over:
            return game
        game.apply(game.to_act, _choose(levels[game.to_act], game, rng))  # type: ignore[arg-type]
    raise AssertionError("the game did not end")


def _pile_turns_in_a_row(game: Fizzbin, seat: int) -> int:
    """How often ``seat`` took a turn without the stack right after another such turn."""
    count = 0
    for steps in split_hands(game.history, players=game.players, hands_done=len(game.results)):
        before = False
        for actor, actions in turns(steps):
            if actor != seat:
                continue
            pile_only = "draw stack" not in actions
            count += pile_only and before
            before = pile_only
    return count


@pytest.mark.parametrize(("players", "time"), CASES, ids=str)
def test_every_level_plays_only_legal_actions_and_computers_never_stall(players, time):
    levels = [("hard", "easy", "random")[i % 3] for i in range(players)]
    game = _play(levels, seed=players * 3 + len(time), hands=1, time=time)
    assert game.over and len(game.results) == 1
    for seat, level in enumerate(levels):
        if level != "random":
            assert _pile_turns_in_a_row(game, seat) == 0


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_games_between_computers_of_one_level_end(level):
    game = _play([level] * 4, seed=11, hands=2 if level == "hard" else 5, time="day")
    assert game.over
    assert len(game.history) < 2000


def test_a_random_player_may_always_draw_the_stack_at_the_start_of_a_turn():
    # The rules' own guarantee that random play ends: each turn opens with the stack legal.
    game = Fizzbin.new(5, {"hands": 2}, seed=4)
    rng = random.Random(4)
    while not game.over:
        if game.step.value == "draw":
            assert "draw stack" in {str(a) for a in game.legal_actions()}
        game.apply(game.to_act, rng.choice(game.legal_actions()))  # type: ignore[arg-type]


def _with_unseen_swap(game: Fizzbin, seat: int) -> Fizzbin | None:
    """The same game with two cards swapped between two other players' hands, cards they
    were dealt and still hold face down, never shown: the history stays legal."""
    hand_no = len(game.results)
    record = game.record().model_dump()
    deal = record["deals"][hand_no]
    others = [q for q in range(game.players) if q != seat]
    face_up = {c.text for f in game.face_up for c in f}
    named = {word for entry in game.history for word in entry.split()}
    held = []
    for q in others:
        still = {c.text for c in game.hands[q]} - face_up - named
        dealt = [c for c in deal["hands"][q] if c in still]
        if dealt:
            held.append((q, dealt[0]))
    if len(held) < 2:
        return None
    (a, x), (b, y) = held[:2]
    deal["hands"][a] = [y if c == x else c for c in deal["hands"][a]]
    deal["hands"][b] = [x if c == y else c for c in deal["hands"][b]]
    return replayed(Fizzbin, Record.from_data(record))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_easy_and_hard_choose_alike_whatever_the_unseen_cards(players):
    rng = random.Random(players)
    game = Fizzbin.new(players, {"time": "night", "hands": 2}, seed=players)
    compared = 0
    while not game.over and compared < 4:
        for _ in range(rng.randrange(4, 25)):
            if game.over:
                break
            game.apply(game.to_act, _choose("easy", game, rng))  # type: ignore[arg-type]
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        other = _with_unseen_swap(game, seat)
        if other is None:
            continue
        assert [other.hands[q] for q in range(players)] != [game.hands[q]
                                                            for q in range(players)]
        p, q = perspective(game, seat), perspective(other, seat)
        assert p == q
        for level in ("easy", "hard"):
            one = HardPlayer(budget=400) if level == "hard" else None
            a = one.decide(p, random.Random(7)) if one else decide(level, p, random.Random(7))
            b = one.decide(q, random.Random(7)) if one else decide(level, q, random.Random(7))
            assert a == b
        compared += 1
    assert compared >= 2


def _check_world(game: Fizzbin, seat: int, world: FastFizzbin) -> None:
    """Every card the seat sees is where it sees it; the rest respect what it knows."""
    p = perspective(game, seat)
    table = read_table(p)
    n = game.players
    assert sorted(world.holding[seat]) == sorted(CARD_ID[c] for c in game.holding(seat))
    assert world.piles == [[CARD_ID[c] for c in pile] for pile in game.piles]
    assert len(world.stack) == len(game.stack)
    assert [len(h) for h in world.holding] == [len(game.holding(q)) for q in range(n)]
    everything = [c for h in world.holding for c in h] + [c for pl in world.piles for c in pl]
    assert Counter(everything + world.stack) == Counter(range(52))
    special = special_ranks(night=game.night)
    for q in range(n):
        mine = set(world.holding[q])
        assert {CARD_ID[c] for c in game.face_up[q]} <= mine
        assert table.inferred.known[q] <= mine
        if q != seat:
            assert sum(RANK[c] in special for c in mine - table.inferred.known[q]) >= \
                table.inferred.specials[q]
    assert world.to_act() == seat
    exact = FastFizzbin.from_game(game)
    assert world._after == exact._after  # the turn order, read off the seat notes
    assert (world.step, world.taken, world.pile_turn) == (exact.step, exact.taken,
                                                           exact.pile_turn)
    assert {world.action(m) for m in world.moves()} == set(p.legal)


def test_sampled_worlds_agree_with_what_the_seat_saw_and_vary():
    rng = random.Random(3)
    checked = varied = knew = 0
    for players in (2, 4, 6):
        game = Fizzbin.new(players, {"time": "day", "hands": 2}, seed=players)
        while not game.over:
            seat = game.to_act
            assert seat is not None
            p = perspective(game, seat)
            one, two = KNOW.sample(p, random.Random(1)), KNOW.sample(p, random.Random(2))
            again = KNOW.sample(p, random.Random(1))
            assert (one.holding, one.stack) == (again.holding, again.stack)
            for world in (one, two):
                _check_world(game, seat, world)
            varied += (one.holding, one.stack) != (two.holding, two.stack)
            knew += any(read_table(p).inferred.known)
            checked += 1
            game.apply(seat, _choose("easy", game, rng))
    assert varied > checked * 0.9
    assert knew > 0  # some pile cards were taken, and the sampler placed them


def test_the_history_names_no_card_a_seat_did_not_see():
    game = _play(["easy", "random", "easy"], seed=5, hands=1, time="day")
    for seat in range(3):
        p = perspective(game, seat)
        assert p.history == tuple(game.history)  # nothing to redact:
    for entry in game.history:
        _, verb, *rest = entry.split()
        # a stack draw names no card; every named card was discarded face up.
        assert verb == "discard" or rest[0] == "stack" or rest[0].isdigit()
        if rest and rest[0] == "stack":
            assert len(rest) == 1
    live = new_game("fizzbin", 3, {"time": "day"}, seed=2)
    view = perspective(live, 0).view
    assert view.zone("hand:1").cards is None and view.zone("stack").cards is None


def test_inference_knows_the_pile_cards_each_player_took():
    rng = random.Random(8)
    game = Fizzbin.new(4, {"time": "night", "hands": 1}, seed=8)
    seen = 0
    while not game.over:
        seat = game.to_act
        assert seat is not None
        table = read_table(perspective(game, seat))
        assert table.inferred.settled
        for q in range(4):
            assert table.inferred.known[q] <= {CARD_ID[c] for c in game.holding(q)}
            seen += len(table.inferred.known[q])
        game.apply(seat, _choose("easy", game, rng))
    assert seen > 0


def test_the_stall_penalty_makes_search_prefer_the_stack():
    game = Fizzbin.new(3, {"time": "day"}, seed=21)
    rng = random.Random(0)
    while True:  # find a turn start right after a pile-only turn of the player to act
        state = FastFizzbin.from_game(game)
        if state.step == DRAW and state.pile_turn[state.turn] and len(state.moves()) > 1:
            break
        legal = game.legal_actions()
        piles = [a for a in legal if a.arg not in (None, "stack")]
        game.apply(game.to_act, rng.choice(piles or legal))  # type: ignore[arg-type]
    seat = state.turn
    pile_move = state.moves()[1]
    stalled = state.copy()
    stalled.play(pile_move)
    assert stalled.values()[seat] == 0.0
    assert min(state.copy().values()) > 0.0


def test_rollouts_play_the_easy_rules_of_thumb_without_the_slips():
    rng = random.Random(6)
    game = Fizzbin.new(4, {"time": "day", "hands": 1}, seed=6)
    same = total = 0
    while not game.over:
        p = perspective(game, game.to_act)  # type: ignore[arg-type]
        world = KNOW.sample(p, random.Random(0))
        rollout = world.action(world.rollout_move(random.Random(0)))
        assert rollout in p.legal
        easy = decide("easy", p, rng).action
        same += easy == rollout
        total += 1
        game.apply(game.to_act, easy)  # type: ignore[arg-type]
    assert 0.6 * total < same < total  # the same rules, and now and then a slip


def test_a_sampled_world_looks_one_round_of_turns_ahead():
    game = Fizzbin.new(5, {"time": "night"}, seed=13)
    rng = random.Random(13)
    for _ in range(12):
        game.apply(game.to_act, _choose("easy", game, rng))  # type: ignore[arg-type]
    world = KNOW.sample(perspective(game, game.to_act), rng)  # type: ignore[arg-type]
    movers = []
    while not world.done():
        movers.append(world.to_act())
        world.play(world.rollout_move(rng))
    assert not world.hand_over() and world.moves() == () and world.to_act() == -1
    turns_taken = [m for i, m in enumerate(movers) if i == 0 or movers[i - 1] != m]
    assert len(turns_taken) == 6  # the turn under way and one more for each of the five
    assert all(0.0 < v <= 1.0 for v in world.values())


def _positions(seed: int, count: int):
    """Perspectives of easy players' seats with more than one legal action."""
    game = new_game("fizzbin", 4, {"hands": 3}, seed=seed)
    rng = random.Random(seed)
    out = []
    while not game.over and len(out) < count:
        p = perspective(game, game.to_act)  # type: ignore[arg-type]
        if len(p.legal) > 1:
            out.append(p)
        game.apply(game.to_act, decide("easy", p, rng).action)  # type: ignore[arg-type]
    return out


def test_the_search_keeps_every_draw_and_the_discards_the_rules_of_thumb_rank_best():
    advice = FizzbinAdvice()
    pruned = 0
    for p in _positions(5, 120):
        kept = list(advice.candidates(p))
        assert kept and len(set(kept)) == len(kept) and set(kept) <= set(range(len(p.legal)))
        moves = [action_move(p.legal[i]) for i in kept]
        assert {a for a in p.legal if a.verb == "draw"} <= {p.legal[i] for i in kept}
        discards = [m for m in moves if m >= DISCARD_BASE]
        cards = Counter(m >> 3 for m in discards)
        assert all(n <= TARGETS for n in cards.values())
        if CARDS == 0:  # every card the seat may throw is searched, onto fewer piles
            assert set(cards) == {action_move(a) >> 3 for a in p.legal if a.verb == "discard"}
        pruned += len(kept) < len(p.legal)
        t = read_table(p)
        # The rules of thumb's own move (without slips) is always searched.
        plan = tactics_for(t.night).plan(t.holding, t.piles, me=t.seat, step=t.step,
                                         taken=t.taken, pile_turn=t.pile_turn[t.seat],
                                         stack=t.stack > 0)
        assert plan.move in moves
        # So is a discard that leaves the best hand any one discard can leave.
        free = {action_move(a) >> 3 for a in p.legal if a.verb == "discard"}
        if discards:
            leaves = {c: rank_strength([h for h in t.holding if h != c], t.night)
                      for c in (m - (DISCARD_BASE >> 3) for m in free)}
            best = max(leaves.values())
            assert any(leaves[(m >> 3) - (DISCARD_BASE >> 3)] == best for m in discards)
    assert pruned > 20


def test_the_rules_of_thumb_may_also_prune_the_cards():
    advice = FizzbinAdvice(cards=2, targets=2)
    for p in _positions(7, 60):
        discards = [action_move(p.legal[i]) for i in advice.candidates(p)
                    if p.legal[i].verb == "discard"]
        assert len({m >> 3 for m in discards}) <= 3 and len(discards) <= 6


def test_a_longer_look_ahead_is_a_setting_of_the_advice():
    p = next(p for p in _positions(6, 40) if p.legal[0].verb == "discard")
    assert FizzbinAdvice().sample(p, random.Random(1)).turns_left == 5
    assert FizzbinAdvice(rounds=2).sample(p, random.Random(1)).turns_left == 9
    assert FizzbinAdvice(rounds=0).sample(p, random.Random(1)).turns_left > 1000
