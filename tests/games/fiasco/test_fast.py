"""The fast path plays exactly Fiasco's rules: mirrored random playouts against the game."""

from __future__ import annotations

import random

import pytest

from games.fiasco import Fiasco
from games.fiasco.computer.bits import CARDS, hand_cards, hand_int, stack_ids, stack_of
from games.fiasco.computer.fast import FiascoState, from_game
from tests.games.fiasco.helpers import deal, game
from tests.games.fiasco.test_random_playouts import OPTION_SETS


def mirror_to_horizon(g: Fiasco, rng: random.Random) -> FiascoState:
    """Play the same random legal moves on ``g`` and its fast state to the deal's end,
    checking after every move that both agree on who acts and what is legal."""
    state = from_game(g)
    rounds = len(g.rounds)
    while not state.done():
        assert state.to_act() == g.to_act
        legal = g.legal_actions()
        fast = [state.action(m) for m in state.moves()]
        assert sorted(map(str, fast)) == sorted(map(str, legal))
        assert [state.move(a) for a in fast] == sorted(state.moves())
        action = rng.choice(legal)
        assert g.to_act is not None
        g.apply(g.to_act, action)
        state.play(state.move(action))
    assert len(g.rounds) == rounds + 1, "the fast horizon is the deal's Counting Round"
    assert state.round_points() == g.rounds[-1]
    assert state.totals() == g.team_totals()
    assert state.game_over() == g.over
    assert state.to_act() == -1 and not state.moves()
    return state


def random_prefix(g: Fiasco, rng: random.Random, steps: int) -> None:
    """Play up to ``steps`` random legal actions on ``g``."""
    for _ in range(steps):
        if g.over:
            return
        assert g.to_act is not None
        g.apply(g.to_act, rng.choice(g.legal_actions()))


@pytest.mark.parametrize(("players", "options"), OPTION_SETS, ids=str)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_fast_state_mirrors_the_game_from_any_point(players, options, seed):
    rng = random.Random(seed)
    g = Fiasco.new(players, options, seed=seed * 31 + players)
    random_prefix(g, rng, rng.randrange(0, 100))
    horizons = 0
    while not g.over:
        mirror_to_horizon(g, rng)
        horizons += 1
    assert horizons, "the prefix ended the game: nothing was mirrored"


def test_fast_state_follows_an_explicit_deal_after_the_claims():
    hands = ["S8 K S7 S1 S2 S3", "R1 F R2 R3 R4 R6", "B1 F B2 B3 B4 B6", "T1 F T2 T3 T4 T6"]
    g = Fiasco.new(4, {}, seed=1, dealer=3, deals=[deal(hands)])
    mirror_to_horizon(g, random.Random(5))
    assert g.record().deals == [deal(hands)]  # the deal mirrored is the one given


def test_fast_state_deals_the_four_suit_deck_the_claims_decide():
    g = Fiasco.new(2, {"suits": "four"}, seed=9)
    g.apply(g.claim_order[0], "choose H")
    mirror_to_horizon(g, random.Random(2))
    dealt = g.record().deals[0]
    suits = {card[0] for pile in [*dealt["hands"], dealt["stock"]] for card in pile
             if len(card) == 2}  # suit and rank: not a King, not a Fiasco
    claimed = {suit for claim in g.claims for suit in claim}
    assert claimed == {"H", "S"} and len(suits) == 4 and claimed < suits


def test_a_tie_on_the_last_cards_is_re_played_after_the_next_batch():
    # 4 players: 6, 6, 1 cards. Everyone plays K last from the first batch: a tie.
    g = game(4, ["S1 S2 S3 S4 S6 K", "R1 R2 R3 R4 R6 K", "B1 B2 B3 B4 B6 K",
                 "T1 T2 T3 T4 T6 K"])
    state = mirror_to_horizon(g, random.Random(0))
    assert state.done()


def test_copy_is_independent_of_the_original():
    g = Fiasco.new(4, {}, seed=3)
    random_prefix(g, random.Random(1), 20)
    state = from_game(g)
    before = (state.hands[:], state.pot[:], state.colls[:], state.to_act())
    twin = state.copy()
    rng = random.Random(4)
    while not twin.done():
        twin.play(rng.choice(twin.moves()))
    assert (state.hands, state.pot, state.colls, state.to_act()) == before


def test_encoding_round_trips_hands_and_collections():
    cards = [CARDS[0], CARDS[41], CARDS[42], CARDS[42], CARDS[43]]
    assert sorted(hand_cards(hand_int(cards))) == [0, 41, 42, 42, 43]
    assert stack_ids(stack_of(cards)) == [43, 42, 42, 41, 0]


def state_of(g: Fiasco) -> dict[str, object]:
    """Every attribute of ``g``, the generator by its state, for equality."""
    return {k: (v.getstate() if isinstance(v, random.Random) else v) for k, v in vars(g).items()}


def games_at_every_stage() -> list[Fiasco]:
    """Games claiming, mid-deal, in a later deal, over, and without a seed."""
    out = []
    for steps in (0, 1, 30, 120, 400):
        g = Fiasco.new(3, {"length": "extended"}, seed=steps + 2)
        random_prefix(g, random.Random(steps), steps)
        out.append(g)
    out.append(game(2, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7"]))
    unseeded = Fiasco.new(2, {}, dealer=0, deals=[deal(["S1 S2 S3 S4 S6 S7",
                                                        "R1 R2 R3 R4 R6 R7"])])
    assert unseeded.rng is None
    out.append(unseeded)
    return out


@pytest.mark.parametrize("g", games_at_every_stage(), ids=lambda g: g.phase())
def test_clone_shares_no_mutable_part_with_the_original(g):
    twin = g.clone()
    shared_by_design = {"_explicit_deals"}
    for name, value in vars(g).items():
        if name in shared_by_design or not isinstance(value, list | dict | set | random.Random):
            continue
        assert vars(twin)[name] is not value, name
        for i, item in enumerate(value if isinstance(value, list) else []):
            if isinstance(item, list):
                assert vars(twin)[name][i] is not item, f"{name}[{i}]"


@pytest.mark.parametrize("g", games_at_every_stage(), ids=lambda g: g.phase())
def test_playing_on_a_clone_leaves_the_original_as_it_was(g):
    before = state_of(g)
    twin = g.clone()
    assert state_of(twin) == before
    random_prefix(twin, random.Random(8), 500)
    assert state_of(g) == before


@pytest.mark.parametrize("g", games_at_every_stage(), ids=lambda g: g.phase())
def test_clone_then_the_same_actions_equals_the_original_then_them(g):
    twin = g.clone()
    random_prefix(g, random.Random(3), 500)
    random_prefix(twin, random.Random(3), 500)
    assert state_of(twin) == state_of(g)
    assert twin.record() == g.record()
