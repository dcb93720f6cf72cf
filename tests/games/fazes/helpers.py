"""Stacked Fazes deals and small helpers for tests."""

from __future__ import annotations

from typing import Any

from games.fazes import Fazes

# Four players, one colour each: seat 1 holds every green (and so G2).
COLOUR_HANDS_4P = [" ".join(f"{c}{r}" for r in range(2, 15)) for c in "RGYB"]

# Eight players (B2 B3 G3 B4 out of play), built to show following and trumping.
MIXED_8P = [
    "G2 G4 Y2 Y3 B5 B6",
    "G5 G14 R2 R3 Y4 B7",
    "R4 R5 Y5 Y6 B8 B9",
    "Y7 Y8 B10 B11 Y9 B12",
    "R6 R14 G6 G7 Y10 Y11",
    "R7 R8 G8 G9 Y12 B13",
    "R9 R10 R11 G10 G11 Y13",
    "R12 R13 G12 G13 Y14 B14",
]

# The eight-player deal of the shared vector hb_8p_faze6_madness_scoring.
MADNESS_8P = [
    "G2 Y3 R4 B8 B12 Y11",
    "G4 Y4 R5 B9 Y9 Y12",
    "G5 Y5 R6 B10 Y10 R10",
    "G6 Y6 R7 B11 B13 R11",
    "G7 Y7 R8 R9 G11 R12",
    "G8 Y8 R13 B5 G12 R14",
    "G9 Y13 R2 B6 G13 B14",
    "G10 Y2 R3 B7 G14 Y14",
]
# Its play with red trump (fazes 1 and 6), trick by trick: winners 7 6 5 4 3 5.
MADNESS_TRUMP_PLAY = [
    "G2 G4 G5 G6 G7 G8 G9 G10",  # P0 leads; P7 wins with G10
    "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y13",  # P7 leads; P6 wins with Y13
    "R2 R3 R4 R5 R6 R7 R8 R13",  # P6 leads; P5 wins with R13
    "B5 B6 B7 B8 B9 B10 B11 R9",  # P5 leads; P4, void in black, trumps: R9 wins
    "G11 G12 G13 G14 B12 Y9 R10 R11",  # P4 leads; P2 R10 and P3 R11 trump: R11 wins
    "B13 R12 R14 B14 Y14 Y11 Y12 Y10",  # P3 leads; P4 R12 and P5 R14 trump: R14 wins
]
# The same deal played without trump (fazes 2-5): winners 7 6 5 3 5 7.
MADNESS_PLAIN_PLAY = [
    "G2 G4 G5 G6 G7 G8 G9 G10",  # P7 wins with G10
    "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y13",  # P6 wins with Y13
    "R2 R3 R4 R5 R6 R7 R8 R13",  # P5 wins with R13
    "B5 B6 B7 B8 B9 B10 B11 R9",  # P4's R9 is no trump: B11 (P3) wins
    "R11 R12 R14 B14 Y14 Y11 Y9 R10",  # P3 leads R11; P5 wins with R14
    "G12 G13 G14 B12 Y12 Y10 B13 G11",  # P5 leads G12; P7 wins with G14 (the last trick)
]


def deal(hands: list[str]) -> dict[str, Any]:
    """A deal object with these hands (space-separated cards)."""
    return {"hands": [h.split() for h in hands]}


def game(hands: list[str], *fazes: int, dealer: int = 0, seed: int | None = 1) -> Fazes:
    """A game of ``fazes`` (default all six), each dealt ``hands``."""
    options = {"fazes": list(fazes)} if fazes else {}
    count = len(fazes) if fazes else 6
    g = Fazes.new(len(hands), options, seed=seed, dealer=dealer,
                  deals=[deal(hands)] * count)
    return g


def play(g: Fazes, *tricks: str) -> None:
    """Each player to act plays the next card, in turn order (cards space-separated)."""
    for card in " ".join(tricks).split():
        assert g.to_act is not None
        g.apply(g.to_act, f"play {card}")


def legal(g: Fazes) -> set[str]:
    """The legal actions of the player to act, as text."""
    return {str(a) for a in g.legal_actions()}


def play_first_legal(g: Fazes, actions: int | None = None) -> None:
    """Play the first legal action ``actions`` times (default: to the end of the game)."""
    done = 0
    while not g.over and (actions is None or done < actions):
        assert g.to_act is not None
        g.apply(g.to_act, g.legal_actions()[0])
        done += 1
