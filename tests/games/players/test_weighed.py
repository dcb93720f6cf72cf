"""The weighed pool of worlds shared by the games whose hard level reads the plays
(Fiasco, Fazes, Fumblaroo): drawn by weight, evenly when nothing explains the plays,
seeded by the perspective alone, and read once per perspective by a search."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import games
from games.fazes.computer import advice as fazes_advice
from games.fiasco.computer import advice as fiasco_advice
from games.fumblaroo.computer import advice as fumblaroo_advice
from games.players import decide, perspective
from games.players.weighed import (
    RULES_PRIOR,
    SLIP,
    PooledWorlds,
    Readings,
    Recent,
    WeighedPool,
    own_generator,
)


def test_draws_follow_the_weights():
    pool = WeighedPool("abc", [1.0, 3.0, 0.0])
    drawn = Counter(pool.pick(random.Random(r)) for r in range(2000))
    assert set(drawn) == {"a", "b"}
    assert 2.5 < drawn["b"] / drawn["a"] < 3.6


def test_with_every_weight_zero_the_deals_are_drawn_evenly():
    drawn = Counter(WeighedPool("abcd", [0.0] * 4).pick(random.Random(r)) for r in range(400))
    assert set(drawn) == set("abcd") and min(drawn.values()) > 60


def test_a_pool_needs_a_weight_per_deal_and_a_deal():
    with pytest.raises(ValueError, match="one weight"):
        WeighedPool("ab", [1.0])
    with pytest.raises(ValueError, match="one weight"):
        WeighedPool([], [])


def played(game: str, players: int, seed: int, actions: int):
    g = games.new_game(game, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        g.apply(g.to_act, decide("easy", perspective(g, g.to_act), rng).action)
    return perspective(g, g.to_act)


def test_the_pool_is_dealt_from_the_perspective_alone():
    p, q = played("fazes", 4, 1, 9), played("fazes", 4, 1, 9)
    assert p == q and p is not q
    assert own_generator(p).random() == own_generator(q).random()
    assert own_generator(p).random() != own_generator(played("fazes", 4, 1, 10)).random()
    one = WeighedPool.dealt(p, 8, lambda rng: rng.random(), lambda x: x)
    other = WeighedPool.dealt(q, 8, lambda rng: rng.random(), lambda x: x)
    assert one.deals == other.deals and one.cumulative == other.cumulative


def test_without_clues_a_world_is_dealt_from_the_searchs_own_generator():
    p = played("fazes", 4, 2, 0)
    worlds = PooledWorlds(p, 8, deal=lambda rng: rng.random(), make=lambda x: ("world", x),
                          weigh=None)
    assert worlds.pool is None
    assert worlds.draw(random.Random(5)) == ("world", random.Random(5).random())


def test_recent_keeps_the_last_few_perspectives_by_identity():
    made = []
    recent: Recent[int] = Recent(2)
    ps = [played("fazes", 4, s, 3) for s in range(3)]

    def make(p):
        made.append(p)
        return len(made)

    assert [recent.get(p, make) for p in (ps[0], ps[1], ps[0], ps[1])] == [1, 2, 1, 2]
    assert recent.get(ps[2], make) == 3  # the oldest, ps[0], is forgotten
    assert recent.get(ps[0], make) == 4 and recent.get(ps[2], make) == 3
    with pytest.raises(ValueError):
        Recent(0)


@pytest.mark.parametrize(("module", "game", "players"), [
    (fazes_advice, "fazes", 4), (fumblaroo_advice, "fumblaroo", 3)])
def test_two_searches_taking_turns_each_read_their_pool_once(monkeypatch, module, game,
                                                             players):
    # Two perspectives asked for worlds in turn, as two searches in threads would: each
    # pool is made once, not again at every turn; a new perspective gets a new pool.
    made = []
    real = module.Weighed

    def counted(p, size, *rest):
        made.append(p)
        return real(p, size, *rest)

    monkeypatch.setattr(module, "Weighed", counted)
    advice = type(module.ADVICE)(pool=16)
    p, q = played(game, players, 7, 10), played(game, players, 8, 11)
    for r in range(6):
        advice.sample(p, random.Random(r))
        advice.sample(q, random.Random(r))
    assert made == [p, q]
    advice.sample(played(game, players, 9, 12), random.Random(0))
    assert len(made) == 3


# Tempering (issue 22): every weight raised to a power in (0, 1] before drawing.

def test_a_temper_of_one_leaves_the_weights_and_the_draws_as_they_are():
    weights = [0.3, 1e-9, 2.5, 0.0, 0.7]
    plain, tempered = WeighedPool("abcde", weights), WeighedPool("abcde", weights, 1.0)
    assert tempered.cumulative == plain.cumulative
    assert [tempered.pick(random.Random(r)) for r in range(200)] == \
        [plain.pick(random.Random(r)) for r in range(200)]


def test_a_temper_raises_each_weight_to_its_power():
    pool = WeighedPool("abc", [4.0, 1.0, 0.0], 0.5)
    assert pool.weights() == [2.0, 1.0, 0.0]
    assert pool.effective_size() == pytest.approx(9 / 5)
    drawn = Counter(pool.pick(random.Random(r)) for r in range(2000))
    assert set(drawn) == {"a", "b"} and 1.6 < drawn["a"] / drawn["b"] < 2.5


@pytest.mark.parametrize("temper", [0, -0.5, 1.5, float("nan")])
def test_a_temper_out_of_range_is_refused(temper):
    with pytest.raises(ValueError, match=r"temper is a power in \(0, 1\]"):
        WeighedPool("ab", [1.0, 2.0], temper)
    for module in (fazes_advice, fiasco_advice, fumblaroo_advice):
        with pytest.raises(ValueError, match="temper"):
            type(module.ADVICE)(temper=temper)


@pytest.mark.parametrize(("module", "game", "players"), [
    (fazes_advice, "fazes", 4), (fumblaroo_advice, "fumblaroo", 3)])
def test_the_levels_default_is_untempered_and_draws_as_before(module, game, players):
    assert module.TEMPER == 1.0 and module.ADVICE.temper == 1.0
    p = played(game, players, 7, 10)
    plain, tempered = module.Weighed(p, 64), module.Weighed(p, 64, 1.0)
    assert plain.pool is not None and tempered.pool is not None
    assert plain.pool.cumulative == tempered.pool.cumulative
    default, one = type(module.ADVICE)(pool=64), type(module.ADVICE)(pool=64, temper=1.0)
    assert [default.sample(p, random.Random(r)).hands == one.sample(p, random.Random(r)).hands
            for r in range(8)] == [True] * 8


@pytest.mark.parametrize(("module", "game", "players", "actions"), [
    (fazes_advice, "fazes", 4, 10), (fumblaroo_advice, "fumblaroo", 3, 10)])
def test_a_smaller_temper_keeps_more_of_a_real_pool(module, game, players, actions):
    p = played(game, players, 7, actions)
    sizes = []
    for temper in (1.0, 0.5, 0.25):
        pool = module.Weighed(p, 256, temper).pool
        assert pool is not None
        sizes.append(pool.effective_size())
    assert sizes[0] < sizes[1] < sizes[2] <= 256


def test_a_seat_the_rules_explain_nowhere_weighs_the_worlds_by_its_options_alone():
    # Two worlds in which seat 1's two plays are off the rules of thumb, among 3 and 4
    # legal plays: whatever else differs, the seat's reading is its options alone, and a
    # seat whose play the rules make in one world and not the other favours that world.
    off = [Readings(3), Readings(3)]
    for r in off:
        r.read(1, chance=0.0, choices=3)
        r.read(1, chance=0.0, choices=4)
    assert off[0].weight() == off[1].weight() == pytest.approx(
        RULES_PRIOR * (SLIP / 3) * (SLIP / 4) + (1 - RULES_PRIOR) / 12)
    fits, misfits = Readings(3), Readings(3)
    fits.read(2, chance=1.0, choices=3)
    misfits.read(2, chance=0.0, choices=3)
    assert fits.weight() / misfits.weight() == pytest.approx(
        (RULES_PRIOR * (1 - SLIP + SLIP / 3) + (1 - RULES_PRIOR) / 3)
        / (RULES_PRIOR * SLIP / 3 + (1 - RULES_PRIOR) / 3))
    assert Readings(3).weight() == 1.0  # nothing read: no seat weighs anything


@pytest.mark.parametrize("prior", [-0.1, 1.5, float("nan")])
def test_a_prior_out_of_range_is_refused(prior):
    for module in (fazes_advice, fumblaroo_advice):
        with pytest.raises(ValueError, match="prior is the chance"):
            type(module.ADVICE)(prior=prior)
