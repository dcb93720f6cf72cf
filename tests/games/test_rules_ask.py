"""``Game.rules_ask``: the one line at the top of a hand menu saying what the rules ask now.

Each game's wording is checked phase by phase against ``docs/rules/<game>.md``, and a
seeded playout of every game checks that the line never contradicts the legal actions:
"follow Black" only when every legal card is black, "play any card" only when every card
in hand may go, "claim a suit" only when claiming is all there is to do.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import games
from games.core.cards import Card
from games.core.game import GAME_OVER, Game
from games.fazes.cards import COLOUR_NAMES
from games.fiasco.cards import suit_words
from games.fibonachos.cards import SUIT_NAMES as NACHO_SUITS
from games.fumblaroo.cards import SUIT_NAMES as FUMBLAROO_SUITS
from games.fumblaroo.cards import effective_suit

Play = Callable[[Game[Any]], bool]


def play_until(game: Game[Any], done: Play, seed: int = 1, limit: int = 3000) -> Game[Any]:
    """Random legal moves until ``done(game)``; fails if it never happens."""
    rng = random.Random(seed)
    for _ in range(limit):
        if done(game):
            return game
        assert not game.over, "the game ended first"
        game.apply(game.to_act, rng.choice(game.legal_actions()))
    raise AssertionError("the state never came")


def new(name: str, players: int, seed: int = 3, **options: Any) -> Game[Any]:
    return games.new_game(name, players, seed=seed, options=options)


def hand_of(game: Game[Any], seat: int) -> list[Card]:
    holding = getattr(game, "holding", None)
    return list(holding(seat)) if holding is not None else list(game.hands[seat])  # type: ignore[attr-defined]


def other(game: Game[Any]) -> int:
    assert game.to_act is not None
    return (game.to_act + 1) % game.players


# --- Fiasco ------------------------------------------------------------------------------


def test_fiasco_asks_each_player_in_turn_to_claim_a_suit():
    game = new("fiasco", 3)
    assert game.rules_ask(game.to_act).startswith("claim a suit")
    assert game.rules_ask(other(game)) == "suits are being claimed; yours comes in turn"
    first = game.to_act
    game.apply(first, "choose S")
    assert game.rules_ask(first) == "you collect 🗡️ Swords; the others are claiming suits"


def test_fiasco_double_suits_ask_for_a_second_claim():
    game = new("fiasco", 2, suits="double")
    play_until(game, lambda g: sum(map(len, g.claims)) == 2)  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act).startswith("claim another suit")


def test_fiasco_has_no_suit_to_follow_and_the_highest_rank_takes_the_pot():
    game = play_until(new("fiasco", 3), lambda g: g.phase().endswith("pot 1"))
    leader = game.to_act
    mine = " and ".join(suit_words(s) for s in game.claims[leader])  # type: ignore[attr-defined]
    assert game.rules_ask(leader) == (f"lead any card; the highest rank takes the pot; "
                                      f"you collect {mine} and Kings")
    card = game.hands[leader][0]  # type: ignore[attr-defined]
    game.apply(leader, f"play {card}")
    ask = game.rules_ask(game.to_act)
    assert ask.startswith(f"play any card (no suit to follow); highest so far: "
                          f"{game.card_label(card)}; you collect ")
    assert game.rules_ask(leader) == ("no suit to follow, the highest rank takes the pot; "
                                      f"you collect {mine} and Kings")


def test_fiasco_asks_for_the_replay_after_a_tie_for_high():
    game = play_until(new("fiasco", 2), lambda g: "(tie re-play)" in g.phase(), seed=2)
    assert game.rules_ask(game.to_act).startswith("tie for high: play again")


# --- Fazes ---------------------------------------------------------------------------------


def test_fazes_asks_the_holder_of_g2_to_lead_it():
    game = new("fazes", 4)
    assert game.rules_ask(game.to_act) == "lead 🟩2: the green 2 opens every faze; red is trump"
    assert game.rules_ask(other(game)) == "waiting for the lead; red is trump"


def _void_of_led(game: Game[Any], *, red: bool) -> bool:
    plays = game.plays  # type: ignore[attr-defined]
    if not plays or game.to_act is None:
        return False
    led = plays[0][1].suit
    hand = game.hands[game.to_act]  # type: ignore[attr-defined]
    return (led != "R" and all(c.suit != led for c in hand)
            and any(c.suit == "R" for c in hand) == red)


def test_fazes_asks_to_follow_the_led_colour():
    game = play_until(new("fazes", 4), lambda g: bool(g.plays) and any(  # type: ignore[attr-defined]
        c.suit == g.plays[0][1].suit for c in g.hands[g.to_act]))  # type: ignore[attr-defined]
    led = COLOUR_NAMES[game.plays[0][1].suit]  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act) == f"follow {led}; red is trump"
    assert game.rules_ask(other(game)) == f"{led} was led; red is trump"


def test_fazes_forces_red_on_a_void_player_in_faze_1():
    game = play_until(new("fazes", 4, fazes=[1]), lambda g: _void_of_led(g, red=True))
    led = COLOUR_NAMES[game.plays[0][1].suit]  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act) == f"no {led}: you must play red (red is trump)"


def test_fazes_lets_a_void_player_play_anything_in_fazes_2_to_5():
    game = play_until(new("fazes", 4, fazes=[2]), lambda g: _void_of_led(g, red=True))
    led = COLOUR_NAMES[game.plays[0][1].suit]  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act) == f"no {led}: play any card; no trump"


# --- Fibonachos ----------------------------------------------------------------------------


def test_fibonachos_asks_to_lead_for_the_prize_then_to_follow():
    game = new("fibonachos", 3)
    prize = game.card_label(game.prize[0])  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act) == f"lead any card; the winner takes {prize}"
    play_until(game, lambda g: bool(g.trick) and any(  # type: ignore[attr-defined]
        c.suit == g.trick[0][1].suit for c in g.hands[g.to_act]))  # type: ignore[attr-defined]
    led = NACHO_SUITS[game.trick[0][1].suit]  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act).startswith(f"follow {led}")


def test_fibonachos_says_when_two_fibonachos_turn_trump_on():
    def two_down(g: Game[Any]) -> bool:
        return sum(c.rank in (1, 2, 3, 5, 8, 13) for _, c in g.trick) >= 2  # type: ignore[attr-defined]
    game = play_until(new("fibonachos", 4), two_down, seed=4)
    assert game.rules_ask(game.to_act).endswith(
        "; Fibonacho trump is on: the highest Fibonacho wins")


# --- Fizzbin -------------------------------------------------------------------------------


def test_fizzbin_asks_to_draw_then_discard():
    game = new("fizzbin", 4, time="day")
    assert game.rules_ask(game.to_act) == ("draw from the stack or take a pile's top card; "
                                           "a special card (K and 2 by day) lets you draw again")
    assert game.rules_ask(other(game)) == ("wait for your turn: draw, then discard one card; "
                                           "K and 2 are special by day")
    play_until(game, lambda g: g.step.value == "discard" and bool(g.taken))  # type: ignore[attr-defined]
    taken = " ".join(game.card_label(c) for c in game.taken)  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act) == (f"discard one card onto any pile (not {taken}: "
                                           "taken from a pile this turn)")


def test_fizzbin_asks_to_draw_again_after_a_special_card():
    game = play_until(new("fizzbin", 4, time="night"),
                      lambda g: g.step.value == "draw again")  # type: ignore[attr-defined]
    assert game.rules_ask(game.to_act) == ("you drew a special card: draw again, or discard "
                                           "one card to end your turn")


# --- Fumblaroo -----------------------------------------------------------------------------


def _stage(value: str) -> Play:
    return lambda g: g.stage.value == value  # type: ignore[attr-defined, no-any-return]


def test_fumblaroo_bidding_asks_to_order_up_or_pass_then_the_dealer_to_pick_or_turn():
    game = play_until(new("fumblaroo", 3), _stage("bidding"))
    up = game.up_card  # type: ignore[attr-defined]
    suit = FUMBLAROO_SUITS[up.suit]
    name = game.card_label(up)
    assert game.rules_ask(game.to_act) == f"order up {name} to make {suit} trump, or pass"
    assert game.rules_ask(other(game)) == f"bidding on the up-card {name}"
    game.apply(game.to_act, "pass")
    game.apply(game.to_act, "pass")
    assert game.rules_ask(game.to_act) == f"pick up {name} to make {suit} trump, or turn it down"
    game.apply(game.to_act, "turn")
    assert game.rules_ask(game.to_act) == (f"call trump: any suit but {suit}; "
                                           "you may not pass")


def test_fumblaroo_asks_the_dealer_to_discard_after_an_order():
    game = play_until(new("fumblaroo", 3), _stage("bidding"))
    game.apply(game.to_act, "order")
    assert game.rules_ask(game.to_act) == ("discard one card face down (the card you took up "
                                           "may go too)")


def test_fumblaroo_asks_to_follow_the_led_suit_with_the_other_two_counted_as_trump():
    def following(g: Game[Any]) -> bool:
        return g.stage.value == "playing" and bool(g.trick)  # type: ignore[attr-defined]
    game = play_until(new("fumblaroo", 3), following)
    trump = game.trump  # type: ignore[attr-defined]
    led = effective_suit(game.trick[0][1], trump)  # type: ignore[attr-defined]
    ask = game.rules_ask(game.to_act)
    can = any(effective_suit(c, trump) == led for c in game.hands[game.to_act])  # type: ignore[attr-defined]
    start = f"follow {FUMBLAROO_SUITS[led]}" if can else f"no {FUMBLAROO_SUITS[led]}: play any"
    assert ask.startswith(start) and ask.endswith(f"{FUMBLAROO_SUITS[trump]} are trump")


# --- every game --------------------------------------------------------------------------


def suit_name(game: Game[Any], card: Card) -> str:
    """The suit or colour of ``card`` as the game's line names it."""
    if game.name == "fazes":
        return COLOUR_NAMES[card.suit]
    if game.name == "fibonachos":
        return NACHO_SUITS.get(card.suit, "")
    if game.name == "fumblaroo":
        return FUMBLAROO_SUITS[effective_suit(card, game.trump or "")]  # type: ignore[attr-defined]
    return card.suit


VERBS_ASKED = {
    "claim ": {"choose"}, "order up ": {"order", "pass"}, "pick up ": {"pick", "turn"},
    "call trump": {"call"}, "draw from the stack": {"draw"},
    "you drew a special card": {"draw", "discard"}, "discard one card": {"discard"},
}
WAITING_STARTS = ("claim", "lead", "play", "follow", "draw", "discard", "order", "pick", "call",
                  "tie", "you drew")


def check_ask(game: Game[Any]) -> None:
    """The line for the seat to act agrees with its legal actions; others' lines ask nothing."""
    seat = game.to_act
    assert seat is not None
    ask = game.rules_ask(seat)
    legal = game.legal_actions(seat)
    verbs = {a.verb for a in legal}
    cards = {a.card for a in legal if a.card is not None}
    hand = set(hand_of(game, seat))
    for start, asked in VERBS_ASKED.items():
        if ask.startswith(start):
            assert verbs <= asked and verbs, (ask, legal)
    if ask.startswith("follow "):
        name = ask.removeprefix("follow ").split(";")[0]
        assert cards and {suit_name(game, c) for c in cards} == {name}, (ask, legal)
    if "any card" in ask:
        assert verbs == {"play"} and cards == hand, (ask, legal)
    if "you must play red" in ask:
        assert {c.suit for c in cards} == {"R"}, (ask, legal)
    if ask.startswith("lead 🟩2"):
        assert [str(a) for a in legal] == ["play G2"]
    if ask.startswith("discard one card onto"):
        assert not cards & set(game.taken), (ask, legal)  # type: ignore[attr-defined]
    for waiting in range(game.players):
        line = game.rules_ask(waiting)
        if waiting != seat:
            assert not line.startswith(WAITING_STARTS) and ": play any" not in line \
                and "you must" not in line, line


@pytest.mark.parametrize("name", games.names())
def test_the_line_never_contradicts_the_legal_actions(name: str):
    cls = games.get(name)
    for players in sorted({cls.min_players, min(4, cls.max_players)}):
        game = games.new_game(name, players, seed=players)
        rng = random.Random(players)
        asked = set()
        while not game.over:
            check_ask(game)
            asked.add(game.rules_ask(game.to_act).split(" ")[0])
            game.apply(game.to_act, rng.choice(game.legal_actions()))
        assert all(game.rules_ask(p) == GAME_OVER for p in range(players))
        assert len(asked) >= 2  # more than one kind of decision was met and checked
