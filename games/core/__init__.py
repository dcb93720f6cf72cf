"""The rules core shared by every game: cards, zones, actions, the game interface."""

from games.core.actions import STACK, Action, Grammar, Param, Verb
from games.core.cards import Card, Deck
from games.core.dealing import deal_round_robin
from games.core.errors import (
    FivefoldError,
    GameError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    SetupError,
    UnknownAction,
)
from games.core.events import Event
from games.core.game import Game, Options, View
from games.core.outcome import Outcome, best_of, places
from games.core.records import Record
from games.core.registry import get, names, new_game, register
from games.core.seats import clockwise_from, left_of, right_of
from games.core.tricks import distinct, must_follow, winning_play
from games.core.zones import Visibility, Zone, ZoneKind, ZoneView

__all__ = [
    "STACK",
    "Action",
    "Card",
    "Deck",
    "Event",
    "FivefoldError",
    "Game",
    "GameError",
    "GameOver",
    "Grammar",
    "IllegalAction",
    "NotYourTurn",
    "Options",
    "Outcome",
    "Param",
    "Record",
    "SetupError",
    "UnknownAction",
    "Verb",
    "View",
    "Visibility",
    "Zone",
    "ZoneKind",
    "ZoneView",
    "best_of",
    "clockwise_from",
    "deal_round_robin",
    "distinct",
    "get",
    "left_of",
    "must_follow",
    "names",
    "new_game",
    "places",
    "register",
    "right_of",
    "winning_play",
]
