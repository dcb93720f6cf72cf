"""Fazes' computer players: legal choices, no peeking, consistent worlds, finite games."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from games.core.errors import IllegalAction
from games.core.registry import new_game
from games.fazes import Fazes
from games.fazes.cards import FULL_DECK, hand_size
from games.fazes.computer.bits import CARDS, COLOUR_OF, INDEX, mask_of
from games.fazes.computer.fast import FastFazes
from games.fazes.computer.knowledge import KNOWLEDGE, seen
from games.fazes.computer.thumb import (
    DUCKS,
    DUMPS_POINTS,
    GOES_FOR_LAST,
    KEEPS_HIGH,
    LEADS_LOW,
    SLIPS_POINTS,
    TRUMPS_UNDER,
    WINS_HIGH,
    choose,
)
from games.fazes.tricks import trick_winner
from games.players import decide, knowledge_for, perspective
from games.players.base import Perspective
from games.players.hard import HardPlayer

PLAYERS = range(3, 9)
SMALL_BUDGET = 500


def new(players: int, options: dict[str, Any] | None = None, seed: int = 0) -> Fazes:
    g = Fazes.new(players, options, seed=seed)
    return g


def choice(level: str, p: Perspective, rng: random.Random):
    if level == "hard":
        return HardPlayer(budget=SMALL_BUDGET).decide(p, rng)
    return decide(level, p, rng)


def play_levels(g: Fazes, levels: list[str], seed: int, *, stop: int | None = None) -> int:
    """Play ``g`` with a computer of ``levels[seat]`` in each seat; the actions played.

    Every choice must be one of the seat's legal actions, with a reason for the hint.
    """
    rng = random.Random(seed)
    count = 0
    while not g.over and (stop is None or count < stop):
        seat = g.to_act
        assert seat is not None
        p = perspective(g, seat)
        d = choice(levels[seat], p, rng)
        assert d.action in g.legal_actions(seat)
        assert d.reason
        g.apply(seat, d.action)
        count += 1
    return count


def cards(text: str) -> int:
    return mask_of(FULL_DECK.parse(t) for t in text.split())


def card(text: str) -> int:
    return INDEX[FULL_DECK.parse(text)]


# --- every level plays legally and every game ends ----------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_mixed_levels_choose_only_legal_actions_through_all_six_fazes(players):
    levels = [("random", "easy", "hard")[s % 3] for s in range(players)]
    g = new(players, seed=players)
    played = play_levels(g, levels, players)
    assert g.over and played == 6 * players * hand_size(players)


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_games_between_computers_of_one_level_end(level):
    g = new(5, {"fazes": [6, 5, 6]}, seed=3)
    assert play_levels(g, [level] * 5, 3) == 3 * 50
    assert g.over and g.winners


# --- the rules of thumb -------------------------------------------------------------


def thumb(hand: str, faze: int, trick: str = "", *, players: int = 4, left: int = 8):
    """The easy rule's card (as text) and reason for ``hand`` facing ``trick``."""
    plays = [(seat, FULL_DECK.parse(t)) for seat, t in enumerate(trick.split())]
    trump = faze in (1, 6)
    led = COLOUR_OF[INDEX[plays[0][1]]] if plays else -1
    win = INDEX[plays[trick_winner(plays, trump=trump)][1]] if plays else -1
    chosen, why = choose(cards(hand), faze=faze, led=led, win=win,
                         win_trump=win >= 0 and trump and COLOUR_OF[win] == 0,
                         played=len(plays), players=players, tricks_left=left)
    return CARDS[chosen].text, why


def test_easy_ducks_under_the_winning_card_with_its_highest_card_that_loses():
    assert thumb("G5 G9 G13 B7", 2, "G10") == ("G9", DUCKS)


def test_easy_slips_a_point_card_under_the_winning_card():
    assert thumb("Y4 Y9 Y13", 3, "Y10 Y12") == ("Y9", SLIPS_POINTS)
    assert thumb("B5 B13 B11", 4, "B14") == ("B13", SLIPS_POINTS)


def test_easy_takes_a_trick_it_must_win_with_its_highest_card_when_last():
    assert thumb("G11 G12 G13", 2, "G2 G4 G9") == ("G13", WINS_HIGH)


def test_easy_dumps_a_point_card_when_void():
    assert thumb("Y4 Y12 B3", 3, "G9") == ("Y12", DUMPS_POINTS)
    assert thumb("R13 B13 B2", 4, "G9") in {("R13", DUMPS_POINTS), ("B13", DUMPS_POINTS)}


def test_easy_trumps_under_a_higher_red_when_void():
    assert thumb("R5 R9 R14 B3", 1, "G9 R11") == ("R9", TRUMPS_UNDER)


def test_easy_leads_low_from_a_colour_without_points():
    assert thumb("Y2 G7 B4 B12", 3) == ("B4", LEADS_LOW)


def test_easy_keeps_high_cards_in_faze_5_and_goes_for_the_last_trick():
    assert thumb("G4 G12", 5, "G9", left=6) == ("G4", KEEPS_HIGH)
    assert thumb("G4 G12", 5, "G9", left=2) == ("G12", GOES_FOR_LAST)


def test_easy_beats_random_players_over_a_few_single_faze_games():
    """Seeded, so the result is fixed; easy's mean faze points must be the lowest."""
    totals = {"easy": 0, "random": 0}
    for seed in range(24):
        g = new(4, {"fazes": [1 + seed % 6]}, seed)
        levels = ["easy" if s % 2 == seed % 2 else "random" for s in range(4)]
        play_levels(g, levels, seed)
        for s in range(4):
            totals[levels[s]] += g.scores[s]
    assert totals["easy"] < totals["random"]


# --- no peeking ---------------------------------------------------------------------


def swapped_twin(g: Fazes, a: int, b: int, ca: str, cb: str) -> Fazes | None:
    """``g`` replayed with unseen ``ca`` (in hand ``a``) and ``cb`` (hand ``b``) swapped
    in the current faze's deal, or ``None`` when its history would not be legal."""
    record = g.record().model_dump()
    deals = [dict(hands=[list(h) for h in d["hands"]]) for d in record["deals"]]
    hands = deals[-1]["hands"]
    hands[a][hands[a].index(ca)], hands[b][hands[b].index(cb)] = cb, ca
    twin = Fazes.new(g.players, record["options"], seed=record["seed"],
                     dealer=record["dealer"], deals=deals)
    try:
        for entry in record["actions"]:
            seat, action = entry.split(" ", 1)
            twin.apply(int(seat), action)
    except IllegalAction:
        return None
    return twin


@pytest.mark.parametrize("players", [3, 4, 6])
def test_cards_the_seat_has_not_seen_change_neither_easy_nor_hard(players):
    compared = 0
    for seed in range(12):
        g = new(players, {"fazes": [1 + seed % 6]}, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(players, 3 * players)):
            assert g.to_act is not None
            g.apply(g.to_act, rng.choice(g.legal_actions()))
        me = g.to_act
        assert me is not None
        a, b = [(me + 1) % players, (me + 2) % players]
        ca, cb = rng.choice(g.hands[a]).text, rng.choice(g.hands[b]).text
        twin = swapped_twin(g, a, b, ca, cb)
        if twin is None:
            continue
        assert [str(c) for c in g.hands[a]] != [str(c) for c in twin.hands[a]]
        p, q = perspective(g, me), perspective(twin, me)
        assert p == q
        for level in ("easy", "hard"):
            assert choice(level, p, random.Random(1)) == choice(level, q, random.Random(1))
        compared += 1
    assert compared >= 4


def test_redaction_hides_nothing_because_every_card_is_played_face_up():
    g = new(4, seed=8)
    play_levels(g, ["random"] * 4, 8, stop=30)
    know = knowledge_for("fazes")
    assert know is KNOWLEDGE
    p = perspective(g, 2)
    assert list(p.history) == g.history
    assert all(KNOWLEDGE.redact(2, int(e[0]), e[2:]) == e[2:] for e in g.history)
    # What the seat may not see, it is not given: other hands show only their sizes.
    for q in range(4):
        zone = p.view.zone(f"hand:{q}")
        assert (zone.cards is None) == (q != 2) and zone.count == len(g.hands[q])
    text = repr(pickle.loads(pickle.dumps(p)))
    hidden = {c.text for q in (0, 1, 3) for c in g.hands[q]}
    assert not any(f"Card('{t}')" in text for t in hidden)


# --- sampled worlds -----------------------------------------------------------------


def mid_faze_perspectives(players: int, faze: int, seeds: range) -> list[tuple[Fazes, Perspective]]:
    out = []
    for seed in seeds:
        g = new(players, {"fazes": [faze]}, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, players * hand_size(players) - 1)):
            assert g.to_act is not None
            g.apply(g.to_act, rng.choice(g.legal_actions()))
        assert g.to_act is not None
        out.append((g, perspective(g, g.to_act)))
    return out


def voids_from_history(g: Fazes) -> list[set[str]]:
    """The colours each seat has shown it lacks this faze (checked against the real game)."""
    void: list[set[str]] = [set() for _ in range(g.players)]
    plays = [(int(e.split()[0]), FULL_DECK.parse(e.split()[2])) for e in g.history]
    for start in range(0, len(plays), g.players):
        led = plays[start][1].suit
        for seat, c in plays[start + 1:start + g.players]:
            if c.suit != led:
                void[seat].add(led)
                if g.trump and c.suit != "R":
                    void[seat].add("R")
    return void


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("faze", [1, 3, 6])
def test_sampled_worlds_agree_with_everything_the_seat_has_seen(players, faze):
    for g, p in mid_faze_perspectives(players, faze, range(4)):
        me = p.seat
        void = voids_from_history(g)
        for q in range(players):  # the real game honours the inferred voids
            assert not any(c.suit in void[q] for c in g.hands[q])
        worlds = set()
        for r in range(6):
            w = KNOWLEDGE.sample(p, random.Random(r))
            hands = w.hands
            trick = [(s, INDEX[c]) for s, c in g.plays]
            trick_cards = mask_of(c for _, c in g.plays)
            assert hands[me] == mask_of(g.hands[me])
            held = list(hands)  # the trick's cards are on the table, out of the hands
            for q in range(players):
                assert held[q].bit_count() == len(g.hands[q])
                assert not any(CARDS[c].suit in void[q] for c in range(52) if held[q] >> c & 1)
            assert sum(h.bit_count() for h in held) == mask_of_all(held).bit_count()
            taken = mask_of(c for t in g.taken for c in t)
            assert mask_of_all(held) | taken | trick_cards == mask_of(g.deck)
            assert not (mask_of_all(held) & (taken | trick_cards))
            assert (w.to_act(), w.pts, w.tricks_left) == (
                g.to_act, g.points_taken(), g.hand_size - g.faze_tricks)
            assert {w.action(m) for m in w.moves()} == set(g.legal_actions())
            assert replays_the_faze(g, w, trick)
            worlds.add(tuple(hands))
        if sum(len(g.hands[q]) for q in range(players) if q != me) > 2:
            assert len(worlds) > 1, "different generators must give different worlds"
        assert KNOWLEDGE.sample(p, random.Random(3)).hands == (
            KNOWLEDGE.sample(p, random.Random(3)).hands)


def mask_of_all(hands: list[int]) -> int:
    out = 0
    for h in hands:
        out |= h
    return out


def replays_the_faze(g: Fazes, w: FastFazes, trick: list[tuple[int, int]]) -> bool:
    """Give back to each seat of world ``w`` the cards it played this faze, and replay the
    public history on the fast path: every play must be legal, and it must end at ``w``."""
    n = g.players
    hands = list(w.hands)
    for s, c in trick:
        hands[s] &= ~(1 << c)
    plays = [(int(e.split()[0]), INDEX[FULL_DECK.parse(e.split()[2])]) for e in g.history]
    for s, c in plays:
        hands[s] |= 1 << c
    start = FastFazes.start(n, g.faze, hands, leader=plays[0][0] if plays else g.leader,
                            tricks_left=g.hand_size)
    for s, c in plays:
        if start.to_act() != s or c not in start.moves():
            return False
        start.play(c)
    return start.hands == w.hands and start.pts == w.pts and start.to_act() == w.to_act()


def test_equal_perspectives_give_equal_worlds_and_choices():
    (g, p), = mid_faze_perspectives(5, 6, range(7, 8))
    q = perspective(g, p.seat)
    assert p == q and p is not q
    world_p, world_q = (KNOWLEDGE.sample(x, random.Random(9)) for x in (p, q))
    assert world_p.hands == world_q.hands
    hard = HardPlayer(budget=SMALL_BUDGET)
    assert hard.decide(p, random.Random(2)) == hard.decide(q, random.Random(2))


def test_a_seat_void_in_every_colour_but_one_is_dealt_only_that_colour():
    """A stacked faze-2 deal: after the opening trick seats 0, 2 and 3 are known void in
    green; the unseen greens must all go to seat 1, who holds them all."""
    hands = ["R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14",
             "G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12 G13 G14",
             "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y14",
             "B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B14"]
    g = new_game("fazes", 4, {"fazes": [2]}, seed=1, dealer=0,
                 deals=[{"hands": [h.split() for h in hands]}])
    for t in ("G2", "Y2", "B2", "R2"):
        g.apply(g.to_act, f"play {t}")  # type: ignore[arg-type]
    p = perspective(g, 3)
    s = seen(p)
    assert s.colours[1] == 0b1111 and all(s.colours[q] & 0b0100 == 0 for q in (0, 2))
    for r in range(20):
        w = KNOWLEDGE.sample(p, random.Random(r))
        assert w.hands[1] == cards(" ".join(f"G{n}" for n in range(3, 15)))


def test_a_seat_that_neither_follows_nor_trumps_is_dealt_no_red():
    """Faze 1: seat 2 answers the green lead with a yellow, so it holds no green and no
    red (red is trump); seat 3 (every other red) must be the one dealt the unseen reds."""
    hands = ["R2 R3 R4 R5 R6 R7 R8 B2 B3 B4 B5 B6 B7",
             "G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12 G13 G14",
             "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y14",
             "R9 R10 R11 R12 R13 R14 B8 B9 B10 B11 B12 B13 B14"]
    g = new_game("fazes", 4, {"fazes": [1]}, seed=1, dealer=0,
                 deals=[{"hands": [h.split() for h in hands]}])
    for t in ("G2", "Y2", "R9", "R2"):
        g.apply(g.to_act, f"play {t}")  # type: ignore[arg-type]
    p = perspective(g, 1)  # seat 3 leads next; seat 1 sees only its greens
    s = seen(p)
    assert s.colours[2] == 0b1010  # yellow and black only
    reds = cards("R3 R4 R5 R6 R7 R8 R10 R11 R12 R13 R14")
    for r in range(20):
        w = KNOWLEDGE.sample(p, random.Random(r))
        assert w.hands[2] & reds == 0
        assert (w.hands[0] | w.hands[3]) & reds == reds


def test_hints_explain_legal_cards_and_say_nothing_of_illegal_ones():
    g = new_game("fazes", 4, {"fazes": [3]}, seed=2)
    for _ in range(5):
        g.apply(g.to_act, g.legal_actions()[0])  # type: ignore[arg-type]
    p = perspective(g, g.to_act)  # type: ignore[arg-type]
    easy = KNOWLEDGE.easy(p, random.Random(0))
    assert KNOWLEDGE.why(p, easy.action) == easy.reason
    assert all(KNOWLEDGE.why(p, a) for a in p.legal)
    held = {c.text for c in g.hands[p.seat]}
    not_legal = [a for a in (g.parse(f"play {c}") for c in held) if a not in p.legal]
    assert not_legal and all(KNOWLEDGE.why(p, a) == "" for a in not_legal)


def test_a_finished_game_has_no_world_to_sample():
    g = new(3, {"fazes": [2]}, seed=1)
    play_levels(g, ["random"] * 3, 1)
    p = perspective(g, 0)
    with pytest.raises(ValueError, match="the game is over"):
        KNOWLEDGE.sample(p, random.Random(0))
    with pytest.raises(ValueError, match="no legal action"):
        decide("easy", p, random.Random(0))
