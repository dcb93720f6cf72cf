"""Fiasco's rules, one test per "Tests must cover" bullet of rules/fiasco.md, on stacked deals."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core.errors import GameOver, IllegalAction, NotYourTurn, SetupError, UnknownAction
from games.core.registry import new_game
from games.fiasco.cards import FIASCO, FULL_DECK, KING, four_suit_deck, suit_cards
from games.fiasco.scoring import score_collection
from tests.games.fiasco.helpers import batch_sizes, deal, game, play


def test_the_deck_has_54_cards_six_suits_without_5_six_kings_six_fiascos():
    counts = Counter(c.text for c in FULL_DECK.cards)
    assert len(FULL_DECK) == 54
    assert counts["K"] == 6 and counts["F"] == 6
    for suit in "SRBTMH":
        assert sorted(c.rank for c in FULL_DECK.cards if c.suit == suit) == [1, 2, 3, 4, 6, 7, 8]
    assert FULL_DECK.parse("F").rank == 5 and FULL_DECK.parse("K").rank == 9
    with pytest.raises(UnknownAction):
        FULL_DECK.parse("S5")


def test_four_suit_deck_keeps_the_claims_and_the_first_unclaimed():
    deck = four_suit_deck("HM")
    assert len(deck) == 40
    assert {c.suit for c in deck.cards if c.suit} == {"S", "R", "M", "H"}


def test_highest_rank_wins_with_no_suit_to_follow():
    g = game(3, ["S1 K F R2 R3 R4", "R8 B1 B2 B3 B4 M1", "B8 T1 T2 T3 T4 M2"])
    # seat 0 leads S1; seat 1 may play any card (no suit to follow).
    assert {str(a) for a in g.legal_actions()} == {"play S1", "play K", "play F", "play R2",
                                                   "play R3", "play R4"}
    play(g, "S1", "B1", "B8")
    assert g.tricks == [2]
    assert g.to_act == 2


def test_collection_takes_own_suit_and_kings_the_rest_goes_to_waste():
    g = game(3, ["S1 S2 S3 S4 S6 S7", "K R1 R2 R3 R4 R6", "S8 B1 B2 B3 B4 B6"])
    play(g, "S1", "K", "B1")  # seat 1 (Roses) wins: collects the King, not S1 or B1
    assert g.tricks == [1]
    assert [c.text for c in g.collections[1]] == ["K"]
    assert sorted(c.text for c in g.waste) == ["B1", "S1"]


def test_fiasco_penalty_king_lead_example_loses_the_king_and_two_more():
    g = game(4, ["S8 K S7 S1 S2 S3", "R1 F R2 R3 R4 R6", "B1 F B2 B3 B4 B6",
                 "T1 F T2 T3 T4 T6"])
    play(g, "S8", "R1", "B1", "T1")
    play(g, "S7", "R2", "B2", "T2")
    assert [c.text for c in g.collections[0]] == ["S8", "S7"]
    play(g, "K", "F", "F", "F")  # the seed's example
    assert g.tricks == [0, 0, 0]
    assert g.collections[0] == []
    assert [c.text for c in g.waste[-3:]] == ["K", "S7", "S8"]


def test_fiasco_penalty_is_capped_at_the_pile_and_not_carried_over():
    g = game(4, ["K S8 S1 S2 S3 S4", "F R1 R2 R3 R4 R6", "F B1 B2 B3 B4 B6",
                 "F T1 T2 T3 T4 T6"])
    play(g, "K", "F", "F", "F")  # collects K, loses it; two more losses dropped
    assert g.collections[0] == []
    play(g, "S8", "R1", "B1", "T1")
    assert [c.text for c in g.collections[0]] == ["S8"]


def test_a_fiasco_the_winner_played_counts_too():
    g = game(3, ["S8 S1 S2 S3 S4 F", "R1 R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7"])
    play(g, "S8", "R1", "B1")
    play(g, "F", "R2", "B2")  # seat 0 wins with its own Fiasco and loses S8
    assert g.tricks == [0, 0]
    assert g.collections[0] == []


def test_tie_for_high_replays_with_the_same_leader_and_a_later_card_wins():
    g = game(3, ["K S1 S2 S3 S4 S6", "K R1 R2 R3 R4 R6", "B1 B2 B3 B4 B6 B7"])
    play(g, "K", "K", "B1")
    assert g.tricks == []  # nobody wins yet
    assert g.to_act == 0  # the same leader leads the re-play
    play(g, "S1", "R6", "B2")  # only the newest cards decide
    assert g.tricks == [1]
    assert sorted(c.text for c in g.collections[1]) == ["K", "K", "R6"]


def test_two_ties_in_a_row_then_the_winner_takes_the_whole_pot():
    g = game(3, ["K S8 S1 S2 S3 S4", "K R8 R1 R2 R3 R4", "B1 F B2 B3 B4 B6"])
    play(g, "K", "K", "B1")
    play(g, "S8", "R8", "F")  # 8 and 8 tie over the Fiasco
    assert g.tricks == []
    assert g.to_act == 0
    play(g, "S1", "R1", "B6")
    assert g.tricks == [2]
    # Seat 2 takes its Books and both Kings in play order; the one Fiasco costs it B6.
    assert [c.text for c in g.collections[2]] == ["K", "K", "B1"]
    assert sorted(c.text for c in g.waste) == ["B6", "F", "R1", "R8", "S1", "S8"]


def test_tie_on_the_last_cards_deals_the_next_batch_and_the_replay_goes_on():
    g = game(3, ["S8 S7 S6 S4 S3 K", "R1 R2 R3 T1 T2 K", "B1 B2 B3 M1 M2 B4"],
             stock_top="H8 H7 H6")
    for cards in [("S8", "R1", "B1"), ("S7", "R2", "B2"), ("S6", "R3", "B3"),
                  ("S4", "T1", "M1"), ("S3", "T2", "M2")]:
        play(g, *cards)
    assert g.tricks == [0] * 5
    play(g, "K", "K", "B4")  # a tie on the last cards, 36 cards still in the stock
    assert g.tricks == [0] * 5
    assert [len(h) for h in g.hands] == [6, 6, 6]
    assert [g.hands[p][0].text for p in range(3)] == ["H8", "H7", "H6"]
    assert g.to_act == 0  # the same leader re-plays
    assert [c.text for _, c in g.pot] == ["K", "K", "B4"]  # the pot stays


def test_tie_with_no_cards_left_is_swept_to_waste_with_no_winner():
    # Two players; the last batch is three Kings each: three K-K ties, the last with no
    # cards and no stock left, so the pot of six Kings is swept and nobody takes it.
    g = game(2, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7"], claims="SR",
             stock_bottom="K K K K K K")
    while not g.over:
        assert g.to_act is not None
        g.apply(g.to_act, g.legal_actions()[0])
    assert g.tricks[-1] is None
    assert sum(1 for c in g.waste if c.text == "K") == 6
    assert all(c.text != "K" for coll in g.collections for c in coll)
    assert g.stock == [] and all(not h for h in g.hands)


def test_batches_for_4_players_are_6_6_1():
    g = game(4, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7",
                 "T1 T2 T3 T4 T6 T7"])
    assert batch_sizes(g) == [6, 6, 1]
    assert len(g.waste) + sum(len(c) for c in g.collections) == 54  # 2 never dealt: wasted


def test_batches_for_5_players_are_6_4():
    g = game(5, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7",
                 "T1 T2 T3 T4 T6 T7", "M1 M2 M3 M4 M6 M7"])
    assert batch_sizes(g) == [6, 4]


def test_batches_for_2_players_with_four_suits_are_6_6_6_2():
    g = game(2, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7"], claims="SR", suits="four")
    assert batch_sizes(g) == [6, 6, 6, 2]


def test_all_seven_suit_cards_score_20_instead_of_14():
    seven = suit_cards("S")
    assert score_collection(seven, ["S"]) == 20
    assert score_collection(seven[:6], ["S"]) == 12
    assert score_collection(seven + suit_cards("R"), ["S", "R"]) == 40  # per suit, double


def test_all_six_kings_score_10_instead_of_6():
    assert score_collection([KING] * 6, ["S"]) == 10
    assert score_collection([KING] * 5, ["S"]) == 5
    assert score_collection([*suit_cards("S"), *[KING] * 6], ["S"]) == 30
    assert score_collection([*suit_cards("R"), FIASCO], ["S"]) == 0  # other suits score 0


def test_quick_game_ends_after_the_first_counting_round():
    g = game(3, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7"])
    _play_out(g)
    assert g.over and len(g.rounds) == 1
    assert g.winners == tuple(p for p in range(3) if g.scores[p] == max(g.scores))
    with pytest.raises(GameOver):
        g.apply(0, "play S1")


def test_extended_game_goes_on_until_someone_has_42():
    g = new_game("fiasco", 2, {"length": "extended"}, seed=11, dealer=0)
    g.apply(1, "choose S")
    g.apply(0, "choose R")
    _play_out(g)
    assert g.over
    assert max(g.scores) >= 42
    assert all(max(sum(r[p] for r in g.rounds[:i]) for p in range(2)) < 42
               for i in range(1, len(g.rounds)))
    assert len(g.deals_played) == len(g.rounds)


def test_teams_add_up_partners_and_both_partners_win():
    g = new_game("fiasco", 4, {"teams": True}, seed=5, dealer=3)
    for suit in "SRBT":
        assert g.to_act is not None
        g.apply(g.to_act, f"choose {suit}")
    _play_out(g)
    teams = [g.scores[0] + g.scores[2], g.scores[1] + g.scores[3]]
    best = max(teams)
    expected = tuple(sorted(p for p in range(4) if teams[p % 2] == best))
    assert g.winners == expected
    assert g.teams() == ((0, 2), (1, 3))


def test_teams_are_for_4_or_6_and_four_or_double_suits_for_2():
    with pytest.raises(SetupError):
        new_game("fiasco", 3, {"teams": True}, seed=1)
    with pytest.raises(SetupError):
        new_game("fiasco", 3, {"suits": "four"}, seed=1)
    with pytest.raises(SetupError):
        new_game("fiasco", 3, {"teams": 1}, seed=1)  # true is not 1


def test_double_suits_claim_alternately_left_dealer_left_dealer():
    g = new_game("fiasco", 2, {"suits": "double"}, seed=1, dealer=0)
    order = []
    for suit in "SRBT":
        order.append(g.to_act)
        g.apply(g.to_act, f"choose {suit}")
    assert order == [1, 0, 1, 0]
    assert g.claims == [["R", "T"], ["S", "B"]]


def test_four_suits_deck_is_fixed_by_the_claims():
    g = new_game("fiasco", 2, {"suits": "four"}, seed=2, dealer=1)
    g.apply(0, "choose H")
    g.apply(1, "choose B")
    assert {c.suit for c in g.deck_in_play().cards if c.suit} == {"S", "R", "B", "H"}
    in_zones = [c for z in g.zones() for c in z.cards]
    assert len(in_zones) == 40


def test_four_suit_deal_checked_against_the_claims_when_dealt():
    d = deal(["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7"], suits="SR")
    g = new_game("fiasco", 2, {"suits": "four"}, seed=2, dealer=1, deals=[d])
    g.apply(0, "choose H")
    with pytest.raises(SetupError):
        g.apply(1, "choose M")  # the deal holds S R B T, the claims demand S R M H


def test_pot_winner_leads_the_next_trick_and_the_next_batch():
    g = game(2, ["S8 S1 S2 S3 S4 S6", "R1 R2 R3 R4 R6 R7"], claims="SR")
    play(g, "S8", "R1")
    assert g.to_act == 0
    play(g, "S1", "R2")
    assert g.to_act == 1  # R2 beat S1: its player leads
    sizes = batch_sizes(g)  # checks every batch is led by the last pot's winner
    assert sizes[1:] == [6, 6, 6, 3]


def test_out_of_turn_and_unheld_cards_are_refused_and_change_nothing():
    g = game(3, ["S1 S2 S3 S4 S6 S7", "R1 R2 R3 R4 R6 R7", "B1 B2 B3 B4 B6 B7"])
    before = g.record()
    with pytest.raises(NotYourTurn):
        g.apply(1, "play R1")
    with pytest.raises(IllegalAction, match="do not hold"):
        g.apply(0, "play R1")
    with pytest.raises(IllegalAction):
        g.apply(0, "choose H")
    with pytest.raises(UnknownAction):
        g.apply(0, "play X9")
    assert g.record() == before


def test_a_claimed_suit_cannot_be_claimed_again():
    g = new_game("fiasco", 3, {}, seed=1, dealer=2)
    g.apply(0, "choose S")
    with pytest.raises(IllegalAction, match="claimed already"):
        g.apply(1, "choose s")
    assert g.to_act == 1


def _play_out(g) -> None:
    while not g.over:
        assert g.to_act is not None
        g.apply(g.to_act, g.legal_actions()[0])
