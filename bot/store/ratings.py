"""The ratings maths, shared by every store: OpenSkill's Plackett-Luce on finished games.

Pure: no database. A store reads the players' stored ``(mu, sigma)``, asks
:func:`rate_game` for the new ones and writes them back in the transaction that
records the result.

A game is rated only when two or more distinct humans played it; the humans are
rated among themselves by place (tied places share a rank) and computer seats
are left out. (Whose a seat's result is was decided before it reached the store: a
person who made fewer than half of their seat's moves leaves it a computer's,
``bot.tables.results``.) Every human's ``games`` and ``wins`` counters move on every
finished game, including a human alone against computers, whose rating is left
untouched (a player who never had a rated game has no rating at all). A game
played with hints (``GameResult.rated`` False) is counted the same way but rates
nobody. The displayed rating is :func:`display_rating`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.models import ResultPlayer

RATING_BASE = 1000
"""The displayed rating of a new player (whose OpenSkill ordinal is 0)."""

RATING_SCALE = 40
"""Displayed points per unit of OpenSkill ordinal (a decisive first win is worth ~+130)."""

StoredRating = tuple[float | None, float | None]
"""A player's stored ``(mu, sigma)``; ``(None, None)`` until their first rated game."""

_MODEL = PlackettLuce()


def display_rating(mu: float, sigma: float) -> float:
    """The rating shown to players: the OpenSkill ordinal ``mu - 3 sigma``, scaled.

    The ordinal is a conservative estimate (the true skill is ~99.7% likely to
    be higher), so a new player shows 1000 and climbs as both their skill
    estimate rises and the uncertainty shrinks. Returned as a whole number.
    """
    return float(round(RATING_BASE + RATING_SCALE * (mu - 3.0 * sigma)))


@dataclass
class Standing:
    """One human's part in a finished game, merged if they somehow held two seats."""

    user_id: int
    place: int
    winner: bool


def humans(players: Iterable[ResultPlayer]) -> list[Standing]:
    """The distinct human players of a game with their best place, in seat order."""
    by_user: dict[int, Standing] = {}
    for player in sorted(players, key=lambda p: p.seat):
        if player.user_id is None:
            continue
        known = by_user.get(player.user_id)
        if known is None:
            by_user[player.user_id] = Standing(player.user_id, player.place, player.winner)
        else:
            known.place = min(known.place, player.place)
            known.winner = known.winner or player.winner
    return list(by_user.values())


def _rating(mu: float | None, sigma: float | None) -> PlackettLuceRating:
    """A stored rating, or the model's default for a player never rated."""
    if mu is None or sigma is None:
        return _MODEL.rating()
    return _MODEL.rating(mu=float(mu), sigma=float(sigma))


def rate_game(standings: list[Standing], stored: Mapping[int, StoredRating], *,
              rate: bool = True) -> dict[int, StoredRating]:
    """Every human's ``(mu, sigma)`` after the game, from their ``stored`` ones.

    With fewer than two humans, or without ``rate``, everyone keeps what they
    had (``(None, None)`` for someone never rated): the game is only counted.
    """
    new = {h.user_id: stored.get(h.user_id, (None, None)) for h in standings}
    if rate and len(standings) >= 2:
        teams = [[_rating(*new[h.user_id])] for h in standings]
        rated = _MODEL.rate(teams, ranks=[float(h.place) for h in standings])
        for human, team in zip(standings, rated, strict=True):
            new[human.user_id] = (team[0].mu, team[0].sigma)
    return new


__all__ = ["RATING_BASE", "RATING_SCALE", "Standing", "StoredRating", "display_rating",
           "humans", "rate_game"]
