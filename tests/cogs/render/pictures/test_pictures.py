"""The table and hand pictures: every game, its largest table, random positions."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

import games
from bench.pictures import NAMES, positions
from cogs.render.pictures import hand_picture, hand_scene_of, table_picture, table_scene_of
from cogs.render.pictures.draw import (
    CAPTION_SIZE,
    LABEL_SIZE,
    MAX_BYTES,
    PLAYER_SIZE,
    TITLE_SIZE,
    WIDTH,
    draw_scene,
    render_png,
    wrap,
)
from cogs.render.pictures.faces import PAPER, contrast, face_of, ink
from cogs.render.pictures.scene import TURN_MARK, table_scene
from games.core.game import Game
from games.core.zones import ZoneKind


def own_hand(game: Game[Any], seat: int) -> list[Any]:
    view = game.view_for(seat)
    return [c for z in view.zones if z.kind is ZoneKind.HAND and z.owner == seat
            for c in z.cards or ()]


@pytest.mark.parametrize("name", games.names())
def test_every_table_and_hand_draws_within_limits(name: str) -> None:
    for game in positions(name, 6, seed=0):
        names = NAMES[: game.players]
        picture = table_picture(game, names)
        assert picture is not None
        image = Image.open(io.BytesIO(picture.png))
        assert image.format == "PNG" and image.width <= WIDTH
        assert len(picture.png) < MAX_BYTES and len(picture.alt) <= 1024
        seat = game.to_act if game.to_act is not None else 0
        cards = own_hand(game, seat)
        hand = hand_picture(game, seat, cards, game.legal_actions(seat))
        if cards:
            assert hand is not None and Image.open(io.BytesIO(hand.png)).width <= WIDTH
            for card in cards:
                assert game.card_name(card) in hand.alt
        else:
            assert hand is None


@pytest.mark.parametrize("name", games.names())
def test_the_same_state_gives_the_same_bytes(name: str) -> None:
    for game in positions(name, count=3, seed=1):
        names = NAMES[: game.players]
        first = table_picture(game, names)
        render_png.cache_clear()
        again = table_picture(game.clone(), names)
        assert first is not None and again is not None and first.png == again.png


@pytest.mark.parametrize("name", games.names())
def test_alt_text_names_every_card_shown(name: str) -> None:
    for game in positions(name, count=4, seed=2):
        names = NAMES[: game.players]
        view = game.view_for(None)
        scene = table_scene(game.name, "t", view, names, game.card_name, [])
        alt = scene.alt_text()
        shown = [slot for row in scene.rows for slot in row.slots if slot.face is not None]
        for slot in shown:
            assert slot.words in alt
        for seat, card in view.trick:
            assert f"{names[seat]}: {game.card_name(card)}" in alt
        for zone in view.zones:
            if zone.kind is ZoneKind.FACE_UP and zone.cards:
                for card in zone.cards:
                    assert game.card_name(card) in alt


@pytest.mark.parametrize("name", games.names())
def test_the_alt_text_says_each_players_fact_once(name: str) -> None:
    """A player's note says their tricks or Spicy; a count of the cards they won beside it
    said it twice ("3 tricks · tricks 9", "Spicy 1, worth 2 · spicy 1")."""
    for game in positions(name, count=4, seed=2):
        alt = table_scene_of(game, NAMES[: game.players]).alt_text()
        players = alt.partition("Players: ")[2]
        for zone in game.view_for(None).zones:
            if zone.kind is ZoneKind.COLLECTION and zone.count:
                assert f"{zone.name.partition(':')[0]} {zone.count}" not in players, alt
        said = [fact for fact in (f"{n}: " for n, _ in game.view_for(None).facts)]
        assert all(alt.count(fact) <= 1 for fact in said), alt


def test_hidden_cards_never_reach_the_table_picture() -> None:
    """Two games equal in public but with two hidden hands swapped draw the same table."""
    game = games.new_game("fumblaroo", 3, seed=4)
    other = game.clone()
    hands = other.hands  # type: ignore[attr-defined]
    hands[0], hands[1] = hands[1], hands[0]
    names = NAMES[:3]
    assert game.view_for(0) != other.view_for(0)
    first, second = table_picture(game, names), table_picture(other, names)
    assert first is not None and second is not None and first.png == second.png


def test_a_scene_is_drawn_once() -> None:
    game = positions("fazes", count=1, seed=3)[0]
    render_png.cache_clear()
    table_picture(game, NAMES[: game.players])
    table_picture(game, NAMES[: game.players])
    info = render_png.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_suits_differ_in_shape_and_letter_not_only_colour() -> None:
    """Colour-blind players tell suits apart: no two suits of a deck share shape and letter."""
    for name in games.names():
        game = games.new_game(name, games.get(name).max_players, seed=0)
        faces = {face_of(name, c) for c in game.deck_in_play()}
        by_suit = {(f.shape, f.letter) for f in faces}
        colours = {f.colour for f in faces}
        assert len(by_suit) >= len(colours), name


def test_trump_and_bowers_are_marked() -> None:
    """Every trump is starred, as the README says; Fumblaroo's two bowers (the twos above
    the Ace) are ringed as well."""
    card = games.get("fazes").deck_for(4, games.get("fazes").options_model()).parse("R7")
    assert face_of("fazes", card, trump="R").starred
    assert not face_of("fazes", card, trump="").starred
    deck = games.get("fumblaroo").deck_for(3, games.get("fumblaroo").options_model())
    bowers = frozenset({"2H", "2D"})
    for text in ("2D", "2H"):
        face = face_of("fumblaroo", deck.parse(text), trump="H", bowers=bowers)
        assert face.starred and face.ringed
    for text in ("9H", "AH"):
        face = face_of("fumblaroo", deck.parse(text), trump="H", bowers=bowers)
        assert face.starred and not face.ringed
    assert not face_of("fumblaroo", deck.parse("AS"), trump="H", bowers=bowers).starred
    assert not face_of("fumblaroo", deck.parse("9H")).starred  # no trump yet


@pytest.mark.parametrize("name", games.names())
def test_every_picture_reads_at_phone_width_and_cuts_nothing(name: str) -> None:
    """Discord shows a picture about 360-400 px wide on a phone: at most 480 px, the body
    text 22 px (about Discord's own 16 px there), captions 18; text wraps, never cut."""
    assert WIDTH <= 480 and min(TITLE_SIZE, LABEL_SIZE, PLAYER_SIZE) >= 22
    assert CAPTION_SIZE >= 18
    for game in positions(name, 4, seed=5):
        names = NAMES[: game.players]
        seat = game.to_act if game.to_act is not None else 0
        scenes = [table_scene_of(game, names)]
        hand = hand_scene_of(game, seat, own_hand(game, seat), game.legal_actions(seat))
        scenes += [hand] if hand is not None else []
        for scene in scenes:
            assert Image.open(io.BytesIO(render_png(scene))).width <= WIDTH
            texts = [(scene.title, TITLE_SIZE), (scene.facts, LABEL_SIZE)]
            texts += [(line.removeprefix(TURN_MARK), PLAYER_SIZE) for line in scene.players]
            texts += [(row.label, LABEL_SIZE) for row in scene.rows]
            for text, size in texts:
                lines = wrap(text, size, WIDTH - 32)
                assert " ".join(lines) == text, (text, lines)  # every word drawn, none cut


@pytest.mark.parametrize("name", games.names())
def test_pictures_are_palette_pngs_half_the_bytes_or_less_that_look_the_same(name: str) -> None:
    """A table or hand picture is sent as a palette PNG: within 24 of 255 per channel of
    the picture drawn in full colour (under 2 on average: 15 and 1.25 at most measured,
    which no eye tells apart), and half the bytes or less of that picture as the
    full-colour PNG sent before."""
    for game in positions(name, 3, seed=9):
        seat = game.to_act if game.to_act is not None else 0
        scenes = [table_scene_of(game, NAMES[: game.players])]
        hand = hand_scene_of(game, seat, own_hand(game, seat), game.legal_actions(seat))
        scenes += [hand] if hand is not None else []
        for scene in scenes:
            png = render_png(scene)
            sent = Image.open(io.BytesIO(png))
            assert sent.format == "PNG" and sent.mode == "P"
            full = draw_scene(scene).convert("RGB")
            diff = ImageChops.difference(full, sent.convert("RGB"))
            assert max(high for _, high in diff.getextrema()) <= 24
            assert max(ImageStat.Stat(diff).mean) < 2
            before = io.BytesIO()
            full.save(before, format="PNG", compress_level=1)
            assert len(png) * 2 < len(before.getvalue()), (len(png), len(before.getvalue()))


def test_rank_and_letter_stand_out_from_the_paper() -> None:
    """Yellow ranks on cream were hard to read: every face's text has WCAG's 4.5:1."""
    for name in games.names():
        game = games.new_game(name, games.get(name).max_players, seed=0)
        for card in game.deck_in_play():
            face = face_of(name, card, trump="R" if name == "fazes" else "")
            assert contrast(ink(face.colour), PAPER) >= 4.5, (name, card, face.colour)


RULES_COLOURS = {"gray": (0, 360, 0.0, 0.15), "red": (340, 10, 0.5, 1.0),
                 "green": (90, 160, 0.4, 1.0), "yellow": (40, 60, 0.5, 1.0),
                 "orange": (20, 40, 0.5, 1.0), "blue": (200, 250, 0.4, 1.0)}
"""Each colour word of docs/rules/fiasco.md as a hue range (degrees) and a saturation range."""
FIASCO_SYMBOLS = {"🗡️": "sword", "🌹": "rose", "📗": "book", "💰": "chest", "🎸": "mandolin",
                  "🐎": "horse"}


def test_fiascos_suits_are_the_same_in_the_rules_the_emoji_and_the_pictures() -> None:
    import colorsys
    import re
    from pathlib import Path

    from games.fiasco.cards import SUIT_EMOJI, SUIT_NAMES

    rules = (Path(__file__).resolve().parents[4] / "docs/rules/fiasco.md").read_text()
    said = dict(re.findall(r"`([A-Z])`\s+\((\w+)\)", " ".join(rules.split())))
    assert set(said) == set(SUIT_NAMES), said
    deck = games.get("fiasco").full_deck
    for suit, colour_word in said.items():
        face = face_of("fiasco", deck.parse(f"{suit}1"))
        hue, _, saturation = colorsys.rgb_to_hls(*(c / 255 for c in face.colour))
        low, high, s_low, s_high = RULES_COLOURS[colour_word]
        degrees = hue * 360
        in_hue = low <= degrees <= high if low <= high else degrees >= low or degrees <= high
        assert in_hue and s_low <= saturation <= s_high, (suit, colour_word, face.colour)
        assert face.shape == FIASCO_SYMBOLS[SUIT_EMOJI[suit]], suit


def test_no_card_emoji_vanishes_on_discords_dark_theme() -> None:
    """A black colour square (⬛) on Discord's dark grey is all but invisible: a colour is
    shown by a mark with a light edge (🔲). (♠️ and ♣️ keep their shapes: they read.)"""
    dark = {"⬛", "◼️", "▪️", "⚫", "🖤"}
    for name in games.names():
        cls = games.get(name)
        for card in cls.every_card():
            assert not any(mark in cls.card_label(card) for mark in dark), (name, card)


def test_the_committed_samples_are_what_the_command_draws(tmp_path) -> None:
    from pathlib import Path

    from cogs.render.pictures import samples

    assert samples.main([str(tmp_path)]) == 0
    committed = Path(__file__).resolve().parents[4] / "docs" / "pictures"
    drawn = sorted(p.name for p in tmp_path.iterdir())
    assert drawn == sorted(p.name for p in committed.iterdir())
    for file in drawn:
        assert (tmp_path / file).read_bytes() == (committed / file).read_bytes(), (
            f"docs/pictures/{file} is out of date: run python -m cogs.render.pictures.samples "
            "docs/pictures")


def test_the_benchmark_smoke_writes_its_table(tmp_path, monkeypatch, capsys) -> None:
    """``bench.pictures --quick`` runs and writes one row per game (no speed is asserted)."""
    import json
    import sys

    from bench import pictures as bench

    out = tmp_path / "pictures.json"
    monkeypatch.setattr(sys, "argv", ["bench.pictures", "--quick", "--json", str(out)])
    bench.main()
    doc = json.loads(out.read_text())
    assert [row["game"] for row in doc["results"]] == games.names()
    assert all(row["median_ms"] > 0 and row["mean_kb"] > 0 for row in doc["results"])
    assert "ms/table" in capsys.readouterr().out
