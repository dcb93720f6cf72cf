"""Fumblaroo's rules, one test per "Tests must cover" bullet of rules/fumblaroo.md, on stacked
deals.

Most deals below keep every club and the 2S (clubs' other 2) in the Kingdom with 9C turned
up; the dealer takes 9C and discards it, so clubs are trump but nobody holds one, and every
trick goes to the highest card of the suit led. Hands are given by role with ``seated``
where the dealer is not seat 2.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.core.actions import Action
from games.core.errors import GameOver, IllegalAction, NotYourTurn, SetupError, UnknownAction
from games.core.registry import new_game
from games.core.zones import Visibility
from games.fumblaroo import Fumblaroo
from games.fumblaroo.cards import DECK, effective_suit
from games.fumblaroo.game import FumblarooVerb, Stage
from games.fumblaroo.scoring import game_winner
from games.fumblaroo.tricks import trick_strength
from tests.games.fumblaroo.helpers import (
    FORFEIT_DEAL,
    NEXT_DEAL,
    apply_all,
    deal,
    game,
    legal,
    play_tricks,
    seated,
)
from tests.invariants import check_zones, snapshot

ORDERED = ("0 order", "2 discard 9C")  # seat 0 (the dealer's left) calls clubs
ORDERED_BY_1 = ("0 pass", "1 order", "2 discard 9C")
PICKED = ("0 pass", "1 pass", "2 pick", "2 discard 9C")  # the dealer (2) calls clubs


def cards(texts: str) -> list[Any]:
    return [DECK.parse(t) for t in texts.split()]


# --- the deck ------------------------------------------------------------------


def test_the_deck_has_27_cards_without_the_king_of_clubs():
    texts = Counter(c.text for c in DECK.cards)
    assert len(DECK) == 27 and len(texts) == 27
    for suit in "SHD":
        assert {c.text for c in DECK.cards if c.suit == suit} == {
            f"{r}{suit}" for r in "29TJQKA"
        }
    assert {c.text for c in DECK.cards if c.suit == "C"} == {"2C", "9C", "TC", "JC", "QC", "AC"}
    assert "KC" not in texts
    assert DECK.parse("tD").rank == 10 and DECK.parse("AS").rank == 14
    with pytest.raises(UnknownAction):
        DECK.parse("KC")
    with pytest.raises(UnknownAction):
        DECK.parse("8S")


def test_a_deal_with_the_king_of_clubs_is_not_the_deck():
    bad = deal(["2S 9S TS JS QS", "KS AS 2H 9H TH", "JH QH KH AH 2D"], "9D")
    bad["kingdom"][bad["kingdom"].index("AC")] = "KC"
    with pytest.raises(SetupError, match="KC"):
        new_game("fumblaroo", 3, dealer=0, deals=[bad])


def test_play_kc_is_an_unknown_card():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C", actions=ORDERED)
    with pytest.raises(UnknownAction):
        g.apply(0, "play KC")


def test_five_cards_each_and_twelve_in_the_kingdom_top_card_turned_up():
    g = Fumblaroo.new(3, seed=7, dealer=1)
    assert [len(h) for h in g.hands] == [5, 5, 5]
    view = g.view_for(None)
    assert view.zone("kingdom").count == 11 and view.zone("kingdom").hidden
    up = view.zone("up-card")
    assert up.count == 1 and up.cards == (g.up_card,)
    assert g.deals_played[-1]["kingdom"][0] == str(g.up_card)
    check_zones(g)


# --- the 2 of clubs forfeit ----------------------------------------------------


def test_two_of_clubs_turned_up_voids_the_hand_and_the_dealer_scores_1():
    g = Fumblaroo.new(3, dealer=1, deals=[FORFEIT_DEAL, NEXT_DEAL])
    assert g.rounds == [[0, 1, 0]]
    assert g.scores == [0, 1, 0]
    assert g.tricks == [] and g.history == []
    # The deal passed to seat 2, so seat 0 bids first on the next deal (9D up).
    assert g.dealer == 2 and g.to_act == 0 and str(g.up_card) == "9D"
    assert legal(g) == ["order", "pass"]


def test_two_of_clubs_forfeits_chain_over_consecutive_deals():
    g = Fumblaroo.new(3, dealer=2, deals=[FORFEIT_DEAL, FORFEIT_DEAL, NEXT_DEAL])
    assert g.rounds == [[0, 0, 1], [1, 0, 0]]
    assert g.scores == [1, 0, 1]
    assert g.dealer == 1 and g.to_act == 2


def test_winning_by_the_two_of_clubs_forfeit():
    # Target 5, dealers 0, 1, 2, 0, ...: after twelve voids all hold 4, the 13th gives seat 0
    # its 5th point, alone at the top.
    g = new_game("fumblaroo", 3, {"target": 5}, dealer=0, deals=[FORFEIT_DEAL] * 14)
    assert g.over and g.winners == (0,)
    assert g.scores == [5, 4, 4]
    assert len(g.rounds) == 13 and g.rounds[-1] == [1, 0, 0]
    assert g.to_act is None and g.legal_actions() == []
    check_zones(g)  # the last deal's cards are all still on the table
    with pytest.raises(GameOver):
        g.apply(1, "order")


def test_winning_by_a_forfeit_ends_the_game_in_the_middle_of_the_chain():
    hands = ["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"]  # 5-0-0 to seat 0
    g = game(hands, "9C", actions=ORDERED, target=6,
             more=(FORFEIT_DEAL, FORFEIT_DEAL, NEXT_DEAL))
    play_tricks(g, "AH 9D 9S", "KH TD TS", "QH JD JS", "JH QD QS", "TH KD KS")
    # 5 points, then dealer 0 turns up 2C: 6, alone at the target. The next void is never dealt.
    assert g.rounds == [[5, 0, 0], [1, 0, 0]]
    assert g.over and g.winners == (0,) and g.scores == [6, 0, 0]
    assert len(g.deals_played) == 2


# --- bidding -------------------------------------------------------------------


def test_ordering_up_makes_the_up_card_trump_and_the_dealer_takes_it_and_discards():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C")
    assert g.to_act == 0 and legal(g) == ["order", "pass"]
    g.apply(0, "order")
    assert g.trump == "C" and g.caller == 0
    assert g.to_act == 2 and g.stage is Stage.DISCARD
    assert [c.text for c in g.hands[2]] == ["9S", "TS", "JS", "QS", "KS", "9C"]
    assert g.up_card is None
    assert legal(g) == sorted(f"discard {c}" for c in ["9S", "TS", "JS", "QS", "KS", "9C"])
    g.apply(2, "discard KS")  # any of the six, not only the up-card
    assert [c.text for c in g.hands[2]] == ["9S", "TS", "JS", "QS", "9C"]
    assert [c.text for c in g.discarded] == ["KS"]
    assert g.to_act == 0 and g.stage is Stage.PLAYING
    check_zones(g)


def test_the_dealer_may_discard_the_up_card_itself():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C",
             actions=("0 order", "2 discard 9C"))
    assert g.discarded == cards("9C") and g.trump == "C"


def test_passing_goes_to_the_third_player_who_may_order():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C")
    g.apply(0, "pass")
    assert g.to_act == 1 and legal(g) == ["order", "pass"]
    g.apply(1, "order")
    assert g.caller == 1 and g.trump == "C" and g.to_act == 2
    assert legal(g)[0].startswith("discard")


def test_both_pass_then_the_dealer_may_only_pick_or_turn():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C",
             actions=("0 pass", "1 pass"))
    assert g.to_act == 2 and legal(g) == ["pick", "turn"]
    for bad in ("order", "pass"):
        before = snapshot(g)
        with pytest.raises(IllegalAction, match="dealer may not order or pass"):
            g.apply(2, bad)
        assert snapshot(g) == before


def test_non_dealers_may_not_pick_or_turn_in_round_one():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C")
    for bad in ("pick", "turn", "call H", "play AH"):
        before = snapshot(g)
        with pytest.raises(IllegalAction):
            g.apply(0, bad)
        assert snapshot(g) == before


def test_picking_up_makes_the_dealer_caller_and_the_dealer_discards_face_down():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C",
             actions=("0 pass", "1 pass", "2 pick"))
    assert g.caller == 2 and g.trump == "C" and g.to_act == 2
    assert len(g.hands[2]) == 6
    with pytest.raises(IllegalAction, match="you do not hold ♥️A"):
        g.apply(2, "discard AH")
    g.apply(2, "discard 9S")
    discard = g.view_for(None).zone("discard")
    assert discard.count == 1 and discard.hidden  # nobody sees it, the dealer neither
    assert g.view_for(2).zone("discard").hidden
    assert [z.visibility for z in g.zones() if z.name == "discard"] == [Visibility.NOBODY]
    check_zones(g)


def test_turning_down_forces_the_dealers_left_to_call_another_suit():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C",
             actions=("0 pass", "1 pass", "2 turn"))
    assert g.to_act == 0 and g.stage is Stage.CALLING
    assert legal(g) == ["call D", "call H", "call S"]
    assert g.view_for(1).zone("turned down").cards == tuple(cards("9C"))
    assert g.view_for(None).zone("up-card").count == 0
    for bad, error in (("call C", "Clubs were turned down and may not be called"),
                       ("pass", "may not pass"), ("order", "call trump")):
        before = snapshot(g)
        with pytest.raises(IllegalAction, match=error):
            g.apply(0, bad)
        assert snapshot(g) == before
    g.apply(0, "call h")
    assert g.trump == "H" and g.caller == 0
    assert [len(h) for h in g.hands] == [5, 5, 5]  # nobody takes the turned-down card
    assert g.to_act == 0 and g.stage is Stage.PLAYING
    assert cards("9C") == g.turned_down
    check_zones(g)


# --- trump ---------------------------------------------------------------------


def test_trump_ranks_the_two_of_trump_over_the_other_two_over_the_ace():
    # Hearts trump (seat 0 orders 9H); the dealer (2) discards 9H.
    hands = ["AH KH 9S TS JS", "2D QH QS KS AS", "2H TH 9D TD JD"]
    g = game(hands, "9H", actions=("0 order", "2 discard 9H"))
    assert legal(g) == sorted(f"play {c}" for c in ["AH", "KH", "9S", "TS", "JS"])
    play_tricks(g, "AH 2D TH")  # 2D beats AH
    assert g.tricks == [1]
    play_tricks(g, "QH 2H KH")  # 2H beats everything
    assert g.tricks == [1, 2]
    # No trump left: diamonds led, AS (off suit) loses to 9D.
    play_tricks(g, "9D 9S AS", "TD TS KS", "JD JS QS")
    assert g.tricks == [1, 2, 2, 2, 2]
    assert g.rounds == [[0, 0, 2]]  # 0-1-4: 2 points to the player with 4


@pytest.mark.parametrize("trump", list("SHDC"))
def test_trump_order_9_to_ace_then_other_two_then_two_of_trump(trump):
    other = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
    order = [f"{r}{trump}" for r in "9TJQKA" if f"{r}{trump}" != "KC"]
    order += [f"2{other}", f"2{trump}"]
    led = "H" if trump in "SC" else "S"  # a plain suit
    strengths = [trick_strength(DECK.parse(t), trump, led) for t in order]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    lowest_trump = strengths[0]
    assert all(trick_strength(c, trump, led) < lowest_trump
               for c in DECK.cards if effective_suit(c, trump) != trump)


def test_in_a_plain_suit_the_two_is_lowest():
    assert [c.text for c in sorted((c for c in DECK.cards if c.suit == "S"),
                                   key=lambda c: trick_strength(c, "H", "S"))] == [
        "2S", "9S", "TS", "JS", "QS", "KS", "AS"]
    # Spades led with hearts trump: 9S beats the 2S led.
    assert trick_strength(DECK.parse("9S"), "H", "S") > trick_strength(DECK.parse("2S"), "H", "S")


# --- the other 2 -----------------------------------------------------------------


def test_the_other_two_does_not_follow_its_printed_suit():
    # The shared vector's deal: dealer 1, seat 2 orders QH (hearts trump, 2D is a trump).
    hands = ["2D 9D AS KS 9C", "9H TH QS TC JC", "AD KD 9S TS JS"]
    g = game(hands, "QH", dealer=1, actions=("2 order", "1 discard JC", "2 play AD"))
    assert g.to_act == 0 and legal(g) == ["play 9D"]
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="♦️2 is a trump"):
        g.apply(0, "play 2D")
    assert snapshot(g) == before
    play_tricks(g, "9D TC")
    assert g.tricks == [2]
    # KD led: seat 0 holds 2D but no real diamond, so may play anything, and 2D trumps.
    g.apply(2, "play KD")
    assert legal(g) == ["play 2D", "play 9C", "play AS", "play KS"]
    play_tricks(g, "2D 9H")
    assert g.tricks == [2, 0]


def test_the_other_two_must_follow_a_trump_lead_when_it_is_the_only_trump():
    hands = ["AH TH 9S TS JS", "2D 9D QS KS AS", "KH QH TD JD AD"]
    g = game(hands, "9H", actions=("0 order", "2 discard 9H", "0 play AH"))
    assert g.to_act == 1 and legal(g) == ["play 2D"]  # 9D is a diamond, not a trump
    with pytest.raises(IllegalAction, match="you must follow Hearts"):
        g.apply(1, "play 9D")
    play_tricks(g, "2D QH")
    assert g.tricks == [1]


def test_leading_the_other_two_leads_trump():
    hands = ["AH TH 9S TS JS", "2D 9D QS KS AS", "KH QH TD JD AD"]
    g = game(hands, "9H", actions=("0 order", "2 discard 9H"))
    play_tricks(g, "9S AS TD")
    assert g.tricks == [1]
    g.apply(1, "play 2D")
    assert legal(g) == ["play KH", "play QH"]  # seat 2 must follow trump, not diamonds
    with pytest.raises(IllegalAction, match="you must follow Hearts"):
        g.apply(2, "play AD")
    play_tricks(g, "KH AH")
    assert g.tricks == [1, 1]


# --- trick winners ---------------------------------------------------------------


def test_a_low_trump_beats_the_ace_of_the_suit_led():
    hands = ["AS KS TH JD QD", "9S TS JS QS KH", "QH 9D TD KD AD"]
    g = game(hands, "9H", actions=("0 order", "2 discard 9H"))
    play_tricks(g, "AS 9S QH")
    assert g.tricks == [2] and g.to_act == 2


def test_without_trump_the_highest_card_of_the_suit_led_wins():
    hands = ["AS KS TH JD QD", "9S TS JS QS KH", "QH 9D TD KD AD"]
    g = game(hands, "9H", actions=("0 order", "2 discard 9H"))
    play_tricks(g, "AS 9S QH")
    g.apply(2, "play 9D")
    assert legal(g) == ["play JD", "play QD"]
    play_tricks(g, "JD QS")  # QS outranks JD but is off suit
    assert g.tricks == [2, 0] and g.to_act == 0


def test_the_winner_of_a_trick_leads_the_next():
    g = game(["AH KH QH TH 9D", "TD JD QD KD AD", "9S TS JS QS KS"], "9C", actions=ORDERED)
    play_tricks(g, "AH AD 9S", "KH KD TS", "QH QD JS", "9D TD QS")
    assert g.tricks == [0, 0, 0, 1] and g.to_act == 1


# --- scoring ---------------------------------------------------------------------


def test_split_5_0_0_scores_5_even_for_a_player_who_did_not_call():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C", actions=ORDERED_BY_1)
    play_tricks(g, "AH 9D 9S", "KH TD TS", "QH JD JS", "JH QD QS", "TH KD KS")
    assert g.tricks == [0, 0, 0, 0, 0]
    assert g.rounds == [[5, 0, 0]] and g.scores == [5, 0, 0]


def test_split_4_1_0_scores_2_to_the_player_with_4():
    g = game(["AH KH QH JH 9D", "TD JD QD KD AD", "9S TS JS QS KS"], "9C", actions=ORDERED_BY_1)
    play_tricks(g, "AH AD 9S", "KH KD TS", "QH QD JS", "JH JD QS", "9D TD KS")
    assert g.tricks == [0, 0, 0, 0, 1]
    assert g.rounds == [[2, 0, 0]]


def test_split_3_1_1_scores_1_to_the_player_with_3():
    g = game(["AH KH QH TH 9D", "9S TD JD QD KD", "TS JS QS KS AS"], "9C", actions=ORDERED_BY_1)
    play_tricks(g, "AH KD TS", "KH QD JS", "QH JD QS", "9D TD KS", "9S AS TH")
    assert g.tricks == [0, 0, 0, 1, 2]
    assert g.rounds == [[1, 0, 0]]


def test_split_3_2_0_scores_1_to_the_player_with_3():
    g = game(["AH KH QH TH 9D", "TD JD QD KD AD", "9S TS JS QS KS"], "9C", actions=PICKED)
    play_tricks(g, "AH AD 9S", "KH KD TS", "QH QD JS", "9D TD QS", "JD KS TH")
    assert g.tricks == [0, 0, 0, 1, 1]
    assert g.rounds == [[1, 0, 0]]


TWO_TWO_ONE = ["AH KH TH JH 9D", "9S TD JD QD KD", "TS JS QS KS AS"]
TWO_TWO_ONE_TRICKS = ("AH KD TS", "KH QD JS", "9D TD QS", "JD KS TH", "9S AS JH")


def test_split_2_2_1_with_the_caller_on_2_scores_only_the_other_player_on_2():
    g = game(TWO_TWO_ONE, "9C", actions=ORDERED)
    play_tricks(g, *TWO_TWO_ONE_TRICKS)
    assert g.tricks == [0, 0, 1, 1, 2]
    assert g.rounds == [[0, 2, 0]]


def test_split_2_2_1_with_the_caller_on_1_scores_both_players_on_2():
    g = game(TWO_TWO_ONE, "9C", actions=PICKED)
    play_tricks(g, *TWO_TWO_ONE_TRICKS)
    assert g.tricks == [0, 0, 1, 1, 2]
    assert g.rounds == [[2, 2, 0]]


def test_split_2_2_1_with_the_other_caller_on_2():
    g = game(TWO_TWO_ONE, "9C", actions=ORDERED_BY_1)
    play_tricks(g, *TWO_TWO_ONE_TRICKS)
    assert g.rounds == [[2, 0, 0]]


def test_after_a_hand_the_deal_passes_clockwise_and_the_next_hand_is_dealt_at_once():
    g = game(TWO_TWO_ONE, "9C", actions=ORDERED)
    play_tricks(g, *TWO_TWO_ONE_TRICKS)
    assert g.dealer == 0 and g.to_act == 1 and str(g.up_card) == "9D"
    assert g.stage is Stage.BIDDING and g.trump is None and g.caller is None
    check_zones(g)


# --- the end ---------------------------------------------------------------------


def _to_ten(after: dict[str, Any]) -> Fumblaroo:
    """24 voids (dealers 0, 1, 2, ...) leave everyone on 8; then dealer 0 picks up and takes
    1 trick of a 2-2-1, so seats 1 and 2 both reach 10 together; then the deal ``after``."""
    hands = seated(0, *TWO_TWO_ONE)
    g = Fumblaroo.new(3, dealer=0,
                      deals=[*[FORFEIT_DEAL] * 24, deal(hands, "9C"), after])
    assert g.scores == [8, 8, 8] and g.dealer == 0 and g.to_act == 1
    apply_all(g, "1 pass", "2 pass", "0 pick", "0 discard 9C")
    play_tricks(g, *TWO_TWO_ONE_TRICKS)
    assert g.tricks == [1, 1, 2, 2, 0]
    return g


def test_play_to_10_two_players_passing_10_together_play_on():
    g = _to_ten(NEXT_DEAL)
    assert g.rounds[-1] == [0, 2, 2] and g.scores == [8, 10, 10]
    assert not g.over and g.winners == ()
    assert g.dealer == 1 and g.to_act == 2 and legal(g) == ["order", "pass"]


def test_play_to_10_after_a_tie_the_first_to_lead_alone_wins():
    g = _to_ten(FORFEIT_DEAL)  # dealer 1 turns up 2C: 11, alone at the top
    assert g.rounds[-2:] == [[0, 2, 2], [0, 1, 0]]
    assert g.over and g.winners == (1,) and g.scores == [8, 11, 10]
    assert g.outcome is not None and g.outcome.places == (3, 1, 2)


def test_the_game_ends_only_when_one_player_alone_holds_the_top_total_at_the_target():
    assert game_winner([10, 10, 10], target=10) is None
    assert game_winner([11, 11, 3], target=10) is None
    assert game_winner([9, 9, 8], target=10) is None
    assert game_winner([10, 9, 9], target=10) == 0
    assert game_winner([10, 11, 12], target=10) == 2


def test_the_target_option_sets_the_end():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C", actions=ORDERED,
             target=5)
    play_tricks(g, "AH 9D 9S", "KH TD TS", "QH JD JS", "JH QD QS", "TH KD KS")
    assert g.over and g.winners == (0,) and g.scores == [5, 0, 0]
    assert g.to_act is None and g.legal_actions() == []
    check_zones(g)


def test_default_target_is_10_so_5_points_play_on():
    g = game(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C", actions=ORDERED)
    play_tricks(g, "AH 9D 9S", "KH TD TS", "QH JD JS", "JH QD QS", "TH KD KS")
    assert not g.over and g.scores == [5, 0, 0]


# --- who leads -----------------------------------------------------------------


def test_the_dealers_left_leads_even_when_the_dealer_called():
    g = game(TWO_TWO_ONE, "9C", actions=PICKED)
    assert g.caller == 2 and g.to_act == 0 and g.leader == 0


def test_the_dealers_left_leads_when_the_third_player_ordered():
    g = game(TWO_TWO_ONE, "9C", actions=ORDERED_BY_1)
    assert g.caller == 1 and g.to_act == 0


def test_the_dealers_left_leads_for_any_dealer():
    for dealer in range(3):
        hands = seated(dealer, *TWO_TWO_ONE)
        g = game(hands, "9C", dealer=dealer)
        left, third = (dealer + 1) % 3, (dealer + 2) % 3
        apply_all(g, f"{left} pass", f"{third} pass", f"{dealer} pick", f"{dealer} discard 9C")
        assert g.to_act == left
        play_tricks(g, *TWO_TWO_ONE_TRICKS)
        expected = [0, 0, 0]
        expected[left] = expected[third] = 2
        assert g.rounds == [expected]


# --- refusals change nothing ---------------------------------------------------------


def test_the_wrong_player_is_refused_with_not_your_turn():
    g = game(TWO_TWO_ONE, "9C")
    before = snapshot(g)
    with pytest.raises(NotYourTurn):
        g.apply(1, "order")
    with pytest.raises(NotYourTurn):
        g.apply(3, "order")
    assert snapshot(g) == before


@pytest.mark.parametrize("text", ["frobnicate", "play", "order now", "call X", "play KC",
                                  "discard 1S", ""])
def test_unreadable_actions_are_unknown_and_change_nothing(text):
    g = game(TWO_TWO_ONE, "9C")
    before = snapshot(g)
    with pytest.raises(UnknownAction):
        g.apply(0, text)
    assert snapshot(g) == before


def test_illegal_plays_name_the_reason_and_change_nothing():
    g = game(TWO_TWO_ONE, "9C", actions=ORDERED)
    for player, text, reason in ((0, "play AS", "you do not hold ♠️A"),
                                 (0, "order", "play a card"),
                                 (0, "discard AH", "play a card")):
        before = snapshot(g)
        with pytest.raises(IllegalAction, match=reason):
            g.apply(player, text)
        assert snapshot(g) == before
    g.apply(0, "play 9D")
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="you must follow Diamonds"):
        g.apply(1, "play 9S")
    assert snapshot(g) == before


def test_action_objects_and_text_are_the_same_action():
    g = game(TWO_TWO_ONE, "9C")
    g.apply(0, Action(FumblarooVerb.ORDER))
    g.apply(2, Action(FumblarooVerb.DISCARD, DECK.parse("9C")))
    assert g.history == ["0 order", "2 discard 9C"]


# --- setup errors ------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_fumblaroo_is_for_exactly_3_players(players):
    with pytest.raises(SetupError):
        new_game("fumblaroo", players, seed=1)


@pytest.mark.parametrize("options", [{"target": 4}, {"target": 26}, {"target": "10"},
                                     {"target": True}, {"target": 10.0}, {"length": "quick"}])
def test_bad_options_are_setup_errors(options):
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, options, seed=1)


@pytest.mark.parametrize("target", [5, 25])
def test_target_accepts_5_to_25(target):
    g = Fumblaroo.new(3, {"target": target}, seed=1)
    assert g.options.target == target


def _good() -> dict[str, Any]:
    return deal(["AH KH QH JH TH", "9D TD JD QD KD", "9S TS JS QS KS"], "9C")


def _malformed() -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = []
    d = _good()
    cases.append(("stock instead of kingdom", {"hands": d["hands"], "stock": d["kingdom"]}))
    cases.append(("no kingdom", {"hands": d["hands"]}))
    cases.append(("an extra key", {**d, "spicy": []}))
    cases.append(("two hands", {"hands": d["hands"][:2], "kingdom": d["kingdom"]}))
    cases.append(("hands not a list", {"hands": "AH KH", "kingdom": d["kingdom"]}))
    short = _good()
    short["kingdom"].append(short["hands"][0].pop())
    cases.append(("a hand of 4, a kingdom of 13", short))
    dup = _good()
    dup["kingdom"][-1] = dup["kingdom"][0]
    cases.append(("a duplicate card", dup))
    swapped = _good()
    swapped["kingdom"][-1] = "KC"
    cases.append(("the king of clubs", swapped))
    numbers = _good()
    numbers["kingdom"][0] = 9
    cases.append(("a card that is not text", numbers))
    return cases


@pytest.mark.parametrize(("why", "bad"), _malformed(), ids=[w for w, _ in _malformed()])
def test_malformed_deals_are_setup_errors(why, bad):
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, dealer=0, deals=[bad])


def test_a_malformed_deal_beyond_those_reached_is_still_refused():
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, dealer=0, deals=[_good(), {"hands": []}])


def test_a_dealer_or_deal_needed_from_a_missing_seed_is_a_setup_error():
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, deals=[_good()])  # no dealer, no seed
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, dealer=0)  # no deal, no seed
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, dealer=0, deals=[FORFEIT_DEAL])  # the void needs a 2nd deal


def test_dealer_must_be_a_seat():
    with pytest.raises(SetupError):
        new_game("fumblaroo", 3, dealer=3, deals=[_good()])


# --- views -----------------------------------------------------------------------


def test_hands_are_private_and_played_cards_public():
    g = game(TWO_TWO_ONE, "9C", actions=ORDERED)
    play_tricks(g, "AH KD TS", "KH")
    view0, view1 = g.view_for(0), g.view_for(1)
    assert view0.zone("hand:0").cards == tuple(cards("TH JH 9D"))
    assert view1.zone("hand:0").hidden and view1.zone("hand:0").count == 3
    assert view1.zone("tricks:0").cards == tuple(cards("AH KD TS"))
    assert view1.zone("trick").cards == tuple(cards("KH"))
    assert view1.trick == ((0, DECK.parse("KH")),)
    assert ("Trump", "Clubs") in view1.facts
    assert view1.seat_notes == ("called Clubs, 1 trick", "0 tricks", "dealer, 0 tricks")
    check_zones(g)


def test_action_labels_are_friendly():
    g = game(TWO_TWO_ONE, "9C")
    assert [g.action_label(a) for a in g.legal_actions()] == ["Order it up", "Pass"]
    assert g.action_label(g.parse("call h")) == "Call Hearts"
    assert g.action_label(g.parse("play 2d")) == "Play ♦️2"
    assert g.action_label(g.parse("discard 9c")) == "Discard ♣️9"
    assert g.phase() == "hand 1, bidding"
