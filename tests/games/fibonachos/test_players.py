"""Fibonachos' computer players: legal and finite at every level, blind to unseen
cards, and sampling worlds consistent with what their seat has seen."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core.records import Record
from games.core.registry import new_game
from games.fibonachos import Fibonachos
from games.fibonachos.cards import NACHO_DECK, SPICY_DECK
from games.fibonachos.computer.bits import CARD, SUIT, card_id, hand_cards, hand_mask
from games.fibonachos.computer.fast import FibonachosState
from games.fibonachos.computer.knowledge import KNOWLEDGE, round_plays, suit_caps
from games.fibonachos.computer.thumb import Intent, choose, intent, wins_so_far
from games.players import Perspective, decide, knowledge_for, perspective
from games.players.hard import HardPlayer
from tests.invariants import replayed

PLAYERS = (2, 3, 4, 5)
LEVELS = ("random", "easy", "hard")
SMALL_BUDGET = 400


def choice(level: str, p: Perspective, rng: random.Random):
    if level == "hard":
        return HardPlayer(budget=SMALL_BUDGET).decide(p, rng)
    return decide(level, p, rng)


def computers_play(players: int, rounds: int, seats: list[str], seed: int) -> Fibonachos:
    """A whole game between computer players of the given levels, checking each choice."""
    g = Fibonachos.new(players, {"rounds": rounds}, seed=seed)
    rng = random.Random(seed)
    limit = rounds * g.trick_size * g.tricks_per_round
    for _ in range(limit):
        if g.over:
            break
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        d = choice(seats[seat], p, rng)
        assert d.action in g.legal_actions(seat), (seats[seat], d)
        assert d.reason
        g.apply(seat, d.action)
    assert g.over, "computer players must finish the game"
    return g


def midgame(players: int, seed: int, rounds: int = 2) -> Fibonachos:
    """A game some random actions in, into any round, not over."""
    g = Fibonachos.new(players, {"rounds": rounds}, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, rounds * g.trick_size * g.tricks_per_round - 1)):
        g.apply(g.to_act or 0, rng.choice(g.legal_actions()))
    assert not g.over
    return g


def test_the_knowledge_is_registered():
    assert knowledge_for("fibonachos") is KNOWLEDGE


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5])
def test_mixed_levels_choose_only_legal_actions_and_finish(players, rounds):
    seats = [LEVELS[(rounds + i) % 3] for i in range(players)]
    g = computers_play(players, rounds, seats, seed=10 * players + rounds)
    assert len(g.rounds) == rounds


@pytest.mark.parametrize("level", LEVELS)
def test_a_table_of_one_level_finishes(level):
    g = computers_play(4, 1, [level] * 4, seed=3)
    assert len(g.rounds) == 1 and g.winners


# --- blind to what the seat has not seen -------------------------------------------


def swapped_unseen(g: Fibonachos, seat: int) -> Fibonachos | None:
    """The same game with two cards the seat has not seen swapped in the round's deal:
    same-suit cards still in two other hidden places (hands, or the cards set aside)."""
    record = g.record().model_dump()
    deal = record["deals"][-1]
    hidden = [("hands", q) for q in range(g.players) if q != seat] + [("aside", None)]
    places = {("hands", q): g.hands[q] for q in range(g.players) if q != seat}
    places[("aside", None)] = g.aside
    for i, a in enumerate(hidden):
        for b in hidden[i + 1:]:
            for ca in places[a]:
                for cb in places[b]:
                    if ca.suit == cb.suit and ca != cb:
                        new_deal = _swap(deal, a, ca.text, b, cb.text)
                        data = {**record, "deals": [*record["deals"][:-1], new_deal]}
                        return replayed(Fibonachos, Record.from_data(data))
    return None


def _swap(deal, a, ta, b, tb):
    out = {k: [list(x) for x in v] if k in ("hands", "decks") else list(v)
           for k, v in deal.items()}

    def pile(place):
        kind, q = place
        return out[kind][q] if q is not None else out[kind]

    pa, pb = pile(a), pile(b)
    pa[pa.index(ta)] = tb
    pb[pb.index(tb)] = ta
    return out


@pytest.mark.parametrize("players", PLAYERS)
def test_the_same_choice_whatever_the_unseen_cards(players):
    checked = 0
    for seed in range(6):
        g = midgame(players, 50 * players + seed)
        seat = g.to_act
        assert seat is not None
        other = swapped_unseen(g, seat)
        if other is None or len(g.legal_actions()) < 2:
            continue
        p, q = perspective(g, seat), perspective(other, seat)
        assert p == q
        assert [list(z.cards) for z in g.zones()] != [list(z.cards) for z in other.zones()]
        for level in ("easy", "hard"):
            assert choice(level, p, random.Random(seed)) == choice(level, q, random.Random(seed))
        checked += 1
    assert checked >= 2


# --- sampled worlds ------------------------------------------------------------------


def revealed_voids(g: Fibonachos) -> set[tuple[int, int]]:
    """(seat, suit) for each seat that did not follow a lead suit this round."""
    plays = round_plays(perspective(g, 0))
    size = g.trick_size
    return {(s, SUIT[card_id(plays[i - i % size][1])]) for i, (s, c) in enumerate(plays)
            if i % size and c.suit != plays[i - i % size][1].suit}


@pytest.mark.parametrize("players", PLAYERS)
def test_sampled_worlds_keep_what_the_seat_sees_and_the_counts(players):
    for seed in range(8):
        g = midgame(players, 70 * players + seed)
        seat = g.to_act
        assert seat is not None
        real = FibonachosState.from_game(g)
        world = KNOWLEDGE.sample(perspective(g, seat), random.Random(seed))
        assert world.hands[seat] == real.hands[seat]
        assert (world.trick, world.leader, world.turn, world.tricks_left) == (
            real.trick, real.leader, real.turn, real.tricks_left)
        assert (world.prize, world.won) == (real.prize, real.won)
        assert sorted(world.spicy) == sorted(real.spicy)
        for q in range(players):
            assert len(hand_cards(world.hands[q])) == len(g.hands[q])
        assert [len(d) for d in world.decks] == [len(d) for d in g.decks]
        unseen = Counter(NACHO_DECK.cards)
        unseen.subtract([*g.hands[seat], *g.played, *(c for _, c in g.trick)])
        dealt = Counter(CARD[c] for q in range(players) if q != seat
                        for c in hand_cards(world.hands[q]))
        dealt.update(CARD[c] for d in world.decks for c in d)
        assert not dealt - unseen, "a sampled card the seat has seen elsewhere"


@pytest.mark.parametrize("players", (3, 4, 5))
def test_sampled_worlds_respect_revealed_voids_and_replay_the_round(players):
    voids_seen = 0
    for seed in range(10):
        g = midgame(players, 90 * players + seed)
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        world = KNOWLEDGE.sample(p, random.Random(seed))
        for q, suit in revealed_voids(g):
            voids_seen += q != seat
            if q != seat:
                assert not any(SUIT[c] == suit for c in hand_cards(world.hands[q]))
        assert_round_replays(g, world, p)
    assert voids_seen


def assert_round_replays(g: Fibonachos, world: FibonachosState, p: Perspective) -> None:
    """The round's plays are legal again from the deal the world implies."""
    plays = round_plays(p)
    hands = [[CARD[c] for c in hand_cards(world.hands[q])] for q in range(g.players)]
    for q, card in plays:
        hands[q].append(card)
    rest = Counter(NACHO_DECK.cards)
    rest.subtract(c for h in hands for c in h)
    deal = {"hands": [[c.text for c in h] for h in hands],
            "spicy": g.record().deals[-1]["spicy"],
            "aside": [c.text for c in rest.elements()]}
    again = Fibonachos.new(g.players, {"rounds": 1}, dealer=g.dealer, deals=[deal])
    for q, card in plays:
        assert again.why_not(q, f"play {card}") is None, (q, card)  # the world fits
        again.apply(q, f"play {card}")


def test_two_player_voids_cap_the_suit_by_the_draws_since():
    # Seat 1 shows a void in Red twice; after the second it drew once: one Red at most.
    plays = [(0, NACHO_DECK.parse("R5")), (1, NACHO_DECK.parse("G4")),
             (0, NACHO_DECK.parse("R6")), (1, NACHO_DECK.parse("Y9"))]
    caps = suit_caps(2, plays)
    assert caps[1][SUIT[card_id(NACHO_DECK.parse("R5"))]] == 1
    assert suit_caps(2, plays[:2])[1][0] == 1  # one draw since the first
    assert caps[0] == [len(NACHO_DECK)] * 3
    assert suit_caps(3, plays[:3])[1][0] == 0


def test_two_player_sampled_worlds_respect_the_void_caps_and_hide_the_own_deck():
    for seed in range(10):
        g = midgame(2, 30 + seed)
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        caps = suit_caps(2, round_plays(p))
        decks = set()
        for k in range(4):
            world = KNOWLEDGE.sample(p, random.Random(k))
            other = 1 - seat
            held = Counter(SUIT[c] for c in hand_cards(world.hands[other]))
            assert all(held[s] <= caps[other][s] for s in range(3))
            decks.add(tuple(world.decks[seat]))
        if len(g.decks[seat]) > 1:
            assert len(decks) > 1, "the seat's own deck is unknown to it (issue 11)"


def test_sampled_worlds_are_canonical_and_vary_with_the_generator():
    g = midgame(4, 5)
    seat = g.to_act or 0
    p = perspective(g, seat)
    a = KNOWLEDGE.sample(p, random.Random(1))
    b = KNOWLEDGE.sample(perspective(g.clone(), seat), random.Random(1))
    c = KNOWLEDGE.sample(p, random.Random(2))
    assert (a.hands, a.spicy) == (b.hands, b.spicy)
    assert (a.hands, a.spicy) != (c.hands, c.spicy)


def test_spicy_deck_of_a_world_is_what_is_left():
    g = midgame(3, 8)
    world = KNOWLEDGE.sample(perspective(g, g.to_act or 0), random.Random(0))
    left = Counter(c.rank for c in SPICY_DECK)
    left.subtract(c.rank for w in g.won for c in w)
    left.subtract(c.rank for c in g.prize)
    assert Counter(world.spicy) == +left


# --- what is hidden --------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_a_perspective_holds_no_card_the_seat_may_not_see(players):
    g = midgame(players, 3 * players)
    seat = g.to_act or 0
    p = perspective(g, seat)
    assert p.history == tuple(g.history)  # every play is public
    assert KNOWLEDGE.redact(seat, 1 - seat if seat else 1, "play R4") == "play R4"
    for zone in p.view.zones:
        if zone.name.startswith("hand:") and zone.name != f"hand:{seat}":
            assert zone.cards is None
        if zone.name in ("aside", "spicy"):
            assert zone.cards is None


# --- the rules of thumb ----------------------------------------------------------------


def ids(*texts: str) -> list[int]:
    return [card_id(NACHO_DECK.parse(t)) for t in texts]


def mask(*texts: str) -> int:
    return hand_mask([NACHO_DECK.parse(t) for t in texts])


def test_a_clean_player_ducks_with_its_highest_card_that_loses():
    trick = ids("R12", "R4", "Y9")
    card = choose(mask("R2", "R9", "R11", "R14"), trick, after=0, spicy_sum=0, prize=3)
    assert CARD[card].text == "R11"


def test_a_player_who_must_win_and_plays_last_sheds_its_highest():
    card = choose(mask("R14", "R15"), ids("R12"), after=0, spicy_sum=0, prize=3)
    assert CARD[card].text == "R15"


def test_a_player_who_holds_spicy_takes_the_pot_with_the_cheapest_winner():
    card = choose(mask("R2", "R9", "R14", "R16"), ids("R12", "R4"), after=1, spicy_sum=5,
                  prize=3)  # 5 + 3 = 8 scores 13, more than 5's 8
    assert CARD[card].text == "R14"


def test_a_second_fibonacho_makes_trumps_and_the_naive_player_forgets_it():
    trick = ids("R16", "Y13")  # one Fibonacho so far: R16 would still win
    assert not wins_so_far(trick, card_id(NACHO_DECK.parse("G15")))
    assert wins_so_far(trick, card_id(NACHO_DECK.parse("G13")))  # equal: the last wins
    assert not wins_so_far(trick, card_id(NACHO_DECK.parse("G8")))
    assert wins_so_far(ids("R4"), card_id(NACHO_DECK.parse("R5")), naive=True)
    assert not wins_so_far(ids("R4", "Y8"), card_id(NACHO_DECK.parse("R5")))
    assert wins_so_far(ids("R4", "Y8"), card_id(NACHO_DECK.parse("R5")), naive=True)


def test_a_lone_fibonacho_is_not_a_safe_duck_when_others_play_after():
    # Y5 loses to R16 now, but any later Fibonacho would make it the top trump.
    card = choose(mask("Y5", "Y4"), ids("R16"), after=2, spicy_sum=0, prize=2)
    assert CARD[card].text == "Y4"


def test_leads_low_to_duck_and_high_to_take():
    hand = mask("G3", "Y7", "R15")
    assert CARD[choose(hand, [], after=3, spicy_sum=0, prize=1)].text == "G3"
    assert CARD[choose(hand, [], after=3, spicy_sum=4, prize=1)].text == "R15"
    assert intent(0, 0) is Intent.SHED and intent(0, 3) is Intent.DUCK
    assert intent(3, 1) is Intent.DUCK  # 4 scores less than 3's 5


def test_easy_explains_its_choice_in_words():
    g = new_game("fibonachos", 4, seed=3)
    p = perspective(g, g.to_act or 0)
    d = KNOWLEDGE.easy(p, random.Random(0))
    assert d.reason == "a low lead leaves the prize to the others"
    assert KNOWLEDGE.why(p, d.action) == d.reason
