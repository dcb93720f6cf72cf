"""What the Discord layer is given to render: data taken from the game, never it.

A :class:`MenuSnapshot` holds everything one seat's hand menu shows (their view, the public
view, their legal actions and the words for them, what the rules ask of them now), and a
:class:`TableSnapshot` what anyone may see of a table (the public table message, its
picture, ``Details``, the result message and the record), each taken by the table
service in one synchronous step. Every change to a table replaces
its game and its stored form together, so a snapshot always shows one version of it;
after a click the snapshot is taken under the table's lock, right after the click's own
change, and the public message's when its edit is rendered (the publisher coalesces a
burst of changes into one edit, so one snapshot). Renderers read the snapshot only, so
no Discord code touches a live game. A snapshot holds the game's immutable views as
they are, never copies of them.

A click on a menu asks for a :data:`Choice` (an action, or a :class:`CardChoice`) and is
answered with a :class:`Reply`: what it did, and the clicker's menu right after.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.models import TableStatus
from bot.tables.session import Session
from games.core.actions import Action
from games.core.cards import Card
from games.core.game import Game, View
from games.core.zones import Zone, ZoneKind, ZoneView, view_zone


@dataclass(frozen=True, eq=False)
class MenuSnapshot:
    """One seat's hand menu as the table stands at ``version``."""

    table_id: str
    game: str  # the game's name: card labels and pictures depend on it
    title: str
    seat: int
    version: int
    status: TableStatus
    hints: bool  # the table has the Hint button
    pictures: bool  # the menu carries a picture of the hand
    names: tuple[str, ...]  # every seat's name, by seat
    view: View  # what this seat may see
    public: View  # what everyone sees
    hand: tuple[Card, ...]  # the seat's hand, sorted as the game orders it
    face_up: tuple[Card, ...]  # the seat's own cards lying face up
    legal: tuple[Action, ...]
    labels: Mapping[Action, str]  # each legal action as its button says it
    card_names: Mapping[Card, str]  # each card shown, in words (for screen readers)
    ask: str  # what the rules ask of this seat now
    notes: tuple[str, ...]  # what matters in this seat's own cards (Game.hand_notes)
    tricks: int  # how many tricks are done (the menu follows the game by them)
    rounds: int  # how many rounds are done

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    @property
    def over(self) -> bool:
        return self.view.over

    @property
    def to_act(self) -> int | None:
        return self.view.to_act

    @property
    def my_turn(self) -> bool:
        """Whether this seat acts next in a game under way."""
        return self.is_open and not self.over and self.to_act == self.seat

    @property
    def waiting(self) -> bool:
        """Whether this seat waits for another in a game under way (``Refresh`` is offered)."""
        return self.is_open and not self.over and self.to_act != self.seat

    def label(self, action: Action) -> str:
        return self.labels.get(action, str(action))

    def card_name(self, card: Card) -> str:
        return self.card_names.get(card, card.text)

    @property
    def key(self) -> MenuKey:
        """What, when it changes, is worth editing this menu for (:func:`menu_key`)."""
        return _key(self.status, self.over, self.to_act == self.seat, self.legal,
                    self.hand + self.face_up, self.tricks, self.rounds)


def own_cards(game: Game[Any], seat: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The cards ``seat`` holds as that player sees them: the hand sorted as the game orders
    it (suit, then rank; Fumblaroo's trump first), then their own face-up cards: exactly
    the cards of the menu's buttons (a test replays whole games against it). Read from the
    zones the seat may see, without building its whole view."""
    return _sorted_own(game, _own_zones(game.zones(), seat))


def _own_zones(zones: Sequence[Zone], seat: int) -> list[Zone]:
    """Those of ``zones`` that ``seat`` owns and may see."""
    return [zone for zone in zones if zone.owner == seat and zone.visible_to(seat)]


def _sorted_own(game: Game[Any], own: Sequence[Zone]
                ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    held: list[Card] = []
    up: list[Card] = []
    for zone in own:
        if zone.kind is ZoneKind.HAND:
            held += zone.cards
        elif zone.kind is ZoneKind.FACE_UP:
            up += zone.cards
    return tuple(game.sorted_hand(held)), tuple(up)


def seat_view(session: Session, seat: int
              ) -> tuple[View, tuple[Card, ...], tuple[Card, ...]]:
    """What ``seat`` may see of ``session``'s game (equal to ``game.view_for(seat)``), with
    its own cards (:func:`own_cards`), in one walk of the zones.

    Made from the public view (:func:`public_view`), which the table and every menu share:
    a seat sees what everyone sees, and the cards of the zones it owns that are hidden
    from the others (its hand). Every other field of a view (phase, facts, scores, the
    trick) is the same for every viewer, so only those zones are made again.
    """
    game = session.game
    assert game is not None
    public = public_view(session)
    zones = _seen(session).zones  # the ones the public view was made from
    own = _own_zones(zones, seat)
    hand, up = _sorted_own(game, own)
    if not own:
        return _as_seen_by(public, seat, public.zones), hand, up
    mine = {id(zone) for zone in own}
    shown = tuple(view_zone(zone, seat) if id(zone) in mine else public_zone
                  for zone, public_zone in zip(zones, public.zones, strict=True))
    return _as_seen_by(public, seat, shown), hand, up


def _as_seen_by(public: View, seat: int, zones: tuple[ZoneView, ...]) -> View:
    """``public`` as ``seat`` sees it, with ``zones``: the same view but for the viewer and
    the zones (``dataclasses.replace`` without its walk of the fields, on every menu)."""
    return View(public.game, seat, public.players, public.to_act, public.over, public.winners,
                public.scores, public.phase, public.facts, zones, public.trick,
                public.seat_notes, public.teams)


MenuKey = tuple[object, ...]


def menu_key(session: Session, seat: int) -> MenuKey:
    """What, when it changes, is worth editing ``seat``'s kept menu for: the same as
    :attr:`MenuSnapshot.key` of :func:`menu_of`, read from the game at a fraction of the
    cost (no view, no words), so that a change at a table costs its waiting menus this
    comparison and not a snapshot each (its game must be started)."""
    game = session.game
    assert game is not None
    hand, up = _sorted_own(game, _own_zones(_seen(session).zones, seat))
    return _key(session.table.status, game.over, game.to_act == seat,
                game.legal_actions(seat), hand + up, len(game.tricks), len(game.rounds))


def _key(status: TableStatus, over: bool, my_turn: bool, legal: Sequence[Action],
         cards: tuple[Card, ...], tricks: int, rounds: int) -> MenuKey:
    return (status, over, my_turn, tuple(str(a) for a in legal),
            tuple(card.text for card in cards), tricks, rounds)


@dataclass(slots=True, eq=False)
class Seen:
    """What every reader of one state of a session's game shares, made once for it: the
    game's zones, and the public view made from them when first asked for.

    A game is never changed once it is the session's (each action is applied to a copy
    that then replaces it), so what is kept stays true for as long as that game is the
    session's; it is also made again if that game took an action in place, so it is
    never stale. The zones hold the game's own lists (:class:`Zone`), never copies."""

    game: Game[Any]
    actions: int  # how many actions the game had when this was made
    zones: tuple[Zone, ...]
    view: View | None = None


def _seen(session: Session) -> Seen:
    game = session.game
    assert game is not None
    kept = session.public
    if kept is None or kept.game is not game or kept.actions != len(game.history):
        kept = session.public = Seen(game, len(game.history), tuple(game.zones()))
    return kept


def public_view(session: Session) -> View:
    """What everyone may see of ``session``'s game (it must be started), made once per
    game state (:class:`Seen`): the table message and each seat's menu show the same one."""
    seen = _seen(session)
    if seen.view is None:
        seen.view = seen.game.view_for(None, seen.zones)
    return seen.view


def menu_of(session: Session, seat: int) -> MenuSnapshot:
    """``seat``'s menu at ``session`` as it is now (its game must be started)."""
    game = session.game
    assert game is not None
    view, hand, up = seat_view(session, seat)
    names = tuple(session.names())
    legal = tuple(game.legal_actions(seat))
    table = session.table
    return MenuSnapshot(
        table_id=table.id, game=table.game, title=game.title, seat=seat,
        version=table.version, status=table.status, hints=table.hints,
        pictures=table.pictures, names=names, view=view, public=public_view(session),
        hand=hand, face_up=up, legal=legal,
        labels={action: game.action_label(action, names) for action in legal},
        card_names={card: game.card_name(card) for card in hand + up},
        ask=game.rules_ask(seat), notes=tuple(game.hand_notes(seat)), tricks=len(game.tricks),
        rounds=len(game.rounds))


def menu_for(session: Session, user_id: int) -> MenuSnapshot | None:
    """The menu of the seat ``user_id`` holds at a started game; None if they hold none."""
    seat = session.seat_of(user_id)
    if seat is None or session.game is None:
        return None
    return menu_of(session, seat)


@dataclass(frozen=True, eq=False)
class TableSnapshot:
    """What anyone may see of a started (or finished, or ended) game, in full: the public
    table message and its picture, ``Details``, a watcher's view, the result message, the
    record. Built from the public view alone (``view_for(None)``): no hand, no hidden card,
    so the table message and a watcher's view can never show more than each other."""

    table_id: str
    game: str  # the game's name: card labels and pictures depend on it
    title: str
    status: TableStatus
    names: tuple[str, ...]  # every seat's name, by seat
    labels: tuple[str, ...]  # every seat as the table shows it (a computer's with its level)
    people: tuple[int | None, ...]  # the person at each seat (None: a computer plays it)
    deadline: datetime | None  # when the person to act times out, at a timed table
    pictures: bool  # the table message carries a picture of the table
    public: View  # what everyone sees
    places: tuple[int, ...] | None  # each seat's place, once the game is over
    rounds: tuple[tuple[int, ...], ...]  # each finished round's points, by seat
    log: tuple[str, ...]  # the table's recent events, oldest first
    card_names: Mapping[Card, str]  # each card lying open on the table, in words
    version: int  # the table's version when it was taken
    watching: int  # how many people watch the game now (0 once it is over)
    private: bool  # a table nobody else may watch (a daily deal)
    record: dict[str, Any] | None  # every deal and move: only once finished with a result

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    @property
    def playing(self) -> bool:
        """Whether the game is under way (not over, not ended): a turn marker means something."""
        return not self.public.over and self.status is TableStatus.PLAYING

    def card_name(self, card: Card) -> str:
        return self.card_names.get(card, card.text)


def table_card_names(game: Game[Any], view: View) -> dict[Card, str]:
    """The cards lying open on the table, named by ``game``: the trick, the trick and
    face-up zones, each pile's top card (what the table's picture shows, and no more: a
    long discard pile is not named at every edit)."""
    shown = [card for _, card in view.trick]
    for zone in view.zones:
        if zone.cards and zone.kind in (ZoneKind.TRICK, ZoneKind.FACE_UP):
            shown.extend(zone.cards)
        elif zone.kind is ZoneKind.PILE and zone.top is not None:
            shown.append(zone.top)
    return {card: game.card_name(card) for card in shown}


def table_of(session: Session) -> TableSnapshot:
    """``session``'s game as anyone may see it now (its game must be started)."""
    game = session.game
    assert game is not None
    table = session.table
    public = public_view(session)
    final = table.status is TableStatus.FINISHED and public.over
    return TableSnapshot(
        table_id=table.id, game=table.game, title=game.title, status=table.status,
        names=tuple(session.names()), labels=tuple(seat.label for seat in table.seats),
        people=tuple(seat.user_id for seat in table.seats), deadline=table.deadline,
        pictures=table.pictures, public=public,
        places=game.outcome.places if game.outcome is not None else None,
        rounds=tuple(tuple(points) for points in game.rounds), log=tuple(session.recent),
        card_names=table_card_names(game, public), record=table.record if final else None,
        version=table.version, watching=len(session.watchers) if session.in_play else 0,
        private=table.private)


def table_for(session: Session) -> TableSnapshot | None:
    """``session``'s game as anyone may see it now; None before it has started."""
    return table_of(session) if session.game is not None else None


@dataclass(frozen=True, slots=True)
class CardChoice:
    """A card a person chose in their hand menu: which action it means is the rules' to say."""

    text: str


Choice = Action | str | CardChoice
"""What a click asks for: an action (or its record notation), or a card."""


@dataclass(frozen=True, eq=False)
class Reply:
    """What a request at a running table did, and the asker's menu right after it."""

    menu: MenuSnapshot
    words: tuple[str, ...] = ()  # what happened, in words (an action's events, a hint)
    focus: Card | None = None  # a card with several actions: the menu asks where it goes


__all__ = ["CardChoice", "Choice", "MenuKey", "MenuSnapshot", "Reply", "Seen", "TableSnapshot",
           "menu_for", "menu_key", "menu_of", "own_cards", "seat_view", "table_for", "table_of"]
