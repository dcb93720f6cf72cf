"""Fizzbin's rules, one test per "Tests must cover" bullet of rules/fizzbin.md, on stacked
deals, plus illegal actions, malformed setups and the clock."""

from __future__ import annotations

import random

import pytest

from games.core.errors import GameOver, IllegalAction, NotYourTurn, SetupError, UnknownAction
from games.core.registry import new_game
from games.fizzbin import Fizzbin
from games.fizzbin.cards import DECK
from games.fizzbin.scoring import HandRank, judge, rank_hand
from tests.games.fizzbin.helpers import (
    DAY_ALL_RANKS,
    DAY_ALL_RANKS_STACK,
    NIGHT_ALL_RANKS,
    act,
    deal,
    draw_and_discard_stack,
    game,
    hand_of,
    legal,
)
from tests.invariants import snapshot

# Four players, nothing special or forced by day or by night in any hand.
PLAIN4 = [
    "3S 5S 6S 8S 9S TS JS",
    "3H 5H 6H 8H 9H TH JH",
    "3D 5D 6D 8D TD JD",
    "3C 5C 6C 8C 9C TC",
]


def cards(text: str) -> list:
    return [DECK.parse(t) for t in text.split()]


def discards(g: Fizzbin, card: str) -> set[str]:
    return {a for a in legal(g) if a.startswith(f"discard {card} ")}


# --- the deal ---------------------------------------------------------------------------


def test_deal_gives_six_each_and_seven_to_the_dealer_and_left_with_the_second_face_up():
    hands = ["AS 3S 5S 6S 8S 9S", "AH 3H 5H 6H 8H 9H",
             "AD 3D 5D 6D 8D 9D TD", "AC 3C 5C 6C 8C 9C TC"]
    g = game(hands, "7S", dealer=2)  # seat 3 is the dealer's left
    assert [len(g.holding(p)) for p in range(4)] == [6, 6, 7, 7]
    assert g.face_up == [[], [], cards("3D"), cards("3C")]
    assert "3D" not in {c.text for c in g.hands[2]}
    assert len(g.stack) == 52 - 26 and g.to_act == 3
    view = g.view_for(0)
    assert view.zone("face_up:2").cards == tuple(cards("3D"))
    assert view.zone("hand:2").cards is None and view.zone("hand:2").count == 6
    assert view.zone("hand:0").cards == tuple(cards("AS 3S 5S 6S 8S 9S"))
    assert view.zone("stack").cards is None and view.zone("stack").count == 26
    # the face-up card may be discarded like any other, and then it is no longer shown
    act(g, "3 draw stack", "3 discard 3C 0")
    assert g.face_up[3] == [] and g.view_for(None).zone("pile:0").cards == tuple(cards("3C"))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_shuffled_deal_gives_seven_to_the_dealer_and_left_and_the_rest_is_the_stack(players):
    g = Fizzbin.new(players, {"time": "day"}, seed=11, dealer=players - 1)
    sizes = [len(g.holding(p)) for p in range(players)]
    expected = [6] * players
    expected[0] = expected[players - 1] = 7
    assert sizes == expected
    assert len(g.stack) == 52 - sum(sizes)
    assert [len(f) for f in g.face_up] == [1 if s == 7 else 0 for s in sizes]
    assert g.record().deals[0]["hands"][0][1] == g.face_up[0][0].text


def test_the_seven_card_hands_must_be_the_dealers_and_the_left_players():
    with pytest.raises(SetupError, match="7-card"):
        game(PLAIN4, dealer=2)  # lists 0 and 1 hold seven, but seats 2 and 3 deal and lead


# --- turn order -----------------------------------------------------------------------


def test_play_goes_counter_clockwise_from_the_dealers_left():
    hands = ["AH 3H 5H 6H 8H 9H", "AD 3D 5D 6D 8D 9D TD", "AC 3C 5C 6C 8C 9C TC",
             "7S 7H 7D 7C JS JH", "JD JC TH AS 2S 2H"]
    g = game(hands, "3S 5S 6S 8S 9S TS", dealer=1)
    order = []
    for _ in range(6):
        order.append(g.to_act)
        draw_and_discard_stack(g, 1)
    assert order == [2, 1, 0, 4, 3, 2]


# --- special and forced draws ------------------------------------------------------------


@pytest.mark.parametrize(("time", "stack"), [("day", "KH 2C 9D"), ("night", "QS 4D 9D")])
def test_special_cards_chain_draws_until_a_plain_card(time, stack):
    g = game(PLAIN4, stack, time=time)
    first, second, plain = stack.split()
    act(g, "1 draw stack")
    assert "draw stack" in legal(g)
    assert discards(g, first) == {f"discard {first} {p}" for p in range(4)}
    act(g, "1 draw stack")
    assert "draw stack" in legal(g) and g.to_act == 1
    act(g, "1 draw stack")
    assert all(a.startswith("discard ") for a in legal(g))
    assert {first, second, plain} <= hand_of(g, 1)
    with pytest.raises(IllegalAction, match="drawing is over"):
        g.apply(1, "draw stack")


@pytest.mark.parametrize(("time", "card"), [("day", "QH"), ("day", "4S"),
                                            ("night", "KH"), ("night", "2C")])
def test_a_forced_card_from_the_stack_goes_onto_the_drawers_own_pile(time, card):
    g = game(PLAIN4, card, time=time)
    events = g.apply(1, "draw stack")
    assert [e.kind for e in events] == ["forced"]
    assert g.piles[1] == cards(card) and card not in hand_of(g, 1)
    assert legal(g) == {f"discard {c} {p}" for c in hand_of(g, 1) for p in range(4)}


@pytest.mark.parametrize(("time", "forced"), [("day", "QC"), ("night", "KC")])
def test_a_forced_card_from_a_pile_goes_onto_the_drawers_own_pile(time, forced):
    hands = [h.replace("TC", forced) for h in PLAIN4]
    g = game(hands, "9D 7S 7H 7D", time=time)
    act(g, "1 draw stack", "1 discard 9D 1", "0 draw stack", "0 discard 7S 0",
        "3 draw stack", f"3 discard {forced} 2")
    assert g.to_act == 2
    events = g.apply(2, "draw 2")  # from their own pile: back onto it
    assert [e.kind for e in events] == ["forced"] and g.piles[2] == cards(forced)
    act(g, "2 discard 3D 3", "1 draw stack", "1 discard 3H 1")
    act(g, "0 draw 2")
    assert g.piles[0][-1].text == forced and g.piles[2] == []
    assert forced not in hand_of(g, 0)
    assert "draw stack" not in legal(g)


def test_a_special_card_taken_from_a_pile_also_lets_you_draw_again():
    hands = [h.replace("TC", "KC") for h in PLAIN4]
    g = game(hands, "9D 7S 7H", time="day")
    act(g, "1 draw stack", "1 discard 9D 1", "0 draw stack", "0 discard 7S 0",
        "3 draw stack", "3 discard KC 2", "2 draw 2")
    assert {"draw stack", "draw 0", "draw 1"} <= legal(g)
    assert discards(g, "KC") == set()


# --- pile cards may not be this turn's discard ---------------------------------------


def test_a_card_taken_from_a_pile_may_not_be_discarded_the_same_turn():
    g = game(PLAIN4, "9D 7S 7H 7D 7C")
    act(g, "1 draw stack", "1 discard 9D 1", "0 draw 1")
    assert "9D" in hand_of(g, 0) and discards(g, "9D") == set()
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="♦️9 was taken from a pile this turn"):
        g.apply(0, "discard 9D 2")
    assert snapshot(g) == before
    act(g, "0 discard 3S 0", "3 draw stack", "3 discard 7S 3", "2 draw stack",
        "2 discard 7H 2", "1 draw stack", "1 discard 7D 1", "0 draw stack")
    assert discards(g, "9D") == {f"discard 9D {p}" for p in range(4)}  # a later turn: it may
    assert discards(g, "7C") == {f"discard 7C {p}" for p in range(4)}  # a stack card may


def test_a_turn_with_no_card_that_may_be_discarded_ends_without_a_discard():
    # Two players; player 1 (dealer's left) draws a forced Q or 4 on each of seven turns
    # and discards down to an empty hand, then takes a pile card it may not discard.
    forced = ["QS", "QH", "QD", "QC", "4S", "4H", "4D"]
    plain = ["3S", "3H", "3D", "3C", "5S", "5H", "5D"]
    hands = ["AS AH AD AC JS JH JD", "7S 7H 7D 7C 8S 8H 8D"]
    stack = " ".join(x for pair in zip(forced, plain, strict=True) for x in pair)
    g = game(hands, stack, dealer=0, time="day")
    for f, p, own in zip(forced, plain, hands[1].split(), strict=True):
        act(g, "1 draw stack", f"1 discard {own} 1", "0 draw stack", f"0 discard {p} 0")
        assert g.piles[1][-2:] == cards(f"{f} {own}")
    assert g.holding(1) == []
    events = g.apply(1, "draw 0")
    assert [e.kind for e in events] == ["draw", "skip"]
    assert g.to_act == 0 and hand_of(g, 1) == {"5D"} and g.taken == []


# --- the end of a hand ------------------------------------------------------------------


def test_the_hand_ends_after_the_turn_in_which_the_stack_runs_out():
    g = game(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, hands=2)
    draw_and_discard_stack(g, 13)
    assert len(g.stack) == 1 and g.results == []
    act(g, "0 draw stack")
    assert g.stack == [] and g.to_act == 0 and g.results == []  # the turn goes on
    act(g, "0 discard TC 0")
    assert len(g.results) == 1 and len(g.rounds) == 1


def test_when_the_last_stack_card_is_special_extra_draws_come_from_piles_only():
    hands = ["QS QH QD QC 4S 4H 4D", "4C KS KH KD 2S 2H 2D", "2C AS AH AD AC 3S",
             "3H 3D 3C 5S 5H 5D", "5C 6S 6H 6D 6C 7S", "7H 7D 7C 8S 8H 8D"]
    g = game(hands, "8C 9S 9H 9D 9C TS TH TD TC JS JH JD JC", stack_bottom="KC",
             time="day", hands=1)
    draw_and_discard_stack(g, 13)
    act(g, "0 draw stack")
    assert g.stack == []
    assert {a for a in legal(g) if a.startswith("draw")} == {f"draw {p}" for p in range(6)}
    act(g, "0 draw 1", "0 discard KC 3")
    assert g.over and len(g.results) == 1


# --- hand ranks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "night", "rank"),
    [
        ("KD 2H AS AH JS JH", False, HandRank.ROYAL),
        ("QD 4H AS AH 7S 7H 9C", True, HandRank.ROYAL),
        ("KD 2H 7S 7H 3C", False, HandRank.FULL),
        ("QD 4H JS JH 3C KS KH", True, HandRank.FULL),
        ("3H 5D 6H 8D 9H TD AS", False, HandRank.THREE_QUARTERS),
        ("3S 5C 6S 8C 9S TC 3H 5D", True, HandRank.THREE_QUARTERS),
        ("JS JH KD 3C", False, HandRank.HALF),
        ("7S 7C QD 3C", True, HandRank.HALF),
        ("KD 2H 5S 6S", False, HandRank.NOTHING),
        ("QD 4H 5S 9S", True, HandRank.NOTHING),
        ("", False, HandRank.NOTHING),
        ("KD 2H AS AH AD", False, HandRank.SHRONK),
        ("3S 3H 3D 3C QD 4H", True, HandRank.SHRONK),
    ],
)
def test_every_hand_rank_by_day_and_by_night(hand, night, rank):
    assert rank_hand(cards(hand), night=night) is rank


@pytest.mark.parametrize(
    ("hand", "day", "night"),
    [
        ("KD 2H AS AH JS JH", HandRank.ROYAL, HandRank.HALF),  # K and 2 only count by day
        ("QD 4H 7S 7H", HandRank.HALF, HandRank.FULL),
        ("3H 5D 6H 8D 9H TD", HandRank.THREE_QUARTERS, HandRank.NOTHING),  # red is for day
        ("3H 5D 6H 8D 9H TS", HandRank.NOTHING, HandRank.NOTHING),  # a black 10 spoils it
        ("KD 2H KS AS AH", HandRank.FULL, HandRank.HALF),  # a pair of kings counts nothing
    ],
)
def test_the_same_hand_ranks_by_the_time_of_day(hand, day, night):
    assert rank_hand(cards(hand), night=False) is day
    assert rank_hand(cards(hand), night=True) is night


def test_every_rank_is_shown_when_a_hand_by_day_ends():
    g = game(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, hands=2)
    draw_and_discard_stack(g, 14)
    assert g.results[0].as_json()["ranks"] == ["full", "royal", "three-quarters", "half", "nothing",
                                     "shronk"]


def test_every_rank_is_shown_when_a_hand_by_night_ends():
    g = game(NIGHT_ALL_RANKS, time="night", night=True, hands=1)
    assert g.night
    draw_and_discard_stack(g, 14)
    assert g.over
    assert [r.as_json() for r in g.results] == [{"winner": 1, "loser": 5, "ranks": [
        "full", "royal", "three-quarters", "half", "nothing", "shronk"]}]
    assert g.scores == [0, 1, 0, 0, 0, 0] and g.winners == (1,)


def test_shronk_beats_a_royal_like_hand_to_the_bottom():
    assert rank_hand(cards("KS 2S AS AH JS JH JD"), night=False) is HandRank.SHRONK
    assert rank_hand(cards("KS 2S AS AH JS JH JD JC"), night=False) is HandRank.SHRONK
    hands = list(DAY_ALL_RANKS)
    hands[1], hands[5] = "KS 2S AS AH JS JH 3S", "QC 4D KH 3C 3D 5S"
    g = game(hands, "JD 6S TS 5H 8H TH 6D 7D 9D 5C 6C 8C 9C TC", hands=2)
    act(g, "1 draw stack")  # the third jack
    act(g, "1 discard 3S 1")
    draw_and_discard_stack(g, 13)
    assert g.results[0].as_json()["ranks"][1] == "shronk" and g.results[0].as_json()["loser"] == 1
    assert g.results[0].as_json()["winner"] == 0  # the full fizzbin is now the one best hand


# --- winner and loser -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([HandRank.HALF, HandRank.HALF, HandRank.NOTHING], (None, 2)),  # shared best
        ([HandRank.ROYAL, HandRank.NOTHING, HandRank.NOTHING], (0, None)),  # shared worst
        ([HandRank.NOTHING, HandRank.NOTHING], (None, None)),
        ([HandRank.NOTHING, HandRank.SHRONK, HandRank.NOTHING], (None, 1)),  # best below half
        ([HandRank.NOTHING, HandRank.HALF], (1, 0)),
        ([HandRank.SHRONK, HandRank.SHRONK, HandRank.HALF], (2, None)),
    ],
)
def test_shared_best_or_worst_means_no_winner_or_no_loser(ranks, expected):
    assert judge(ranks) == expected


def test_with_no_winner_nobody_scores_or_moves_and_the_same_dealer_deals_again():
    hands = ["KD 2H 7S 7H 2D 4C QS", "KS 2S AS AH QH 4H KH", "3H 5D 6H 8D 9H TD",
             "AC AD KC 4S 9S JC", "2C QD 7C JD 8S 6S", "QC 4D 3S 3C 3D 5S"]
    g = game(hands, hands=2)
    events = []
    for _ in range(14):
        p = g.to_act
        before = hand_of(g, p)
        g.apply(p, "draw stack")
        (new,) = hand_of(g, p) - before
        events = g.apply(p, f"discard {new} {p}")
    assert g.results[0].as_json() == {"winner": None, "loser": 5, "ranks": [
        "full", "full", "three-quarters", "half", "nothing", "shronk"]}
    assert g.scores == [0] * 6 and g.rounds == [[0] * 6]
    assert [g.seat_of(p) for p in range(6)] == list(range(6))
    assert g.dealer == 0 and g.to_act == 1
    assert "swap" not in [e.kind for e in events]
    assert len(g.holding(0)) == len(g.holding(1)) == 7  # the second deal, same dealer


# --- after a hand: the swap and the new dealer ------------------------------------------


def test_the_loser_swaps_to_the_winners_left_and_the_winner_deals_next():
    second = deal(["AS 2S 3S 4S 5S 6S", "7S 8S 9S TS JS QS KS", "AH 2H 3H 4H 5H 6H",
                   "7H 8H 9H TH JH QH", "KH AD 2D 3D 4D 5D",
                   "6D 7D 8D 9D TD JD QD"], "3C 5C 6C 8C", night=False)
    g = game(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, more=[second], hands=2)
    events = []
    for _ in range(14):
        p = g.to_act
        g.apply(p, "draw stack")
        events = g.apply(p, f"discard {g.hands[p][-1]} {p}")
    assert g.results[0].as_json()["winner"] == 1 and g.results[0].as_json()["loser"] == 5
    assert g.scores == [0, 1, 0, 0, 0, 0]
    assert [g.seat_of(p) for p in range(6)] == [0, 1, 5, 3, 4, 2]  # 5 <-> 2, 1 stays
    assert ("swap", (5, 2)) in [(e.kind, e.players) for e in events]
    assert g.dealer == 1 and g.dealer_player() == 1
    assert g.face_up[1] == cards("8S") and g.face_up[5] == cards("7D")
    order = []
    for _ in range(7):
        order.append(g.to_act)
        draw_and_discard_stack(g, 1)
    assert order == [5, 1, 0, 2, 4, 3, 5]  # by seats: 2, 1, 0, 5, 4, 3


def test_a_loser_already_on_the_winners_left_does_not_move():
    hands = list(DAY_ALL_RANKS)
    hands[2], hands[5] = hands[5], hands[2]  # the shronk sits at seat 2, the winner's left
    g = game(hands, DAY_ALL_RANKS_STACK, hands=2,
             more=[deal(["AS 2S 3S 4S 5S 6S", "7S 8S 9S TS JS QS KS", "AH 2H 3H 4H 5H 6H 7H",
                         "8H 9H TH JH QH KH", "AD 2D 3D 4D 5D 6D", "7D 8D 9D TD JD QD"])])
    draw_and_discard_stack(g, 14)
    assert g.results[0].as_json()["winner"] == 1 and g.results[0].as_json()["loser"] == 2
    assert [g.seat_of(p) for p in range(6)] == list(range(6))
    assert g.dealer == 1 and g.to_act == 2


def test_the_next_deals_seven_card_hands_must_follow_the_new_seats():
    wrong = deal(["AS 2S 3S 4S 5S 6S", "7S 8S 9S TS JS QS KS", "AH 2H 3H 4H 5H 6H 7H",
                  "8H 9H TH JH QH KH", "AD 2D 3D 4D 5D 6D", "7D 8D 9D TD JD QD"])
    g = game(DAY_ALL_RANKS, DAY_ALL_RANKS_STACK, hands=2, more=[wrong])
    draw_and_discard_stack(g, 13)
    act(g, "0 draw stack")
    with pytest.raises(SetupError, match="player 5"):
        act(g, "0 discard TC 0")


def test_the_match_ends_after_the_set_number_of_hands_with_ties_shared():
    g = new_game("fizzbin", 3, {"hands": 2, "time": "night"}, seed=8)
    rng = random.Random(3)
    while not g.over:
        g.apply(g.to_act, rng.choice(g.legal_actions()))
    assert len(g.results) == 2 and len(g.rounds) == 2
    best = max(g.scores)
    assert g.winners == tuple(p for p in range(3) if g.scores[p] == best)
    assert g.to_act is None and g.legal_actions() == [] and g.phase() == "game over"
    with pytest.raises(GameOver):
        g.apply(0, "draw stack")


# --- illegal actions ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "action", "error", "words"),
    [
        (0, "draw stack", NotYourTurn, "turn"),
        (1, "discard 3H 0", IllegalAction, "draw a card first"),
        (1, "draw 0", IllegalAction, "pile is empty"),
        (1, "draw 9", UnknownAction, "players are 0 to 3"),
        (1, "draw deck", UnknownAction, "is not"),
        (1, "fold", UnknownAction, "unknown verb"),
        (1, "draw", UnknownAction, "does not read"),
        (1, "discard 10H 0", UnknownAction, "no card"),
    ],
)
def test_illegal_actions_at_the_start_of_a_turn_raise_and_change_nothing(
    player, action, error, words
):
    g = game(PLAIN4, "9D")
    before = snapshot(g)
    with pytest.raises(error, match=words):
        g.apply(player, action)
    assert snapshot(g) == before


@pytest.mark.parametrize(
    ("action", "error", "words"),
    [
        ("discard 3S 0", IllegalAction, "you do not hold ♠️3"),
        ("draw stack", IllegalAction, "drawing is over"),
        ("discard 9D 4", UnknownAction, "players are 0 to 3"),
        ("discard 9D", UnknownAction, "does not read"),
    ],
)
def test_illegal_actions_after_drawing_raise_and_change_nothing(action, error, words):
    g = game(PLAIN4, "9D")
    act(g, "1 draw stack")
    before = snapshot(g)
    with pytest.raises(error, match=words):
        g.apply(1, action)
    assert snapshot(g) == before
    act(g, "1 DISCARD 9d 2")  # case-insensitive
    assert g.piles[2] == cards("9D")


# --- malformed setups -----------------------------------------------------------------


def _raw(**changes):
    d = deal(PLAIN4)
    d.update(changes)
    return d


@pytest.mark.parametrize(
    ("deals", "options"),
    [
        ([_raw(night=True)], {"time": "day"}),
        ([_raw(night=False)], {"time": "night"}),
        ([_raw(night=1)], {}),
        ([_raw(night=None)], {}),
        ([_raw(extra=[])], {}),
        ([{"hands": deal(PLAIN4)["hands"]}], {}),
        ([_raw(hands=deal(PLAIN4)["hands"][:3])], {}),
        ([_raw(stack=deal(PLAIN4)["stack"][1:])], {}),
        ([_raw(stack=["3S", *deal(PLAIN4)["stack"][1:]])], {}),
        ([_raw(stack="AS")], {}),
        ([_raw(hands=[["3S", "5S", "6S", "8S", "9S", "TS"], ["JS", "3H", "5H", "6H", "8H",
                                                           "9H", "TH"],
                      *deal(PLAIN4)["hands"][1:3]])], {}),
        ([deal(PLAIN4), _raw(night="yes")], {}),
        ([], {"hands": 0}),
        ([], {"hands": 16}),
        ([], {"hands": True}),
        ([], {"hands": "5"}),
        ([], {"time": "dusk"}),
        ([], {"speed": "fast"}),
    ],
)
def test_malformed_deals_and_options_raise_setup_error(deals, options):
    with pytest.raises(SetupError):
        new_game("fizzbin", 4, options, seed=1, dealer=0, deals=deals)


@pytest.mark.parametrize("players", [1, 7])
def test_fizzbin_is_for_two_to_six_players(players):
    with pytest.raises(SetupError, match="2 to 6"):
        new_game("fizzbin", players, seed=1)


def test_a_deal_that_must_come_from_the_seed_needs_a_seed():
    with pytest.raises(SetupError, match="seed"):
        new_game("fizzbin", 4, dealer=0)


# --- day and night --------------------------------------------------------------------


def test_the_clock_is_read_once_per_deal_when_time_is_clock():
    answers = [True, False, True]
    calls = []

    def is_night():
        calls.append(1)
        return answers[len(calls) - 1]

    g = Fizzbin.new(2, {"hands": 3}, seed=21, is_night=is_night)
    assert len(calls) == 1 and g.night
    rng = random.Random(4)
    nights = [g.night]
    while not g.over:
        before = len(g.results)
        g.apply(g.to_act, rng.choice(g.legal_actions()))
        if len(g.results) != before and not g.over:
            nights.append(g.night)
    assert len(calls) == 3 and nights == answers
    assert [d["night"] for d in g.record().deals] == answers


@pytest.mark.parametrize(("time", "night"), [("day", False), ("night", True)])
def test_a_fixed_time_never_reads_the_clock(time, night):
    def clock():
        raise AssertionError("the clock was read")

    g = Fizzbin.new(4, {"time": time}, seed=2, is_night=clock)
    assert g.night is night
    assert g.record().deals[0]["night"] is night


def test_a_deal_that_gives_night_is_played_so_whatever_the_clock():
    g = game(PLAIN4, night=True, is_night=lambda: False)
    assert g.night and g.record().deals[0]["night"] is True
    g = game(PLAIN4, "QS", night=True)
    events = g.apply(1, "draw stack")  # Q is special by night
    assert [e.kind for e in events] == ["draw"] and "draw stack" in legal(g)


@pytest.mark.parametrize(("time", "night"), [("clock", False), ("day", False), ("night", True)])
def test_a_deal_without_night_and_no_clock_is_by_night_only_when_time_is_night(time, night):
    assert game(PLAIN4, time=time).night is night
    assert new_game("fizzbin", 3, {"time": time}, seed=5).record().deals[0]["night"] is night


def test_a_clone_is_independent_and_keeps_the_same_clock():
    def clock():
        return True

    g = Fizzbin.new(3, {"hands": 2}, seed=4, is_night=clock)
    copy = g.clone()
    assert copy.is_night is clock and copy.night
    copy.apply(copy.to_act, "draw stack")
    assert len(copy.stack) == len(g.stack) - 1 and g.history == []
    assert snapshot(g) != snapshot(copy)


def test_action_labels_name_the_pile_owner_by_name():
    import games

    g = games.new_game("fizzbin", 3, {"time": "day", "hands": 1}, seed=4, dealer=0)
    names = ["Ana", "Ben", "Cy"]
    me = g.to_act
    other = (me + 1) % 3
    card = g.legal_actions()[0]
    assert g.action_label(card, names) == "Draw from the stack"
    discard = g.parse(f"discard AS {other}")
    assert g.action_label(discard, names) == f"Discard ♠️A onto {names[other]}'s pile"
    own = g.parse(f"discard AS {me}")
    assert g.action_label(own, names) == "Discard ♠️A onto your pile"


# --- a pile's top: one card for every reader -----------------------------------------


def test_a_piles_top_is_its_last_discard_for_the_label_the_view_and_the_draw():
    """The rules keep a pile top last; every reader sees it top first (games/core/zones)."""
    g = game(PLAIN4, "9D 7S 7H 7D 7C")
    act(g, "1 draw stack", "1 discard 9D 1", "0 draw stack", "0 discard 7S 1")
    pile = g.view_for(None).zone("pile:1")
    assert pile.cards == tuple(cards("7S 9D")) and pile.top == DECK.parse("7S")
    assert g.pile_top(1) == pile.top
    assert g.action_label(g.parse("draw 1"), ["Ana", "Ben", "Cy", "Dee"]) == \
        "Take ♠️7 from Ben's pile"
    events = g.apply(g.to_act, "draw 1")
    assert "draws ♠️7 from" in str(events[0])
    assert g.view_for(None).zone("pile:1").cards == tuple(cards("9D"))
