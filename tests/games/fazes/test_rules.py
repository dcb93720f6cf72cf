"""Fazes' rules, one test per "Tests must cover" bullet of rules/fazes.md, on stacked deals."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.core.errors import GameOver, IllegalAction, NotYourTurn, SetupError, UnknownAction
from games.core.registry import get, new_game
from games.core.zones import Visibility
from games.fazes import Fazes
from games.fazes.cards import FULL_DECK
from games.fazes.scoring import card_points
from tests.games.fazes.helpers import (
    COLOUR_HANDS_4P,
    MADNESS_8P,
    MADNESS_PLAIN_PLAY,
    MADNESS_TRUMP_PLAY,
    MIXED_8P,
    deal,
    game,
    legal,
    play,
    play_first_legal,
)
from tests.invariants import check_zones, snapshot

# --- deck, removals and hand sizes ------------------------------------------------


def test_deck_is_four_colours_numbered_2_to_14():
    assert len(FULL_DECK) == 52
    assert Counter(c.suit for c in FULL_DECK.cards) == {"R": 13, "Y": 13, "G": 13, "B": 13}
    for colour in "RYGB":
        assert sorted(c.rank for c in FULL_DECK.cards if c.suit == colour) == list(range(2, 15))
    assert FULL_DECK.parse("y14").text == "Y14"
    with pytest.raises(UnknownAction):
        FULL_DECK.parse("G1")


@pytest.mark.parametrize(
    ("players", "removed", "each"),
    [
        (3, ["B2"], 17),
        (4, [], 13),
        (5, ["B2", "B3"], 10),
        (6, ["B2", "B3", "G3", "B4"], 8),
        (7, ["B2", "B3", "G3"], 7),
        (8, ["B2", "B3", "G3", "B4"], 6),
    ],
)
def test_removals_and_hand_sizes_for_3_to_8_players(players, removed, each):
    g = Fazes.new(players, seed=players * 11)
    assert [c.text for c in g.removed] == removed
    assert [len(h) for h in g.hands] == [each] * players
    dealt = Counter(c.text for h in g.hands for c in h)
    assert dealt == Counter(c.text for c in FULL_DECK.cards if c.text not in removed)
    assert len(g.deck_in_play()) == 52 - len(removed) == each * players
    check_zones(g)


def test_a_removed_card_is_out_of_play_and_cannot_be_played():
    g = game(MIXED_8P, 2)
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="🔲2 is out of play with 8 players"):
        g.apply(0, "play B2")
    assert snapshot(g) == before


# --- G2 leads every faze -----------------------------------------------------------


def test_g2_holder_leads_g2_in_every_faze():
    # Each faze's deal rotates the hands, so G2 (seat 1's greens) moves one seat on.
    hands = [COLOUR_HANDS_4P[(i - k) % 4] for k in range(6) for i in range(4)]
    deals = [deal(hands[4 * k: 4 * k + 4]) for k in range(6)]
    g = Fazes.new(4, seed=3, dealer=0, deals=deals)
    for k in range(6):
        assert len(g.rounds) == k
        holder = (1 + k) % 4
        assert g.to_act == holder and g.dealer == k % 4
        assert legal(g) == {"play G2"}
        play_first_legal(g, 52)
    assert g.over


def test_g2_holder_leads_g2_in_every_faze_of_a_shuffled_game():
    g = Fazes.new(5, seed=42)
    rng = random.Random(0)
    for k in range(6):
        assert g.faze_index == k and g.faze_tricks == 0 and not g.plays
        holder = next(p for p, h in enumerate(g.hands) if any(c.text == "G2" for c in h))
        assert g.to_act == holder
        assert legal(g) == {"play G2"}
        for _ in range(50):
            g.apply(g.to_act, rng.choice(g.legal_actions()))
    assert g.over


def test_leading_another_card_than_g2_is_illegal():
    g = game(MIXED_8P)
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="you must lead 🟩2"):
        g.apply(0, "play G4")
    assert snapshot(g) == before


def test_after_the_first_trick_the_winner_leads_anything():
    g = game(MIXED_8P, 2)
    play(g, "G2 G14 R4 Y7 G6 G8 G10 G12")  # P1 wins with G14
    assert g.tricks == [1] and g.to_act == 1
    assert legal(g) == {"play G5", "play R2", "play R3", "play Y4", "play B7"}


# --- following colour ---------------------------------------------------------------


@pytest.mark.parametrize("faze", [1, 2, 3, 4, 5, 6])
def test_a_player_holding_the_led_colour_must_follow_it(faze):
    g = game(MIXED_8P, faze)
    play(g, "G2")
    assert legal(g) == {"play G5", "play G14"}
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="you must follow Green"):
        g.apply(1, "play R2")
    assert snapshot(g) == before


def test_a_red_lead_must_be_followed_with_red_and_the_highest_red_wins():
    g = game(MIXED_8P, 2)
    play(g, "G2 G14 R4 Y7 G6 G8 G10 G12")  # P1 wins, leads red
    play(g, "R2")
    assert legal(g) == {"play R5"}  # P2 played R4 to trick 1
    play(g, "R5")
    assert legal(g) == {"play Y8", "play Y9", "play B10", "play B11", "play B12"}  # P3: no red
    play(g, "Y8")
    assert legal(g) == {"play R6", "play R14"}
    play(g, "R14 R7 R9 R12 Y2")
    assert g.tricks == [1, 4]


# --- trump --------------------------------------------------------------------------


@pytest.mark.parametrize("faze", [1, 2, 3, 4, 5, 6])
def test_forced_red_only_in_fazes_1_and_6(faze):
    g = game(MIXED_8P, faze)
    play(g, "G2 G14")  # P2 has no green, but R4 and R5
    if faze in (1, 6):
        assert legal(g) == {"play R4", "play R5"}
        before = snapshot(g)
        with pytest.raises(IllegalAction, match="you must play a red card"):
            g.apply(2, "play Y5")
        assert snapshot(g) == before
    else:
        assert legal(g) == {"play R4", "play R5", "play Y5", "play Y6", "play B8", "play B9"}


def test_a_void_player_without_red_plays_anything_in_a_trump_faze():
    g = game(MIXED_8P, 1)
    play(g, "G2 G14 R4")  # P3: no green, no red
    assert legal(g) == {"play Y7", "play Y8", "play Y9", "play B10", "play B11", "play B12"}


@pytest.mark.parametrize("faze", [1, 6])
def test_red_trump_beats_the_highest_card_of_the_led_colour(faze):
    g = game(MIXED_8P, faze)
    play(g, "G2 G14 R4 Y7 G6 G8 G10 G12")
    assert g.tricks == [2]  # R4 beats G14
    assert g.to_act == 2


@pytest.mark.parametrize("faze", [1, 6])
def test_highest_red_wins_when_several_players_trump(faze):
    g = game(MIXED_8P, faze)
    play(g, "G2 G14 R4 Y7 G6 G8 G10 G12")  # P2 wins, leads black
    play(g, "B8 B10")
    assert legal(g) == {"play R6", "play R14"}  # P4: no black, must trump
    play(g, "R6 B13")
    assert legal(g) == {"play R9", "play R10", "play R11"}  # P6 too
    play(g, "R9 B14 B5 B7")
    assert g.tricks == [2, 6]  # R9 over R6; B14 does not count


@pytest.mark.parametrize("faze", [2, 3, 4, 5])
def test_no_trump_in_fazes_2_to_5_highest_of_the_led_colour_wins(faze):
    g = game(MIXED_8P, faze)
    play(g, "G2 G14 R4 Y7 G6 G8 G10 G12")
    assert g.tricks == [1]  # G14, not the red R4
    play(g, "B7 B8 B10 R6 B13 R9 B14 B5")  # P1 leads B7; reds do not trump
    assert g.tricks == [1, 7]


# --- scoring ------------------------------------------------------------------------


def test_faze_1_scores_5_for_each_red_card_taken():
    g = game(MADNESS_8P, 1)
    play(g, *MADNESS_TRUMP_PLAY)
    assert g.tricks == [7, 6, 5, 4, 3, 5]
    assert g.rounds == [[0, 0, 0, 10, 5, 50, 0, 0]]  # 65 in all, nobody has them all


def test_faze_2_scores_10_for_each_trick():
    g = game(MADNESS_8P, 2)
    play(g, *MADNESS_PLAIN_PLAY)
    assert g.tricks == [7, 6, 5, 3, 5, 7]
    assert g.rounds == [[0, 0, 0, 10, 0, 20, 10, 20]]


def test_faze_3_scores_10_for_each_yellow_card_taken():
    g = game(MADNESS_8P, 3)
    play(g, *MADNESS_PLAIN_PLAY)
    assert g.rounds == [[0, 0, 0, 0, 0, 30, 80, 20]]  # 8 yellows; Y14 Y11 Y9; Y12 Y10


def test_faze_4_scores_25_for_each_13_taken():
    g = game(MADNESS_8P, 4)
    play(g, *MADNESS_PLAIN_PLAY)
    assert g.rounds == [[0, 0, 0, 0, 0, 25, 25, 50]]  # R13; Y13; G13 and B13


def test_faze_5_scores_only_minus_50_for_the_last_trick():
    g = game(MADNESS_8P, 5)
    play(g, *MADNESS_PLAIN_PLAY)
    assert g.rounds == [[0, 0, 0, 0, 0, 0, 0, -50]]
    assert g.scores == [0, 0, 0, 0, 0, 0, 0, -50]


def test_faze_6_scores_tricks_reds_yellows_and_13s_with_red_13_30_and_yellow_13_35():
    assert [card_points(6, FULL_DECK.parse(t)) for t in ("R13", "Y13", "G13", "B13")] == [
        30, 35, 25, 25]
    assert [card_points(6, FULL_DECK.parse(t)) for t in ("R2", "Y2", "G14", "B5")] == [
        5, 10, 0, 0]
    g = game(MADNESS_8P, 6)
    play(g, *MADNESS_TRUMP_PLAY[:2])
    assert g.points_taken() == [0, 0, 0, 0, 0, 0, 115, 10]  # 10 + 7 x 10 + Y13's 35
    play(g, MADNESS_TRUMP_PLAY[2])
    assert g.points_taken()[5] == 75  # 10 + 7 x 5 + R13's 30
    play(g, *MADNESS_TRUMP_PLAY[3:])
    assert g.rounds == [[0, 0, 0, 55, 15, 110, 115, 10]]


def test_last_trick_scores_minus_50_on_top_of_its_points_in_faze_6():
    g = game(MADNESS_8P, 6)
    play(g, *MADNESS_TRUMP_PLAY[:5])
    assert g.points_taken()[5] == 75
    play(g, MADNESS_TRUMP_PLAY[5])  # P5 takes the last trick: 10 + 2 reds + 4 yellows + B13
    assert g.tricks[-1] == 5
    assert g.rounds[0][5] == 75 + 85 - 50


def test_last_trick_scores_minus_50_in_faze_5_whatever_it_holds():
    g = game(MADNESS_8P, 5)
    play(g, *MADNESS_PLAIN_PLAY[:5])
    assert g.points_taken() == [0] * 8
    play(g, MADNESS_PLAIN_PLAY[5])
    assert g.rounds == [[0, 0, 0, 0, 0, 0, 0, -50]]


def test_no_last_trick_bonus_in_fazes_1_to_4():
    for faze in (2, 3, 4):
        g = game(MADNESS_8P, faze)
        play(g, *MADNESS_PLAIN_PLAY)
        assert min(g.rounds[0]) == 0, faze
    g = game(MADNESS_8P, 1)
    play(g, *MADNESS_TRUMP_PLAY)
    assert min(g.rounds[0]) == 0


# --- shooting the moon -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("faze", "expected"),
    [
        (1, [0, 65, 65, 65]),  # P0 trumps G2 with red and then wins every red lead
        (2, [130, 0, 130, 130]),  # P1 wins all 13 tricks with greens
        (3, [130, 0, 130, 130]),  # ... and so all 13 yellows
        (4, [100, 0, 100, 100]),  # ... and all four 13s
        (6, [-50, 425, 425, 425]),  # P0 takes all 13 tricks: 295 + 130 each; still -50
    ],
)
def test_shooting_the_moon_in_fazes_1_to_4_and_6(faze, expected):
    g = game(COLOUR_HANDS_4P, faze)
    play_first_legal(g)
    assert g.rounds == [expected]


def test_shooting_the_moon_seed_example_all_four_13s_in_faze_4():
    hands = [
        "G2 Y2 R2 B5 G10 B11", "G4 Y3 R3 B6 G11 B12", "G5 Y4 R4 B7 G12 Y12",
        "G6 Y5 R5 B8 Y8 R8", "G7 Y6 R6 B9 Y9 R9", "G8 Y7 R7 B10 Y10 R10",
        "G13 Y13 R13 B13 Y11 R11", "G14 Y14 R14 B14 G9 R12",
    ]
    g = game(hands, 4)
    play(g, "G2 G4 G5 G6 G7 G8 G13 G14", "Y14 Y2 Y3 Y4 Y5 Y6 Y7 Y13",
         "R14 R2 R3 R4 R5 R6 R7 R13", "B14 B5 B6 B7 B8 B9 B10 B13",
         "G9 G10 G11 G12 Y8 Y9 Y10 Y11", "Y12 R8 R9 R10 R11 R12 B11 B12")
    assert g.tricks == [7, 7, 7, 7, 2, 2]  # P7 takes all four 13s but not every trick
    assert g.rounds == [[100] * 7 + [0]]


def test_a_moon_needs_every_point_of_the_faze():
    g = game(MADNESS_8P, 3)
    # As MADNESS_PLAIN_PLAY, but P6 leads B14 in trick 5 and so takes every yellow.
    play(g, *MADNESS_PLAIN_PLAY[:4])
    play(g, "B13 G11 G12 B14 G14 B12 Y9 Y10", "G13 Y14 Y11 Y12 R10 R11 R12 R14")
    assert g.tricks == [7, 6, 5, 3, 6, 6]
    assert g.rounds == [[130] * 6 + [0, 130]]  # P6 took all 130: a moon after all
    g = game(MADNESS_8P, 3)
    play(g, *MADNESS_PLAIN_PLAY)
    assert g.rounds == [[0, 0, 0, 0, 0, 30, 80, 20]]  # 110 of 130: no moon


def test_no_shooting_the_moon_in_faze_5():
    g = game(COLOUR_HANDS_4P, 5)
    play_first_legal(g)
    assert g.tricks == [1] * 13  # P1 takes every trick
    assert g.rounds == [[0, -50, 0, 0]]


# --- the end -----------------------------------------------------------------------


def test_lowest_total_wins_after_the_last_faze():
    g = game(COLOUR_HANDS_4P)
    play_first_legal(g)
    assert g.rounds == [
        [0, 65, 65, 65], [130, 0, 130, 130], [130, 0, 130, 130],
        [100, 0, 100, 100], [0, -50, 0, 0], [-50, 425, 425, 425],
    ]
    assert g.scores == [310, 440, 850, 850]
    assert g.over and g.winners == (0,)
    assert g.outcome is not None and g.outcome.places == (1, 2, 3, 3)
    assert g.to_act is None and g.legal_actions() == []
    assert g.phase() == "game over"


def test_tied_lowest_totals_share_the_win():
    g = game(MADNESS_8P, 6)
    play(g, *MADNESS_TRUMP_PLAY)
    assert g.scores == [0, 0, 0, 55, 15, 110, 115, 10]
    assert g.winners == (0, 1, 2)


def test_totals_may_go_below_zero_and_still_win():
    g = game(COLOUR_HANDS_4P, 5)
    play_first_legal(g)
    assert g.scores == [0, -50, 0, 0] and g.winners == (1,)


def test_fazes_option_plays_the_listed_fazes_in_order_with_repeats():
    g = game(COLOUR_HANDS_4P, 4, 4, 1)
    play_first_legal(g)
    assert g.rounds == [[100, 0, 100, 100], [100, 0, 100, 100], [0, 65, 65, 65]]
    assert len(g.record().deals) == 3


def test_fazes_option_is_any_non_empty_list_with_no_upper_limit():
    # rules/fazes.md: "a non-empty list of faze numbers 1-6" - no maximum length, so a
    # long list (here 25 fazes) is a valid record, not a malformed one.
    g = game(COLOUR_HANDS_4P, *([5] * 25))
    play_first_legal(g)
    assert g.over and len(g.rounds) == 25
    assert g.scores == [0, -50 * 25, 0, 0] and g.winners == (1,)


def test_the_deal_passes_clockwise_each_faze():
    g = game(COLOUR_HANDS_4P, dealer=2)
    dealers = []
    while not g.over:
        dealers.append(g.dealer)
        assert g.to_act == 1  # the G2 holder leads whoever deals
        play_first_legal(g, 52)
    assert dealers == [2, 3, 0, 1, 2, 3]


# --- errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "action", "error"),
    [
        (1, "play G4", NotYourTurn),  # seat 0 is to act
        (8, "play G2", NotYourTurn),  # no such seat
        (0, "play R2", IllegalAction),  # not held
        (0, "play Z5", UnknownAction),  # no such card
        (0, "play G15", UnknownAction),
        (0, "pass", UnknownAction),  # no such verb
        (0, "play", UnknownAction),  # no card
        (0, "play G2 G4", UnknownAction),
        (0, "", UnknownAction),
    ],
)
def test_illegal_actions_raise_the_precise_error_and_change_nothing(player, action, error):
    g = game(MIXED_8P)
    before = snapshot(g)
    with pytest.raises(error):
        g.apply(player, action)
    assert snapshot(g) == before
    g.apply(0, "PLAY g2")  # and the right action still works, in any case
    assert g.history == ["0 play G2"]


def test_not_holding_a_card_is_reported_to_the_player():
    g = game(MIXED_8P, 2)
    play(g, "G2")
    with pytest.raises(IllegalAction, match="you do not hold 🟩4"):
        g.apply(1, "play G4")  # G4 is seat 0's


def test_no_action_after_the_game_is_over():
    g = game(COLOUR_HANDS_4P, 5)
    play_first_legal(g)
    before = snapshot(g)
    with pytest.raises(GameOver):
        g.apply(1, "play G2")
    assert snapshot(g) == before


@pytest.mark.parametrize(
    "options",
    [
        {"fazes": []},
        {"fazes": [0]},
        {"fazes": [7]},
        {"fazes": [1, 2, 9]},
        {"fazes": [True]},
        {"fazes": [1.0]},
        {"fazes": ["1"]},
        {"fazes": 1},
        {"fazes": "123"},
        {"fazes": (1, 2)},
        {"faze": [1]},
        {"length": "quick"},
    ],
)
def test_malformed_options_raise_setup_error(options):
    with pytest.raises(SetupError):
        new_game("fazes", 4, options, seed=1)


def test_options_default_to_all_six_fazes_in_order():
    g = Fazes.new(4, seed=1)
    assert g.options.model_dump() == {"fazes": [1, 2, 3, 4, 5, 6]}
    assert g.fazes == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("players", [0, 1, 2, 9, 10])
def test_player_count_out_of_range_raises_setup_error(players):
    with pytest.raises(SetupError):
        new_game("fazes", players, seed=1)
    with pytest.raises(SetupError):
        Fazes(players, get("fazes").options_model(), seed=1)


def _hands_with(changes: dict[int, str]) -> list[Any]:
    hands: list[Any] = [h.split() for h in MIXED_8P]
    for seat, cards in changes.items():
        hands[seat] = cards.split() if isinstance(cards, str) else cards
    return hands


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ({"hands": _hands_with({0: "G2 G4 Y2 Y3 B5 B2"})}, "out of play"),  # B2 removed
        ({"hands": _hands_with({0: "G2 G4 Y2 Y3 B5 G4"})}, "not the deck"),  # a repeat
        ({"hands": _hands_with({0: "G2 G4 Y2 Y3 B5"})}, "6 cards"),  # short hand
        ({"hands": _hands_with({0: "G2 G4 Y2 Y3 B5 B6 R15"})}, "no card"),
        ({"hands": _hands_with({0: "G2 G4 Y2 Y3 B5 X6"})}, "no card"),
        ({"hands": _hands_with({0: 7})}, "list of card names"),
        ({"hands": _hands_with({0: [2, 3]})}, "list of card names"),
        ({"hands": _hands_with({})[:7]}, "list of 8 hands"),
        ({"hands": "G2"}, "list of 8 hands"),
        ({"hands": _hands_with({}), "stock": []}, "exactly the key hands"),
        ({}, "exactly the key hands"),
    ],
)
def test_malformed_deals_raise_setup_error(raw, why):
    with pytest.raises(SetupError, match=why):
        new_game("fazes", 8, seed=1, dealer=0, deals=[raw])


def test_a_malformed_later_deal_is_refused_even_if_never_reached():
    bad = {"hands": _hands_with({0: "G2 G4 Y2 Y3 B5 B2"})}
    with pytest.raises(SetupError, match="deal 3"):
        new_game("fazes", 8, {"fazes": [1]}, seed=1, deals=[deal(MIXED_8P), deal(MIXED_8P), bad])


def test_without_a_seed_the_dealer_and_every_deal_must_be_given():
    with pytest.raises(SetupError, match="seed"):
        new_game("fazes", 8, {"fazes": [1]}, dealer=None, deals=[deal(MIXED_8P)])
    with pytest.raises(SetupError, match="seed"):
        new_game("fazes", 8, {"fazes": [1]}, dealer=0)
    g = new_game("fazes", 8, {"fazes": [1, 2]}, dealer=0, deals=[deal(MADNESS_8P)])
    with pytest.raises(SetupError, match="deal 2"):
        play(g, *MADNESS_TRUMP_PLAY)  # the end of faze 1 needs a second deal


# --- views and copies -------------------------------------------------------------


def test_hands_are_private_and_tricks_and_taken_cards_public():
    g = game(MIXED_8P, 2)
    play(g, "G2 G14 R4 Y7 G6 G8 G10 G12", "G5")
    zones = {z.name: z for z in g.zones()}
    assert all(zones[f"hand:{p}"].visibility is Visibility.OWNER for p in range(8))
    assert zones["trick"].visibility is Visibility.PUBLIC
    assert [c.text for c in zones["trick"].cards] == ["G5"]
    assert zones["taken:1"].visibility is Visibility.PUBLIC
    assert len(zones["taken:1"].cards) == 8
    view = g.view_for(3)
    assert view.zone("hand:3").cards is not None and view.zone("hand:4").cards is None
    assert view.zone("hand:4").count == 5
    assert view.trick == ((1, FULL_DECK.parse("G5")),)
    check_zones(g)


def test_labels_facts_and_notes_describe_the_table():
    g = game(MIXED_8P, 6)
    assert [g.action_label(a) for a in g.legal_actions()] == ["Lead 🟩2"]
    play(g, "G2")
    assert sorted(g.action_label(a) for a in g.legal_actions()) == [
        "Play 🟩14", "Play 🟩5"]
    facts = dict(g.facts())
    assert facts["Trump"] == "Red" and facts["Led"] == "Green"
    assert "Faze" not in facts  # the phase says it: "faze 1 of 1 (Madness)"
    assert facts["Out of play"] == "🔲2 🔲3 🟩3 🔲4"
    assert g.phase() == "faze 1 of 1 (Madness), trick 1 of 6"
    play(g, "G14 R4 Y7 G6 G8 G10 G12")
    assert g.seat_notes()[0] == "dealer, 0 tricks"
    assert g.seat_notes()[2] == "1 trick, +25 this faze"  # the trick 10, R4 5, Y7 10
    assert "lowest total" in get("fazes").goal and "-50" in get("fazes").scoring


def test_clone_is_independent_and_plays_on_identically():
    g = Fazes.new(5, {"fazes": [2, 6]}, seed=9)
    rng = random.Random(4)
    for _ in range(47):  # trick 10 of faze 1 (10 tricks of 5 cards)
        g.apply(g.to_act, rng.choice(g.legal_actions()))
    c = g.clone()
    assert snapshot(c) == snapshot(g)
    mutable = (list, dict, random.Random)
    for key, value in vars(g).items():
        if isinstance(value, mutable) and key != "_explicit_deals":
            assert vars(c)[key] is not value, key
    before = snapshot(g)
    rng_c = random.Random(5)
    while not c.over:  # crosses into faze 2, whose deal comes from the copied generator
        c.apply(c.to_act, rng_c.choice(c.legal_actions()))
    assert snapshot(g) == before
    rng_c = random.Random(5)
    while not g.over:
        g.apply(g.to_act, rng_c.choice(g.legal_actions()))
    assert snapshot(g) == snapshot(c)
    assert g.record() == c.record()


def test_events_tell_the_trick_the_moon_the_score_and_the_next_deal():
    g = game(COLOUR_HANDS_4P, 1, 5)
    play_first_legal(g, 51)
    events = g.apply(3, "play B14")
    assert [str(e) for e in events] == [
        "seat 3 plays 🔲14",
        "seat 0 wins trick 13 with 🟥14",
        "seat 0 shoots the moon: everyone else scores 65",
        "faze 1 (Red Trump): seat 0 +0, seat 1 +65, seat 2 +65, seat 3 +65",
        "seat 1 deals faze 2 of 2: Last Trick (the last trick scores -50); seat 1 leads 🟩2",
    ]
    assert [str(e) for e in g.apply(1, "play G2")] == ["seat 1 leads 🟩2"]
    play_first_legal(g, 50)
    assert [e.kind for e in g.apply(0, "play R14")] == ["play", "trick", "last", "score", "end"]
    assert g.scores == [0, 15, 65, 65] and g.winners == (0,)


def test_a_seedless_clone_is_independent_and_plays_on_identically():
    g = game(COLOUR_HANDS_4P, 1, 3, seed=None)
    assert g.rng is None
    play_first_legal(g, 20)
    c = g.clone()
    assert c.rng is None and snapshot(c) == snapshot(g)
    before = snapshot(g)
    play_first_legal(c)
    assert snapshot(g) == before
    play_first_legal(g)
    assert snapshot(g) == snapshot(c) and g.record() == c.record()


def test_a_clone_draws_the_same_next_deals_as_the_original():
    g = new_game("fazes", 6, {"fazes": [1, 1, 1]}, seed=21)
    c = g.clone()
    assert c.rng is not g.rng and c.rng is not None and g.rng is not None
    assert c.rng.getstate() == g.rng.getstate()
    play_first_legal(g)
    play_first_legal(c)
    assert g.record().deals == c.record().deals
