"""Fibonachos' rules, one test per "Tests must cover" bullet of rules/fibonachos.md,
on stacked deals, plus illegal actions and malformed setups."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.core.actions import Action
from games.core.errors import GameOver, IllegalAction, NotYourTurn, SetupError, UnknownAction
from games.core.registry import new_game
from games.fibonachos import Fibonachos
from games.fibonachos.cards import NACHO_DECK, SPICY_CARD, SPICY_DECK
from games.fibonachos.game import FibonachosVerb
from games.fibonachos.scoring import round_score
from tests.games.fibonachos.helpers import (
    MIXED,
    ROUND_SCRIPT,
    SPICY_24_6,
    SPICY_28_2,
    WINNERS_BY_ROLE,
    deal,
    game,
    legal,
    one_suit_each,
    play,
    texts,
)
from tests.invariants import snapshot

# Two players, seat 0 leads (the dealer is seat 1). Seat 0 holds every Red (and Y1 Y1 Y2);
# seat 1 only Yellow and Green non-Fibonachos.
TWO_HANDS = ["R4 R6 R7 R9 R10 Y1 Y1 Y2 R11", "Y4 Y6 Y7 Y9 Y10 Y11 Y12 Y14 Y15"]
TWO_DECKS = ["R16 R1 R1 R2 R3 R5 R8 R12 R13 R14 R15", "Y16 G4 G6 G7 G9 G10 G11 G12 G14 G15 G16"]
TWO_ASIDE = "Y3 Y5 Y8 Y13 G1 G1 G2 G3 G5 G8 G13"


# --- deck and deal sizes --------------------------------------------------------------


def test_deck_has_51_nacho_cards_with_two_1s_per_suit_and_15_spicy_cards():
    counts = Counter(c.text for c in NACHO_DECK.cards)
    assert len(NACHO_DECK) == 51
    for suit in "RYG":
        assert counts[f"{suit}1"] == 2
        assert sorted(c.rank for c in NACHO_DECK.cards if c.suit == suit) == [1, 1, *range(2, 17)]
    assert sorted(c.rank for c in SPICY_DECK.cards) == [1] * 5 + [2] * 5 + [3] * 5


@pytest.mark.parametrize(
    ("players", "hand", "deck", "aside"),
    [(2, 9, 11, 11), (3, 17, 0, 0), (4, 12, 0, 3), (5, 10, 0, 1)],
)
def test_deal_sizes_for_each_player_count(players, hand, deck, aside):
    g = Fibonachos.new(players, seed=players)
    assert [len(h) for h in g.hands] == [hand] * players
    assert [len(d) for d in g.decks] == ([deck] * players if deck else [])
    assert len(g.aside) == aside
    assert len(g.prize) == 1 and len(g.spicy) == 14
    assert g.to_act == (g.dealer + 1) % players  # the dealer's left leads
    dealt = g.record().deals[0]
    assert set(dealt) == ({"hands", "spicy", "aside", "decks"} if deck else
                          {"hands", "spicy", "aside"})
    assert sorted(dealt["spicy"]) == [1] * 5 + [2] * 5 + [3] * 5
    assert all(type(v) is int for v in dealt["spicy"])
    assert g.tricks_per_round == (8 if players == 2 else 51 // players)


# --- following suit ---------------------------------------------------------------


def test_following_suit_only_lead_suit_cards_are_legal():
    g = game(MIXED)
    assert legal(g) == sorted(set(MIXED[0].split()))  # the leader plays anything
    play(g, "R4")
    assert legal(g) == ["R1", "R10", "R12", "R13", "R14", "R15", "R2", "R6"]


def test_playing_freely_when_void_in_the_lead_suit():
    g = game(MIXED)
    play(g, "R4", "R10")
    assert legal(g) == sorted(texts(g.hands[2]))  # seat 2 holds no Red: anything
    assert len(legal(g)) == 17
    g = game(MIXED)
    play(g, "Y8")
    assert legal(g) == sorted(set(MIXED[1].split()))  # seat 1 holds no Yellow


# --- trump ------------------------------------------------------------------------


def test_trump_with_exactly_two_fibonachos_the_lead_included():
    g = game(MIXED)
    play(g, "R1", "R15", "G13")  # R1 (lead) and G13: the highest Fibonacho beats R15
    assert g.tricks == [2]
    assert g.to_act == 2
    assert texts(g.won[2]) == ["1"]  # the first prize of SPICY
    assert texts(g.prize) == ["2"]


def test_no_trump_with_one_fibonacho():
    g = game(MIXED)
    play(g, "R4", "R15", "G13")  # G13 is the only Fibonacho: the highest Red wins
    assert g.tricks == [1]
    assert g.to_act == 1
    assert texts(g.won[1]) == ["1"]


def test_off_suit_13_beats_lead_suit_16():
    g = game(MIXED)
    play(g, "R16", "R2", "G13")
    assert g.tricks == [2]
    assert texts(g.won[2]) == ["1"] and g.won[0] == []


def test_tie_of_two_r1_goes_to_the_last_played():
    g = game(MIXED)
    play(g, "R1", "R1", "Y16")
    assert g.tricks == [1]
    assert g.to_act == 1
    assert texts(g.played) == ["R1", "R1", "Y16"]


def test_tie_of_equal_fibonachos_of_different_suits_goes_to_the_last_played():
    g = game(MIXED)
    play(g, "R5", "R6", "G5")
    assert g.tricks == [2]


def test_tie_goes_to_the_last_played_fibonacho_not_the_last_card():
    g = game(MIXED)
    play(g, "Y8", "G8", "Y16")  # Y8 and G8 tie; G8 came later; Y16 is no Fibonacho
    assert g.tricks == [1]


def test_off_suit_non_fibonachos_never_win():
    g = game(MIXED)
    play(g, "R4", "R6", "G16")
    assert g.tricks == [1]
    play(g, "R2", "G15", "R1")  # seat 1 leads R2; trump R2 + R1: R2 wins, not G15
    assert g.tricks == [1, 1]
    play(g, "G4", "G9", "R16")  # seat 0 is void in Green: its R16 outranks G9 but loses
    assert g.tricks == [1, 1, 2]


# --- a whole round with three players -----------------------------------------------


def test_prize_less_tricks_with_3_players():
    g = Fibonachos.new(3, {"rounds": 1}, dealer=2,
                       deals=[one_suit_each(0, SPICY_28_2)])
    play(g, *ROUND_SCRIPT[: 15 * 3])
    assert g.tricks == [0] * 13 + [1, 1]
    assert g.prize == [] and g.spicy == []  # the 15th trick took the last Spicy card
    assert dict(g.facts())["Prize"] == "none"
    play(g, *ROUND_SCRIPT[15 * 3 : 16 * 3])
    assert g.tricks[-1] == 2 and g.won[2] == []  # seat 2 won a trick, but no prize
    assert g.to_act == 2  # the winner still leads
    play(g, *ROUND_SCRIPT[16 * 3 :])
    assert g.tricks == [0] * 13 + [1, 1] + [2, 2]
    assert g.rounds == [[28, 3, 34]]  # winning only prize-less tricks still scores 34
    assert g.over and g.winners == (2,)
    assert g.scores == [28, 3, 34]


# --- scoring ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spicy", "score"),
    [(0, 34), (1, 2), (2, 3), (3, 5), (5, 8), (8, 13), (13, 21), (21, 34),
     (4, 4), (6, 6), (7, 7), (9, 9), (20, 20), (22, 22), (30, 30)],
)
def test_score_table_entry(spicy, score):
    assert round_score(spicy) == score


def test_score_table_in_play_13_scores_21_and_none_scores_34():
    g = game(TWO_HANDS, decks=TWO_DECKS, aside=TWO_ASIDE,
             spicy=[1, 1, 1, 1, 1, 2, 3, 3, 2, 2, 2, 2, 3, 3, 3], rounds=1)
    play_two_player_round(g)
    assert g.tricks == [0] * 8
    assert g.rounds == [[21, 34]]  # seat 0 took 1+1+1+1+1+2+3+3 = 13


# --- two players --------------------------------------------------------------------


def play_two_player_round(g: Fibonachos) -> None:
    """Seat 0 plays its highest legal Red, seat 1 its first legal card, for a round."""
    rounds = len(g.rounds)
    while len(g.rounds) == rounds:
        if g.to_act == 0:
            reds = [a for a in g.legal_actions() if a.card and a.card.suit == "R"]
            g.apply(0, max(reds, key=lambda a: a.card.rank if a.card else 0))
        else:
            g.apply(1, g.legal_actions()[0])


def test_two_player_trick_of_four_cards_with_draws():
    g = game(TWO_HANDS, decks=TWO_DECKS, aside=TWO_ASIDE)
    play(g, "R4")
    assert "R16" in texts(g.hands[0]) and len(g.hands[0]) == 9  # drew the top of its deck
    assert len(g.decks[0]) == 10 and g.to_act == 1
    play(g, "Y4")
    assert texts(g.hands[1])[-1] == "Y16" and g.to_act == 0  # the leader plays again
    assert legal(g) == ["R10", "R11", "R16", "R6", "R7", "R9"]  # follow Red, drawn R16 too
    play(g, "R16")  # the card just drawn
    assert g.tricks == [] and g.to_act == 1
    play(g, "Y6")
    assert g.tricks == [0]  # four cards: R16 wins
    assert texts(g.played) == ["R4", "Y4", "R16", "Y6"]
    assert [len(h) for h in g.hands] == [9, 9] and [len(d) for d in g.decks] == [9, 9]
    assert g.to_act == 0


def test_two_player_round_ends_after_8_tricks_with_cards_left_in_hand():
    g = game(TWO_HANDS, decks=TWO_DECKS, aside=TWO_ASIDE, rounds=1)
    play_two_player_round(g)
    assert len(g.tricks) == 8 and len(g.history) == 32
    assert g.decks == [[], []]
    assert sorted(texts(g.hands[0])) == ["R1", "Y1", "Y1", "Y2"]  # never played
    assert len(g.hands[1]) == 4
    assert g.over and g.to_act is None and g.legal_actions() == []


def test_two_player_tie_goes_to_the_leaders_second_card():
    hands = ["R4 R5 R7 R9 R10 R11 R12 R14 R15", "G5 G6 G4 G7 G9 G10 G11 G12 G14"]
    decks = ["R1 R1 R2 R3 R6 R8 R13 R16 Y1 Y1 Y2", "G15 G16 G1 G1 G2 G3 G8 G13 Y3 Y4 Y5"]
    g = game(hands, decks=decks, aside=" ".join(f"Y{n}" for n in range(6, 17)))
    play(g, "R4", "G5", "R5")
    assert g.tricks == []
    play(g, "G6")  # G5 and R5 tie; R5, the leader's second card, was played last
    assert g.tricks == [0]
    assert texts(g.won[0]) == ["1"]



# --- rounds -------------------------------------------------------------------------


def play_scripted_rounds(spicy: list[list[int]]) -> Fibonachos:
    deals = [one_suit_each(r, s) for r, s in enumerate(spicy)]
    g = Fibonachos.new(3, {"rounds": len(spicy)}, dealer=2, deals=deals)
    for r in range(len(spicy)):
        assert g.dealer == (2 + r) % 3 and g.to_act == r  # the deal moves clockwise
        assert len(g.rounds) == r
        play(g, *ROUND_SCRIPT)
    return g


def test_three_rounds_then_the_highest_total_wins():
    g = play_scripted_rounds([SPICY_28_2, SPICY_28_2, SPICY_24_6])
    assert g.rounds == [[28, 3, 34], [34, 28, 3], [6, 34, 24]]
    assert g.scores == [68, 65, 61]
    assert g.over and g.winners == (0,) and g.outcome is not None
    assert g.outcome.places == (1, 2, 3)
    roles = [{"A": r % 3, "B": (r + 1) % 3, "C": (r + 2) % 3} for r in range(3)]
    assert g.tricks == [roles[r][w] for r in range(3) for w in WINNERS_BY_ROLE]
    assert len(g.history) == 3 * 51
    assert g.to_act is None and g.legal_actions() == []
    assert g.phase() == "game over"


def test_three_rounds_equal_totals_share_the_win():
    g = play_scripted_rounds([SPICY_28_2] * 3)
    assert g.scores == [65, 65, 65]
    assert g.winners == (0, 1, 2)


def test_game_lasts_the_rounds_option():
    g = play_scripted_rounds([SPICY_28_2])
    assert g.over and g.rounds == [[28, 3, 34]]
    g = new_game("fibonachos", 3, {"rounds": 5}, seed=3)
    assert g.phase().startswith("round 1 of 5")


# --- illegal actions ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "action", "error", "message"),
    [
        (1, "play R1", NotYourTurn, "it is seat 0's turn, not seat 1's"),
        (3, "play R1", NotYourTurn, "there is no seat 3 in this game"),
        (0, "play G13", IllegalAction, "you do not hold 🟩13"),
        (0, "play R17", UnknownAction, "there is no card 'R17' in this game"),
        (0, "play 1", UnknownAction, "there is no card '1' in this game"),
        (0, "draw R1", UnknownAction, None),
        (0, "play", UnknownAction, None),
        (0, "", UnknownAction, None),
        (0, Action(FibonachosVerb.PLAY, SPICY_CARD[2]), IllegalAction,
         "play one of your Nacho cards"),
    ],
)
def test_illegal_action_raises_its_error_and_changes_nothing(player, action, error, message):
    g = game(MIXED)
    before = snapshot(g)
    with pytest.raises(error) as info:
        g.apply(player, action)
    assert type(info.value) is error
    if message is not None:
        assert info.value.message == message
    assert snapshot(g) == before


def test_not_following_suit_is_illegal_and_names_the_lead_suit():
    g = game(MIXED)
    play(g, "R4")
    before = snapshot(g)
    with pytest.raises(IllegalAction) as info:
        g.apply(1, "play G1")
    assert info.value.message == "you must follow Red"
    assert snapshot(g) == before
    play(g, "r10")  # text is case-insensitive
    assert [c.text for _, c in g.current_trick()] == ["R4", "R10"]


def test_acting_after_the_game_is_over_raises_game_over():
    g = play_scripted_rounds([SPICY_28_2])
    before = snapshot(g)
    with pytest.raises(GameOver):
        g.apply(0, "play R1")
    assert snapshot(g) == before


# --- malformed setups -----------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"rounds": 0}, {"rounds": 6}, {"rounds": True}, {"rounds": "3"}, {"rounds": 3.0},
     {"length": "quick"}],
)
def test_bad_options_raise_setup_error(options):
    with pytest.raises(SetupError):
        new_game("fibonachos", 3, options, seed=1)


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_out_of_range_raises_setup_error(players):
    with pytest.raises(SetupError):
        new_game("fibonachos", players, seed=1)


def mixed_deal() -> dict[str, Any]:
    return deal(MIXED)


def two_player_deal() -> dict[str, Any]:
    return deal(TWO_HANDS, decks=TWO_DECKS, aside=TWO_ASIDE)


def _drop_key(d: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != key}


BAD_DEALS = {
    "no spicy": (3, lambda d: _drop_key(d, "spicy")),
    "no aside": (3, lambda d: _drop_key(d, "aside")),
    "extra stock": (3, lambda d: {**d, "stock": []}),
    "decks with three players": (3, lambda d: {**d, "decks": [[], [], []]}),
    "two hands for three": (3, lambda d: {**d, "hands": d["hands"][:2]}),
    "hands not a list": (3, lambda d: {**d, "hands": "R1"}),
    "short hand, card aside": (3, lambda d: {**d, "hands": [d["hands"][0][1:], *d["hands"][1:]],
                                             "aside": d["hands"][0][:1]}),
    "a card twice": (3, lambda d: {**d, "hands": [["R16", *d["hands"][0][1:]],
                                                  *d["hands"][1:]]}),
    "unknown card": (3, lambda d: {**d, "hands": [["R17", *d["hands"][0][1:]],
                                                  *d["hands"][1:]]}),
    "spicy six 3s": (3, lambda d: {**d, "spicy": [3] * 6 + [2] * 4 + [1] * 5}),
    "spicy true": (3, lambda d: {**d, "spicy": [True] * 5 + [2] * 5 + [3] * 5}),
    "spicy strings": (3, lambda d: {**d, "spicy": [str(v) for v in d["spicy"]]}),
    "spicy 14 cards": (3, lambda d: {**d, "spicy": d["spicy"][1:]}),
    "spicy a 4": (3, lambda d: {**d, "spicy": [4, *d["spicy"][1:]]}),
    "two players, no decks": (2, lambda d: _drop_key(d, "decks")),
    "two players, short deck": (2, lambda d: {**d, "decks": [d["decks"][0][1:], d["decks"][1]],
                                              "aside": [*d["aside"], d["decks"][0][0]]}),
    "two players, decks not a list": (2, lambda d: {**d, "decks": None}),
}


@pytest.mark.parametrize("case", sorted(BAD_DEALS))
def test_malformed_deal_raises_setup_error(case):
    players, spoil = BAD_DEALS[case]
    good = mixed_deal() if players == 3 else two_player_deal()
    new_game("fibonachos", players, seed=1, dealer=0, deals=[good])  # the unspoilt one is fine
    with pytest.raises(SetupError):
        new_game("fibonachos", players, seed=1, dealer=0, deals=[spoil(good)])


def test_a_bad_later_deal_is_refused_at_setup():
    with pytest.raises(SetupError):
        new_game("fibonachos", 3, seed=1, dealer=0,
                 deals=[mixed_deal(), {**mixed_deal(), "spicy": [1] * 15}])


def test_no_seed_and_no_dealer_raises_setup_error():
    with pytest.raises(SetupError):
        new_game("fibonachos", 3, deals=[mixed_deal()])
    with pytest.raises(SetupError):
        new_game("fibonachos", 3, dealer=0)  # the first deal must come from the seed


def test_a_deal_needed_without_a_seed_raises_setup_error_and_changes_nothing():
    g = new_game("fibonachos", 3, {"rounds": 2}, dealer=2, deals=[one_suit_each(0, SPICY_28_2)])
    play(g, *ROUND_SCRIPT[:-1])
    before = snapshot(g)
    dealer = g.dealer
    with pytest.raises(SetupError):
        g.apply(g.to_act or 0, f"play {ROUND_SCRIPT[-1]}")
    assert snapshot(g) == before and g.dealer == dealer
    assert len(g.record().deals) == 1


def test_the_goal_line_names_the_best_round_score_no_spicy_at_all():
    """The goal once said "win tricks for their Spicy prizes": no Spicy sum scores 34."""
    from games.fibonachos.game import Fibonachos
    from games.fibonachos.scoring import NO_SPICY, round_score

    best = max(round_score(s) for s in range(0, 31))
    assert best == NO_SPICY == round_score(0) and all(round_score(s) < best
                                                      for s in range(1, 21))
    assert f"none at all for {NO_SPICY}" in Fibonachos.goal
    assert "next one up" in Fibonachos.goal and "next Fibonacci number" in Fibonachos.scoring
