"""The custom-id scheme: every button names its table, so it works without in-memory views.

::

    ff:<table>:<lobby verb>            public lobby buttons: join leave cpu start cancel
    ff:<table>:cpu:<level>             add a computer of that level (the ephemeral chooser
                                       that ``cpu`` opens)
    ff:<table>:hand                    the public "Show my hand" button
    ff:<table>:hint                    a hand menu's Hint button (tables with hints on)
    ff:<table>:back                    Take my seat back (answer to a person whose seat a
                                       computer holds)
    ff:<table>:v:<details|rules>       the table's private views: Details, Rules
    ff:<table>:end:<again|record|same> the result message's Play again, Record, Same cards
    ff:<table>:watch                   the table message's Watch: a private view that follows
    ff:<table>:w:<refresh|stop>        a watcher's view: Refresh (brings it back after a
                                       restart too) and Stop watching
    ff:<table>:l:<join|watch>          Join or Watch a table from the /tables list
    ff:tables:<offset>                 turn the pages of the /tables list (the server comes
                                       from the interaction, never from the id)
    ff:rules:<game>:<section>          a section of a game's rules (ephemeral, any game)
    ff:<table>:c:<version>:<card>:<i>  a card in a hand menu (ephemeral; i keeps ids unique)
    ff:<table>:a:<version>:<action>    any other decision in a hand menu (spaces as "_")
    ff:<table>:p:<version>:<page>      turn the pages of a hand menu
    ff:<table>:r:<page>                a waiting hand menu's Refresh: the menu as it is now
    ff:lb:<game>:<offset>[:<season>]   turn the pages of a leaderboard, all time or of a
                                       season (YYYY-MM); the server comes from the
                                       interaction, never from the id

Public messages carry only the first two kinds, so no card is ever named in a
public custom id. Hand-menu ids carry the table's version: a click on an older
menu is refused with a fresh one.
"""

from __future__ import annotations

from games.levels import Level

LOBBY_VERBS = ("join", "leave", "cpu", "start", "cancel")
PREFIX = "ff"

TABLE = r"(?P<table>[A-Za-z0-9]{1,20})"
LOBBY_TEMPLATE = rf"ff:{TABLE}:(?P<verb>{'|'.join(LOBBY_VERBS)})"
HAND_TEMPLATE = rf"ff:{TABLE}:hand"
COMPUTER_LEVELS: dict[str, Level] = {
    level.value: level for level in (Level.HARD, Level.EASY)}
"""The levels the lobby's chooser offers, strongest first, by the word in their id."""
COMPUTER_TEMPLATE = rf"ff:{TABLE}:cpu:(?P<level>{'|'.join(COMPUTER_LEVELS)})"
HINT_TEMPLATE = rf"ff:{TABLE}:hint"
TAKE_BACK_TEMPLATE = rf"ff:{TABLE}:back"
TABLE_VIEWS = ("details", "rules")
TABLE_VIEW_TEMPLATE = rf"ff:{TABLE}:v:(?P<what>{'|'.join(TABLE_VIEWS)})"
END_VERBS = ("again", "record", "same")
END_TEMPLATE = rf"ff:{TABLE}:end:(?P<what>{'|'.join(END_VERBS)})"
WATCH_TEMPLATE = rf"ff:{TABLE}:watch"
WATCHING_VERBS = ("refresh", "stop")
WATCHING_TEMPLATE = rf"ff:{TABLE}:w:(?P<what>{'|'.join(WATCHING_VERBS)})"
LISTED_VERBS = ("join", "watch")
LISTED_TEMPLATE = rf"ff:{TABLE}:l:(?P<what>{'|'.join(LISTED_VERBS)})"
# Table ids are 10 hex digits, so "tables" (like "lb") can never be one.
TABLES_TEMPLATE = r"ff:tables:(?P<offset>\d{1,6})"
# Table ids are 10 hex digits, so "rules" (like "lb") can never be one.
RULES_TEMPLATE = r"ff:rules:(?P<game>[a-z]{1,20}):(?P<section>[a-z0-9]{1,20})"
VERSION = r"(?P<version>\d{1,9})"
CARD_TEMPLATE = rf"ff:{TABLE}:c:{VERSION}:(?P<card>[A-Za-z0-9+*#-]{{1,12}}):(?P<index>\d{{1,3}})"
ACTION_TEMPLATE = rf"ff:{TABLE}:a:{VERSION}:(?P<action>[A-Za-z0-9_+*#-]{{1,60}})"
PAGE_TEMPLATE = rf"ff:{TABLE}:p:{VERSION}:(?P<page>\d{{1,2}})"
REFRESH_TEMPLATE = rf"ff:{TABLE}:r:(?P<page>\d{{1,2}})"
# Table ids are 10 hex digits, so "lb" can never be one.
LEADERBOARD_TEMPLATE = (r"ff:lb:(?P<game>[a-z]{1,20}):(?P<offset>\d{1,6})"
                        r"(?::(?P<season>\d{4}-\d{2}))?")


def lobby_id(table: str, verb: str) -> str:
    return f"{PREFIX}:{table}:{verb}"


def hand_id(table: str) -> str:
    return f"{PREFIX}:{table}:hand"


def computer_id(table: str, level: str) -> str:
    return f"{PREFIX}:{table}:cpu:{level}"


def hint_id(table: str) -> str:
    return f"{PREFIX}:{table}:hint"


def take_back_id(table: str) -> str:
    return f"{PREFIX}:{table}:back"


def table_view_id(table: str, what: str) -> str:
    return f"{PREFIX}:{table}:v:{what}"


def end_id(table: str, what: str) -> str:
    return f"{PREFIX}:{table}:end:{what}"


def watch_id(table: str) -> str:
    return f"{PREFIX}:{table}:watch"


def watching_id(table: str, what: str) -> str:
    return f"{PREFIX}:{table}:w:{what}"


def listed_id(table: str, what: str) -> str:
    return f"{PREFIX}:{table}:l:{what}"


def tables_id(offset: int) -> str:
    return f"{PREFIX}:tables:{offset}"


def rules_id(game: str, section: str) -> str:
    return f"{PREFIX}:rules:{game}:{section}"


def card_id(table: str, version: int, card: str, index: int) -> str:
    return f"{PREFIX}:{table}:c:{version}:{card}:{index}"


def action_id(table: str, version: int, action: str) -> str:
    return f"{PREFIX}:{table}:a:{version}:{action.replace(' ', '_')}"


def page_id(table: str, version: int, page: int) -> str:
    return f"{PREFIX}:{table}:p:{version}:{page}"


def refresh_id(table: str, page: int) -> str:
    return f"{PREFIX}:{table}:r:{page}"


def leaderboard_id(game: str, offset: int, season: str | None = None) -> str:
    """A leaderboard page: all time (as every board was before seasons), or ``season``'s."""
    return f"{PREFIX}:lb:{game}:{offset}" + (f":{season}" if season else "")


def action_text(token: str) -> str:
    """The action written in an action id, back in record notation."""
    return token.replace("_", " ")
