"""Fazes' rules of thumb, on the fast path's integer cards (``games.fazes.computer.bits``).

What a decent casual player does, faze by faze. Points are bad, so in every faze but
the fifth: duck under the winning card when you can (slipping a point card under it),
win only when you must and then with your highest card if nobody can overtake you,
dump the most dangerous card when you cannot follow, and lead low from a colour that
carries no points. In fazes 5 and 6 the last trick is worth -50, so keep high cards
and go for it at the end; in faze 5 nothing else counts.

The easy computer player and the search's rollouts both play :func:`choose`; it reads
only what the seat to act may see: its hand, the trick on the table, the faze and how
many tricks are left.

>>> from games.fazes.computer.bits import CARDS, GREEN, INDEX, mask_of
>>> from games.fazes.cards import FULL_DECK
>>> hand = mask_of(FULL_DECK.parse(t) for t in ("G5", "G9", "G13", "B7"))
>>> card, why = choose(hand, faze=3, led=GREEN, win=INDEX[FULL_DECK.parse("G10")],
...                    win_trump=False, played=1, players=4, tricks_left=9)
>>> REASONS[why], CARDS[card].text
('it stays under the winning card', 'G9')
"""

from __future__ import annotations

from games.fazes.computer.bits import (
    COLOUR_OF,
    G2,
    POINT_MASK,
    RED,
    SEGMENT,
    SHIFT,
    colour_mask,
)
from games.fazes.scoring import LAST_TRICK_FAZES, TRUMP_FAZES

LAST_TRICK_ONLY = 5  # the faze where only the last trick counts

# Why a card was chosen (indexes into REASONS).
(OPENS, LEADS_LOW, LEADS_HIGH, DUCKS, SLIPS_POINTS, WINS_HIGH, PLAYS_LOW, FOLLOWS_HIGH,
 DUMPS_POINTS, DUMPS_HIGH, DUMPS_LOW, TRUMPS_UNDER, TRUMPS_HIGH, TRUMPS_LOW, GOES_FOR_LAST,
 KEEPS_HIGH, ONLY) = range(17)
REASONS: tuple[str, ...] = (  # said to the player, after the move: "Lead 🟩2: ..."
    "you hold the green 2, so you must open the faze with it",
    "a low lead leaves the trick to another player",
    "a high lead keeps you in front for the last trick",
    "it stays under the winning card",
    "you slip a point card under the winning card",
    "you win this trick anyway, so away with your highest card",
    "a later player may still overtake it",
    "the trick is trumped, so away with your highest card",
    "you cannot follow, so away with a point card",
    "you cannot follow, so away with your highest card",
    "you cannot follow, and you keep your high cards for the last trick",
    "it stays under the higher red",
    "you win this trick anyway, so you trump with your highest red",
    "a later red may still overtake it",
    "you go for the last trick (-50)",
    "you keep your high cards for the last trick",
    "it is the only card you may play",
)


def legal_mask(hand: int, led: int, *, trump: bool, opening: bool) -> int:
    """The cards of ``hand`` that may be played (``led`` -1: leading; ``opening``: G2)."""
    if led < 0:
        return 1 << G2 if opening else hand
    same = hand & (SEGMENT << SHIFT[led])
    if same:
        return same
    if trump and hand & SEGMENT:
        return hand & SEGMENT
    return hand


def _top(mask: int) -> int:
    """The highest card of a mask of one colour."""
    return mask.bit_length() - 1


def _bottom(mask: int) -> int:
    """The lowest card of a mask of one colour."""
    return (mask & -mask).bit_length() - 1


def _by_rank(mask: int, hand: int, *, high: bool) -> int:
    """The highest (or lowest) ranked card of ``mask`` over every colour; on equal rank,
    the one from the colour ``hand`` holds fewest of (to get void sooner)."""
    best = -1
    best_key = (0, 0)
    for colour in range(4):
        seg = (mask >> SHIFT[colour]) & SEGMENT
        if not seg:
            continue
        rank = _top(seg) if high else _bottom(seg)
        length = ((hand >> SHIFT[colour]) & SEGMENT).bit_count()
        key = (rank if high else -rank, -length)
        if best < 0 or key > best_key:
            best, best_key = rank + SHIFT[colour], key
    return best


def choose(
    hand: int,
    *,
    faze: int,
    led: int,
    win: int,
    win_trump: bool,
    played: int,
    players: int,
    tricks_left: int,
    opening: bool = False,
) -> tuple[int, int]:
    """The rule-of-thumb card for ``hand`` and the reason (an index into :data:`REASONS`).

    ``led`` is the led colour (-1 when leading), ``win`` the card winning the trick so
    far, ``win_trump`` whether it is a red trump, ``played`` the cards already in the
    trick and ``tricks_left`` the tricks still to finish, this one included.
    """
    trump = faze in TRUMP_FAZES
    legal = legal_mask(hand, led, trump=trump, opening=opening)
    if legal & (legal - 1) == 0:
        return _top(legal), OPENS if opening else ONLY
    chase_last = faze in LAST_TRICK_FAZES and tricks_left <= (2 if faze == LAST_TRICK_ONLY else 1)
    if led < 0:
        return _lead(hand, legal, faze, chase_last)
    if chase_last:
        return _by_rank(legal, hand, high=True), GOES_FOR_LAST
    last = played == players - 1
    if legal & colour_mask(led):
        return _follow(legal, faze, led, win, last)
    if trump and led != RED and legal & SEGMENT:
        return _trump(legal, win, win_trump, last)
    return _discard(legal, hand, faze)


def _lead(hand: int, legal: int, faze: int, chase_last: bool) -> tuple[int, int]:
    if chase_last:
        return _by_rank(legal, hand, high=True), LEADS_HIGH
    safe = legal & ~POINT_MASK[faze]
    if faze in TRUMP_FAZES and safe & ~SEGMENT:
        safe &= ~SEGMENT  # leading red hands the trick to whoever holds the higher red
    return _by_rank(safe or legal, hand, high=False), LEADS_LOW


def _follow(legal: int, faze: int, led: int, win: int, last: bool) -> tuple[int, int]:
    if faze == LAST_TRICK_ONLY:
        return _bottom(legal), KEEPS_HIGH
    if COLOUR_OF[win] != led:  # a red trump is winning: no card of this colour can win
        return _top(legal), FOLLOWS_HIGH
    under = legal & ((1 << win) - 1)
    if under:
        points = under & POINT_MASK[faze]
        if points:
            return _top(points), SLIPS_POINTS
        return _top(under), DUCKS
    if last:
        return _top(legal), WINS_HIGH
    return _bottom(legal), PLAYS_LOW


def _trump(legal: int, win: int, win_trump: bool, last: bool) -> tuple[int, int]:
    reds = legal & SEGMENT
    if win_trump:
        under = reds & ((1 << win) - 1)
        if under:
            return _top(under), TRUMPS_UNDER
    if last:
        return _top(reds), TRUMPS_HIGH
    return _bottom(reds), TRUMPS_LOW


def _discard(legal: int, hand: int, faze: int) -> tuple[int, int]:
    if faze == LAST_TRICK_ONLY:
        return _by_rank(legal, hand, high=False), DUMPS_LOW
    points = legal & POINT_MASK[faze]
    if points:
        return _by_rank(points, hand, high=True), DUMPS_POINTS
    return _by_rank(legal, hand, high=True), DUMPS_HIGH


__all__ = ["REASONS", "choose", "legal_mask"]
