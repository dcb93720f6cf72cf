"""Fazes' card-location inference: the clues read from the plays, the likelihood of a play
under the rules of thumb, and worlds weighed by it that favour the true deal."""

from __future__ import annotations

import math
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from games.fazes.cards import hand_size
from games.fazes.computer import advice as advice_module
from games.fazes.computer.advice import FazesAdvice, Weighed
from games.fazes.computer.bits import COLOUR_OF, RED
from games.fazes.computer.fast import FastFazes
from games.fazes.computer.inference import NOISE, clues, likelihood, readings, weight
from games.fazes.computer.knowledge import KNOWLEDGE, faze_plays, seen
from games.players import decide, perspective
from games.players.weighed import RULES_PRIOR, SLIP
from tests.games.fazes.test_players import card, cards, new, swapped_twin

#: The repository, whose ``tests`` package the subprocess imports.
ROOT = Path(__file__).resolve().parents[3]


def easy_game(players: int, faze: int, seed: int, plays: int, level: str = "easy"):
    """A faze of easy players (or of ``level``), ``plays`` plays in; the game and its
    first deal's hands."""
    g = new(players, {"fazes": [faze]}, seed)
    dealt = [list(h) for h in g.hands]
    rng = random.Random(seed)
    for _ in range(plays):
        seat = g.to_act
        g.apply(seat, decide(level, perspective(g, seat), rng).action)
    return g, dealt


@pytest.mark.parametrize(("players", "faze"), [(4, 1), (5, 3), (3, 6)])
def test_each_clue_is_the_trick_as_the_fast_path_saw_it_before_the_play(players, faze):
    from games.fazes.computer.bits import mask_of

    for seed in range(3):
        g, dealt = easy_game(players, faze, seed, players * hand_size(players) - 2)
        p = perspective(g, g.to_act)
        plays = faze_plays(p)
        found = iter(clues(p, faze, plays))
        replay = FastFazes.start(players, faze, [mask_of(h) for h in dealt],
                                 leader=plays[0][0], tricks_left=hand_size(players))
        for i, (seat, c) in enumerate(plays):
            if seat != p.seat:
                clue = next(found)
                later = mask_of(())
                for other, d in plays[i + 1:]:
                    later |= (1 << d) if other == seat else 0
                assert (clue.seat, clue.card, clue.later) == (seat, c, later)
                assert clue.played == replay.played
                assert clue.tricks_left == replay.tricks_left
                assert clue.opening == (i == 0)
                if replay.played:
                    assert (clue.led, clue.win, clue.win_trump) == (
                        replay.led, replay.win, replay.win_trump)
                else:
                    assert (clue.led, clue.win, clue.win_trump) == (-1, -1, False)
            replay.play(c)
        assert next(found, None) is None  # the seat's own plays are no clue


def test_a_play_is_as_likely_as_the_rules_of_thumb_and_their_slip_make_it():
    hand = cards("G5 G9 G13 B7")  # thumb: duck under the G10 with the G9
    clue = clues_of_one(faze=3, led_card="G10")
    alike = 3  # the greens it may play
    assert likelihood(clue(card("G9")), hand, 3, 4) == pytest.approx(1 - NOISE + NOISE / alike)
    assert likelihood(clue(card("G5")), hand, 3, 4) == pytest.approx(NOISE / alike)
    assert likelihood(clue(card("G13")), hand, 3, 4) == pytest.approx(NOISE / alike)
    assert likelihood(clue(card("B7")), hand, 3, 4) == 0.0  # not even legal with greens


def clues_of_one(faze: int, led_card: str):
    """A clue maker for the second play of a trick led with ``led_card`` by seat 0."""
    from games.fazes.computer.inference import Clue

    led = card(led_card)

    def make(played: int) -> Clue:
        return Clue(seat=1, card=played, later=0, led=COLOUR_OF[led], win=led,
                    win_trump=faze in (1, 6) and COLOUR_OF[led] == RED, played=1,
                    tricks_left=10, opening=False)
    return make


def test_the_true_deal_weighs_more_than_most_worlds_the_seat_could_imagine():
    """Over positions of easy games, where the true hands rank among the seat's pool of
    worlds by weight: with weights that read nothing the rank would be at the bottom
    (ties), with a model as good as a coin in the middle."""
    quantiles = []
    for seed in range(8):
        for plays in (12, 24, 36):
            g, _ = easy_game(4, 1, 100 + seed, plays)
            p = perspective(g, g.to_act)
            pool = Weighed(p, 64).pool
            assert pool is not None
            true = FastFazes.from_game(g).hands
            found = clues(p, 1, faze_plays(p))
            truth = weight(found, list(true), 1)
            weights = [weight(found, hands, 1) for hands in pool.deals]
            quantiles.append(sum(w < truth for w in weights) / len(weights))
    assert statistics.mean(quantiles) > 0.75


def test_draws_come_from_the_pool_and_without_clues_as_the_knowledge_deals():
    g, _ = easy_game(4, 1, 5, 14)
    p = perspective(g, g.to_act)
    worlds = Weighed(p, 32)
    assert worlds.pool is not None
    drawn = {tuple(worlds.draw(random.Random(r)).hands) for r in range(20)}
    s = seen(p)
    imagined = set()
    for hands in worlds.pool.deals:  # a drawn world is a pool's deal, the trick's cards aside
        imagined.add(tuple(FastFazes.start(4, 1, [h | sum(1 << c for q, c in s.trick if q == i)
                                                  for i, h in enumerate(hands)],
                                           leader=s.leader, tricks_left=s.tricks_left,
                                           pts=s.pts, trick=s.trick).hands))
    assert drawn <= imagined
    # At the opening nobody else has played: the knowledge's own worlds, draw for draw.
    opening = new(4, {"fazes": [1]}, 5)
    q = perspective(opening, opening.to_act)
    assert Weighed(q, 32).pool is None
    assert Weighed(q, 32).draw(random.Random(3)).hands == KNOWLEDGE.sample(
        q, random.Random(3)).hands


def test_a_pool_of_none_draws_the_knowledges_worlds():
    g, _ = easy_game(4, 1, 6, 20)
    p = perspective(g, g.to_act)
    advice = FazesAdvice(blend=0, pool=0)
    assert advice.sample(p, random.Random(4)).hands == KNOWLEDGE.sample(p, random.Random(4)).hands
    with pytest.raises(ValueError, match="pool"):
        FazesAdvice(pool=-1)


def test_the_pool_is_the_perspectives_alone_whatever_the_hidden_cards():
    # Two games alike but for two unseen cards swapped between other seats: the same
    # perspective, so the same pool and the same weights.
    compared = 0
    for seed in range(10):
        g, _ = easy_game(4, 1 + seed % 6, 30 + seed, 9 + seed % 5)
        me = g.to_act
        a, b = (me + 1) % 4, (me + 2) % 4
        twin = swapped_twin(g, a, b, g.hands[a][0].text, g.hands[b][0].text)
        if twin is None:
            continue
        p, q = perspective(g, me), perspective(twin, me)
        assert p == q and g.hands[a] != twin.hands[a]
        one, other = Weighed(p, 32).pool, Weighed(q, 32).pool
        assert one is not None and other is not None
        assert one.deals == other.deals and one.cumulative == other.cumulative
        compared += 1
    assert compared >= 4


def test_the_pool_is_the_same_in_every_process():
    # Seeded from the perspective by a checksum, never by the per-process str hash.
    script = ("from tests.games.fazes.test_inference import easy_game\n"
              "from games.players import perspective\n"
              "from games.fazes.computer.advice import Weighed\n"
              "g, _ = easy_game(4, 2, 11, 10)\n"
              "print(Weighed(perspective(g, g.to_act), 16).pool.deals)\n")
    pools = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=ROOT,
                            env={**os.environ, "PYTHONHASHSEED": seed}).stdout
             for seed in ("1", "2")}
    assert len(pools) == 1 and pools.pop().startswith("[")


def test_when_no_world_explains_the_plays_the_pool_is_drawn_from_evenly(monkeypatch):
    monkeypatch.setattr(advice_module, "weight", lambda found, hands, faze, prior: 0.0)
    g, _ = easy_game(4, 1, 5, 14)
    worlds = Weighed(perspective(g, g.to_act), 32)
    assert worlds.pool is not None and worlds.pool.cumulative[-1] == 0
    assert len({tuple(worlds.draw(random.Random(r)).hands) for r in range(20)}) > 5


def truth_against_pool(level: str, prior: float = RULES_PRIOR) -> list[float]:
    """Over positions of one-faze games of four ``level`` players: how much more likely
    (in nats) the seat to act's pool makes the true hands than its average world."""
    ratios = []
    for seed in range(8):
        for plays in (12, 24, 36):
            g, _ = easy_game(4, 1, 100 + seed, plays, level)
            p = perspective(g, g.to_act)
            pool = Weighed(p, 64, prior=prior).pool
            assert pool is not None
            found = clues(p, 1, faze_plays(p))
            truth = weight(found, list(FastFazes.from_game(g).hands), 1, prior)
            ratios.append(math.log(truth / statistics.fmean(pool.weights())))
    return ratios


def test_a_seat_off_the_rules_of_thumb_does_not_lead_the_worlds_astray():
    """Random players' plays fit the rules of thumb only in some wrong worlds: read as
    rules-of-thumb players (``prior`` 1) those worlds take the weight and the true hands
    fall far below the average world; read as either player, the plays show that the
    seat follows no rule and the pool stays about even."""
    assert statistics.fmean(truth_against_pool("random")) > -0.5
    assert statistics.fmean(truth_against_pool("random", prior=1.0)) < -1.5
    # Easy players' plays still tell where the cards lie, nearly as much either way.
    easy, ruled = truth_against_pool("easy"), truth_against_pool("easy", prior=1.0)
    assert statistics.fmean(easy) > 2.0 and statistics.fmean(easy) > 0.8 * statistics.fmean(ruled)


def test_a_seat_is_read_as_either_player_by_its_legal_plays():
    hand = cards("G5 G9 G13 B7")  # thumb: duck under the G10 with the G9
    clue = clues_of_one(faze=3, led_card="G10")
    hands = [0, hand & ~(1 << card("G9")), 0, 0]
    read = readings((clue(card("G9")),), hands, 3)
    rules, alike = 1 - NOISE + NOISE / 3, 1 / 3  # three greens it may play
    assert read.weight(1.0) == pytest.approx((1 - SLIP) * rules + SLIP * alike)
    assert read.weight(0.0) == pytest.approx(alike)
    assert read.weight() == pytest.approx(RULES_PRIOR * read.weight(1.0)
                                          + (1 - RULES_PRIOR) * alike)
