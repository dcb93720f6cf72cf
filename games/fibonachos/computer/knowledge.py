"""What Fibonachos teaches its computer players: rules of thumb, hints, and worlds.

Every play in Fibonachos is public, so nothing in the history needs redacting. What a
seat cannot see: the other hands, the cards set aside, the order of the Spicy deck, and
with two players both private decks (dealt face down: their owner knows only how many
cards are left, whatever the zone says). What play reveals: a player who did not follow
the lead suit held none of it. With three to five players nobody draws, so that player
still holds none; with two, they may have drawn some since, at most one per draw.

>>> import random, games
>>> from games.players import perspective
>>> game = games.new_game("fibonachos", 4, seed=3)
>>> p = perspective(game, game.to_act)
>>> KNOWLEDGE.easy(p, random.Random(0)).reason
'a low lead leaves the prize to the others'
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core.actions import Action
from games.core.cards import Card
from games.core.game import Game
from games.fibonachos.cards import NACHO_DECK, SPICY_DECK
from games.fibonachos.computer.bits import CARD, CARD_ID, SUIT, add_card, card_id, hand_mask
from games.fibonachos.computer.fast import FibonachosState
from games.fibonachos.computer.thumb import Intent, choose, intent, wins_so_far
from games.fibonachos.deal import TWO_PLAYER_DECK
from games.fibonachos.game import PLAY, TWO_PLAYER_TRICK, TWO_PLAYER_TRICKS, Fibonachos
from games.players.base import Decision, Perspective, register_knowledge
from games.players.constrained_deal import constrained_deal

#: How often the easy level forgets that two Fibonachos make trumps.
FORGETS_TRUMP = 0.2
#: The hard level's budget (simulated moves per decision).
BUDGET = 20_000

_SUITS = 3
_GROUPS = tuple(SUIT)


def trick_size(players: int) -> int:
    return TWO_PLAYER_TRICK if players == 2 else players


def tricks_per_round(players: int) -> int:
    return TWO_PLAYER_TRICKS if players == 2 else len(NACHO_DECK) // players


def round_plays(p: Perspective) -> list[tuple[int, Card]]:
    """The plays of the current round, (seat, card) in order, from the history."""
    played = p.view.zone("played").count + len(p.view.trick)
    plays = []
    for entry in p.history[len(p.history) - played:] if played else ():
        seat, _, card = entry.split(" ")
        plays.append((int(seat), NACHO_DECK.parse(card)))
    return plays


def suit_caps(players: int, plays: list[tuple[int, Card]]) -> list[list[int]]:
    """For each seat and suit, how many cards of it the seat can hold now, by the voids
    play revealed (the deck's size where nothing is known).

    A seat that did not follow held none of the lead suit; since then it can have drawn
    at most one card per play (two players, while its deck lasts), and any card of that
    suit it played since came from those draws too.
    """
    caps = [[len(NACHO_DECK)] * _SUITS for _ in range(players)]
    size = trick_size(players)
    draws = TWO_PLAYER_DECK if players == 2 else 0
    for i, (seat, card) in enumerate(plays):
        lead = plays[i - i % size][1]
        if i % size == 0 or card.suit == lead.suit:
            continue
        before = sum(1 for s, _ in plays[:i] if s == seat)
        since = sum(1 for s, _ in plays[i:] if s == seat)
        drawn = max(0, min(before + since, draws) - before)
        played = sum(1 for s, c in plays[i + 1:] if s == seat and c.suit == lead.suit)
        suit = SUIT[card_id(lead)]
        caps[seat][suit] = min(caps[seat][suit], drawn - played)
    return caps


class FibonachosKnowledge:
    """Fibonachos' :class:`~games.players.base.Knowledge`."""

    game = "fibonachos"

    def redact(self, seat: int, actor: int, action: str) -> str:
        """Every play is public: nothing to hide."""
        return action

    def sample(self, p: Perspective, rng: random.Random) -> FibonachosState:
        view, seat, n = p.view, p.seat, p.players
        plays = round_plays(p)
        mine = list(view.zone(f"hand:{seat}").cards or ())
        pool = Counter(NACHO_DECK.cards)
        pool.subtract(mine)
        pool.subtract(c for _, c in plays)
        cards = sorted(CARD_ID[c] for c in pool.elements())
        caps = suit_caps(n, plays)
        others = [q for q in range(n) if q != seat]
        sizes = [view.zone(f"hand:{q}").count for q in others]
        holder_caps = [caps[q] for q in others]
        decks = [view.zone(f"deck:{q}").count for q in range(n)] if n == 2 else []
        extra = [view.zone("aside").count, *decks]
        unknown = len(NACHO_DECK)
        dealt = constrained_deal(
            cards, groups=_GROUPS, sizes=[*sizes, *extra],
            caps=[*holder_caps, *([[unknown] * _SUITS] * len(extra))], rng=rng)
        hands = [0] * n
        hands[seat] = hand_mask(mine)
        for q, got in zip(others, dealt, strict=False):
            hands[q] = _mask(got)
        return FibonachosState(
            players=n,
            hands=hands,
            decks=dealt[len(others) + 1:],
            trick=[card_id(c) for _, c in view.trick],
            leader=view.trick[0][0] if view.trick else _seat(view.to_act),
            turn=_seat(view.to_act),
            tricks_left=tricks_per_round(n) - view.zone("played").count // trick_size(n),
            spicy=_spicy_deck(p, rng),
            prize=_prize(p),
            won=_won(p),
        )

    def easy(self, p: Perspective, rng: random.Random) -> Decision:
        naive = rng.random() < FORGETS_TRUMP
        move = choose(_hand(p), _trick(p), after=_after(p), spicy_sum=_won(p)[p.seat],
                      prize=_prize(p), naive=naive)
        action = PLAY[CARD[move]]
        return Decision(action, self.why(p, action))

    def why(self, p: Perspective, action: Action) -> str:
        if action.card is None:
            return ""
        card, trick = CARD_ID[action.card], _trick(p)
        aim = intent(_won(p)[p.seat], _prize(p))
        if aim is Intent.SHED:
            return "no prize is at stake, so away with a high card"
        if not trick:
            return _lead_reason(aim, high=action.card.rank > LOW_RANK)
        wins = wins_so_far(trick, card)
        if aim is Intent.TAKE:
            return "it wins the prize with your cheapest winning card" if wins else \
                "you cannot win this trick, so away with a low card"
        if not wins:
            return "it stays under the winning card"
        return ("you must take this trick, so away with your highest card" if _after(p) == 0
                else "you play low and hope to be overtaken")

    def from_game(self, game: Game[Any]) -> FibonachosState:
        assert isinstance(game, Fibonachos)
        return FibonachosState.from_game(game)


LOW_RANK = 8
"""A lead above this rank is a high one, in the hint's words."""


def _lead_reason(aim: Intent, *, high: bool) -> str:
    """Why this lead, said to the player: what the card does for what they are after."""
    if aim is Intent.DUCK:
        return ("you lead high while the prize is small, to be rid of it" if high
                else "a low lead leaves the prize to the others")
    return "a high lead to win the prize" if high else \
        "you lead low and keep your high cards for the prize"


def _seat(to_act: int | None) -> int:
    return -1 if to_act is None else to_act


def _mask(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        mask = add_card(mask, c)
    return mask


def _hand(p: Perspective) -> int:
    return hand_mask(p.view.zone(f"hand:{p.seat}").cards or ())


def _trick(p: Perspective) -> list[int]:
    return [card_id(c) for _, c in p.view.trick]


def _after(p: Perspective) -> int:
    return trick_size(p.players) - len(p.view.trick) - 1


def _prize(p: Perspective) -> int:
    prize = p.view.zone("prize").cards or ()
    return prize[0].rank if prize else 0


def _won(p: Perspective) -> list[int]:
    return [sum(c.rank for c in p.view.zone(f"spicy:{q}").cards or ()) for q in range(p.players)]


def _spicy_deck(p: Perspective, rng: random.Random) -> list[int]:
    """The face-down Spicy deck in a random order, top last: every value not taken or up."""
    left = Counter(c.rank for c in SPICY_DECK)
    left.subtract(_won_cards(p))
    left.subtract(c.rank for c in p.view.zone("prize").cards or ())
    deck = sorted(left.elements())
    rng.shuffle(deck)
    return deck


def _won_cards(p: Perspective) -> list[int]:
    return [c.rank for q in range(p.players) for c in p.view.zone(f"spicy:{q}").cards or ()]


KNOWLEDGE = register_knowledge(FibonachosKnowledge())

__all__ = ["BUDGET", "KNOWLEDGE", "FibonachosKnowledge"]
