"""Tap regions (issue #42's web table): every legal move can be made by tapping the pictures, each
region lies on what it names, at a size a finger can hit, says nothing hidden, and says it in words.

Over seeded random playouts of every game and player count, at every acting seat:
- every legal action's non-button targets (``Game.action_targets``) are keys of the regions of
  that seat's board or panel picture, drawn from the same view;
- every box lies inside its decoded image and is at least 44 px on each side at the width the
  page shows it: its natural width on a 1280 px screen (scaled down only if wider). On a 400 px
  phone the page shows the picture 400 px wide; where a region is then under 44 px the page
  offers zoom, so there the test holds the zoom needed to within MAX_PHONE_ZOOM (a picture that
  would need more could not be played on a phone without endless panning);
- a region's box holds what it names (per game: its piece's colour, a tile's pixels...);
- a spectator's regions carry nothing any seat's view holds that the public view does not;
- each region's words render in English and Japanese with every placeholder filled.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from PIL import Image

import renderers
from bot import i18n
from bot.service.regions import region_text
from games import get_game
from renderers.common import player_style
from tests.image_checks import decode
from tests.playouts import random_steps

MIN_TAP = 44            # px, the page's smallest tap target (issue #42)
DESKTOP = 1280          # the page shows a picture at its natural width up to this
PHONE = 400             # ... and this wide on a phone
MAX_PHONE_ZOOM = 2.5    # the most a phone player need zoom for the smallest region to reach 44 px

# (game, players, seeds, steps): enough positions to see every kind of action of each game
PLAYOUTS = [
    ("squares", 2, (1, 2), 80),
    ("arena", 2, (1, 2, 3), 60),
    ("osu", 2, (1, 2), 60),
    ("osu", 4, (1,), 80),
    ("hostile", 2, (1,), 120),
    ("hostile", 3, (2,), 120),
    ("hostile", 4, (3,), 120),
    ("monsterhunter", 2, (1, 2), 150),
    ("monsterhunter", 3, (3,), 150),
    ("monsterhunter", 4, (4,), 150),
]


def positions(name: str, players: int, seeds, steps):
    """(state, seat) for every seat that may act, along seeded random playouts."""
    game = get_game(name)
    for seed in seeds:
        for state, _, _, _, _ in random_steps(game, players, seed, steps):
            for seat in range(players):
                if game.legal_actions(state, seat):
                    yield state, seat


def pictures(name: str, view: dict, seat: int | None):
    """The board and the panel a seat is shown, each as (image, regions)."""
    png, board = renderers.render_with_regions(name, view, viewer_seat=seat)
    out = [("board", decode(png), board)]
    if seat is not None:
        png, panel = renderers.render_panel_with_regions(name, view, viewer_seat=seat)
        out.append(("panel", decode(png), panel))
    return out


def cases():
    return [pytest.param(name, players, seeds, steps, id=f"{name}-{players}p")
            for name, players, seeds, steps in PLAYOUTS]


@pytest.mark.parametrize("name,players,seeds,steps", cases())
def test_every_legal_action_is_tapped_on_the_seats_own_pictures(name, players, seeds, steps):
    game = get_game(name)
    checked = Counter()
    for state, seat in positions(name, players, seeds, steps):
        view = game.view(state, seat)
        keys = {r["key"] for _, _, regions in pictures(name, view, seat) for r in regions}
        for action in game.legal_actions(state, seat):
            targets = game.action_targets(action, view)
            assert targets, (name, action)
            for target in targets:
                if target.startswith("button:"):
                    checked["button"] += 1
                    continue
                assert target in keys, (name, seat, action, target, sorted(keys))
                checked["region"] += 1
    assert checked["region"] > 0, "no action was ever made on the board"


@pytest.mark.parametrize("name,players,seeds,steps", cases())
def test_boxes_lie_inside_the_picture_and_fit_a_finger(name, players, seeds, steps):
    game = get_game(name)
    worst_phone_zoom = 0.0
    for i, (state, seat) in enumerate(positions(name, players, seeds, steps)):
        if i % 5:   # every fifth position: the layout does not change between them
            continue
        drawn = pictures(name, game.view(state, seat), seat)
        assert any(regions for _, _, regions in drawn), name   # (a loadout's board has nothing to tap yet)
        for which, image, regions in drawn:
            width, height = image.size
            desktop = min(1.0, DESKTOP / width)
            phone = PHONE / width
            for r in regions:
                x0, y0, x1, y1 = r["box"]
                assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, (name, which, r)
                side = min(x1 - x0, y1 - y0)
                assert side * desktop >= MIN_TAP, (name, which, r["key"], side * desktop)
                worst_phone_zoom = max(worst_phone_zoom, MIN_TAP / (side * phone))
    assert worst_phone_zoom <= MAX_PHONE_ZOOM, (name, worst_phone_zoom)


# ---- a region holds what it names -----------------------------------------------------------------
def share(image: Image.Image, box, colour, tolerance: int = 12) -> float:
    """The fraction of ``box``'s pixels within ``tolerance`` of ``colour`` (each channel)."""
    crop = image.crop(tuple(box)).convert("RGB")   # crop first: converting the whole picture per region was slow
    near = sum(n for n, c in crop.getcolors(crop.width * crop.height)
               if all(abs(a - b) <= tolerance for a, b in zip(c, colour)))
    return near / (crop.width * crop.height)


def check_squares(image: Image.Image, region: dict, view: dict) -> None:
    """A square with a piece is a good part its owner's colour; an empty square has neither
    side's colour; a hand piece is its owner's colour."""
    data = region["data"]
    colours = [player_style(s).colour for s in (0, 1)]
    if region["kind"] == "cell":
        piece = data["piece"]
        if piece is None:
            assert all(share(image, region["box"], c) < 0.02 for c in colours), region
        elif not piece["petrified"]:
            assert share(image, region["box"], colours[piece["seat"]]) > 0.1, region   # under digits, badge, last-move marks
            assert share(image, region["box"], colours[1 - piece["seat"]]) < 0.02, region
    elif region["kind"] == "hand":
        assert share(image, region["box"], colours[data["seat"]]) > 0.12, region   # under its letter and digit
        assert share(image, region["box"], colours[1 - data["seat"]]) < 0.02, region


def check_arena(image: Image.Image, region: dict, view: dict) -> None:
    """A hex with a figure is partly its owner's colour (the token) and has none of the other's;
    an empty hex has neither; a life bar shows its owner's colour while life is left."""
    data = region["data"]
    colours = [player_style(s).colour for s in (0, 1)]
    if region["kind"] == "hex":
        figure = data["figure"]
        if figure is None:
            assert all(share(image, region["box"], c) < 0.01 for c in colours), region
        else:
            assert share(image, region["box"], colours[figure["seat"]]) > 0.1, region
            assert share(image, region["box"], colours[1 - figure["seat"]]) < 0.01, region
    elif region["kind"] == "life" and data["life"] > 0:
        assert share(image, region["box"], colours[data["seat"]]) > 0.005, region   # one segment is about 1 %


def check_osu(image: Image.Image, region: dict, view: dict) -> None:
    """A square with a tile shows its owner's colour (the tile's frame and number) and no other
    seat's; an empty square shows no seat's colour."""
    data = region["data"]
    colours = [player_style(s).colour for s in range(view["players"])]
    if region["kind"] != "cell":
        return
    tile = data["tile"]
    if tile is None:
        assert all(share(image, region["box"], c) < 0.01 for c in colours), region
    else:
        assert share(image, region["box"], colours[tile["seat"]]) > 0.05, region
        assert all(share(image, region["box"], c) < 0.01 for s, c in enumerate(colours) if s != tile["seat"]), region


def check_hostile(image: Image.Image, region: dict, view: dict) -> None:
    """A square with a piece shows that piece's colour; one with no piece and no start or zone
    colour shows no seat's colour at all (a tile, gems or bare floor)."""
    data = region["data"]
    colours = [player_style(s).colour for s in range(view["players"])]
    if region["kind"] != "cell":
        return
    if data["piece"] is not None:
        assert share(image, region["box"], colours[data["piece"]]) > 0.02, region   # on a tile: a corner chip
    elif data["start"] is None and data["zone"] is None:
        assert all(share(image, region["box"], c) < 0.01 for c in colours), region


def check_monsterhunter(image: Image.Image, region: dict, view: dict) -> None:
    """A face-down monster's chip is mostly the dark card back; a face-up one's and a hand card's
    are mostly light (a card face); a map area is mostly its light floor."""
    data = region["data"]
    if region["kind"] == "monster" and region["box"][2] - region["box"][0] < 300:   # a chip, not a row
        back = share(image, region["box"], (52, 52, 70), tolerance=20)
        assert (back > 0.3) == (not data["up"] and "card" not in data), region
    elif region["kind"] in ("card", "hunter"):
        assert share(image, region["box"], (255, 255, 255), tolerance=6) > 0.3, region


CONTENT_CHECKS = {"squares": check_squares, "arena": check_arena, "osu": check_osu, "hostile": check_hostile,
                  "monsterhunter": check_monsterhunter}


@pytest.mark.parametrize("name,players,seeds,steps", cases())
def test_each_region_holds_what_it_names(name, players, seeds, steps):
    game, check = get_game(name), CONTENT_CHECKS[name]
    seen = Counter()
    for i, (state, seat) in enumerate(positions(name, players, seeds, steps)):
        if i % 7:
            continue
        for viewer in (seat, None):
            view = game.view(state, viewer)
            for _, image, regions in pictures(name, view, viewer):
                for r in regions:
                    check(image, r, view)
                    seen[r["kind"]] += 1
    assert len(seen) >= 2, seen


# ---- hidden information ------------------------------------------------------------------------------
def leaves(value) -> set:
    """Every string and number anywhere in a JSON-like value."""
    if isinstance(value, dict):
        return set().union(*(leaves(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(leaves(v) for v in value)) if value else set()
    return {value} if isinstance(value, (str, int, float)) and not isinstance(value, bool) else set()


@pytest.mark.parametrize("name,players,seeds,steps", cases())
def test_a_spectators_regions_show_nothing_hidden(name, players, seeds, steps):
    """Region data is taken from the view the picture is drawn from: a spectator's regions name
    only what the public view names (card ids, squares, kinds), and no string that only some
    seat's own view holds (a hand card, a face-down monster's card, a secret order)."""
    game = get_game(name)
    for i, (state, seat) in enumerate(positions(name, players, seeds, steps)):
        if i % 5:
            continue
        public = game.view(state, None)
        shown = leaves(public)
        secret = {v for s in range(players) for v in leaves(game.view(state, s))
                  if isinstance(v, str) and len(v) > 1} - shown
        for _, _, regions in pictures(name, public, None):
            for r in regions:
                # names only (numbers may be worked out from public ones: health left); its own
                # place (a square) is the layout's
                said = {v for v in leaves(r["data"]) if isinstance(v, str)} - set(r["key"].split(":"))
                assert said <= shown, (name, r, said - shown)
                assert not any(part in secret for part in r["key"].split(":")), (name, r["key"])


# ---- words ---------------------------------------------------------------------------------------------
UNFILLED = re.compile(r"\{[a-z_]+\}|\b(?:region|term|word|mh|alt|colour)\.[a-z_]+")


@pytest.mark.parametrize("name,players,seeds,steps", cases())
def test_region_words_render_in_both_languages(name, players, seeds, steps):
    game = get_game(name)
    kinds = Counter()
    for i, (state, seat) in enumerate(positions(name, players, seeds, steps)):
        if i % 9:
            continue
        for viewer in (seat, None):
            view = game.view(state, viewer)
            for _, _, regions in pictures(name, view, viewer):
                for r in regions:
                    text = region_text(game, r, view)
                    assert text.key != "region.unnamed", (name, r["kind"])
                    for lang in i18n.LANGUAGES:
                        words = i18n.render(lang, text)
                        assert words.strip() and not UNFILLED.search(words), (lang, r, words)
                    kinds[r["kind"]] += 1
    assert kinds, name


def test_japanese_region_words_use_full_width_punctuation():
    """Inside Japanese text, no half-width colon, brackets, comma or full stop (notation such as
    ``b2`` and numbers stay as they are)."""
    for key, source in i18n.catalogue_files("ja")["regions"].items():
        body = re.sub(r"\{[^}]*\}", "", source)
        assert not re.search(r"[:(),.!?]", body), (key, source)
