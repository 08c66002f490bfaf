"""Renderers: the registry, the shared helpers and the SQUARESIV board image.

Boards are rendered from real engine views (a scripted opening with a battle and a petrified
piece, plus seeded random games for tides, transfers and a finished game).
"""

from __future__ import annotations

import copy
import math

import pytest
from PIL import Image, ImageChops, ImageDraw

import renderers
from tests.image_checks import decode, differs
from games import get_game
from games.ai import choose_action
from games.rng import Rng
from renderers import UnknownRenderer, render, renderer_for
from renderers import common, squaresiv
from renderers.common import (
    HexLayout, Palette, SquareGrid, arrow_polygon, hex_distance, hex_neighbours, png_bytes,
)

GAME = get_game("squares")


# ---- helpers ------------------------------------------------------------------------------------
def play(state, *actions):
    """Apply scripted actions for whoever is to act, checking each is legal first."""
    events = []
    for action in actions:
        seat = min(GAME.to_act(state))
        assert action in GAME.legal_actions(state, seat), (action, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
    return state, events


def as_rgb(view, **options) -> Image.Image:
    return squaresiv.render_image(view, **options).convert("RGB")


@pytest.fixture(scope="module")
def opening():
    """Scripted: a battle on b3 (seat 1's N1 bounces off seat 0's N4), then seat 0's petrify on
    c2 silences seat 1's T2 when it steps onto c3."""
    s0 = GAME.setup(2, {}, seed=1)
    s1, _ = play(s0, "N4@b2", "N1@b4", "b2-b3")
    battle, events = play(s1, "b4-b3")
    assert any(e["type"] == "battle" for e in events)
    petrified, _ = play(battle, "P2@c2", "T2@c4", "M1@a1", "c4-c3")
    view = GAME.view(petrified, 0)
    assert any(p["petrified"] for p in view["board"])
    return {"setup": s0, "placed": s1, "battle": battle, "petrified": petrified}


@pytest.fixture(scope="module")
def random_views():
    """Views from seeded random games: one per interesting kind of last action, and the ends."""
    found: dict[str, dict] = {}
    for seed in range(30):
        options = {"turn_limit": 40} if seed % 4 == 0 else {}
        state, rng = GAME.setup(2, options, seed=seed), Rng(seed + 1000)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            action = choose_action(GAME, state, seat, rng)
            state, _ = GAME.apply(state, seat, action)
            kind = "tide" if action.endswith("^") else "transfer" if "<>" in action else None
            if kind:
                found.setdefault(kind, GAME.view(state, seat))
        key = "draw" if GAME.outcome(state).draw else "won"
        found.setdefault(key, GAME.view(state, None))
        if {"tide", "transfer", "draw", "won"} <= set(found):
            break
    assert {"tide", "transfer", "draw", "won"} <= set(found), sorted(found)
    return found


# ---- registry -------------------------------------------------------------------------------------
def test_registry_dispatches_by_name_and_alias(opening):
    view = GAME.view(opening["setup"], None)
    assert renderer_for("squares") is squaresiv.render
    assert renderer_for("SquaresIV") is squaresiv.render  # engine alias
    assert render("squares", view) == squaresiv.render(view)
    assert "squares" in renderers.registered()
    assert renderers.has_renderer("sq4") and not renderers.has_renderer("chess")


def test_unknown_game_is_a_clear_key_error():
    with pytest.raises(KeyError) as info:
        render("no-such-game", {})
    assert isinstance(info.value, UnknownRenderer)
    assert "no-such-game" in str(info.value) and "squares" in str(info.value)


def test_options_pass_through_the_registry(opening):
    view = GAME.view(opening["battle"], 0)
    assert render("squares", view, last=False) == squaresiv.render(view, last=False)


# ---- the SQUARESIV board ----------------------------------------------------------------------------
def test_setup_board_is_a_valid_png(opening):
    png = render("squares", GAME.view(opening["setup"], None))
    image = decode(png)
    assert image.format == "PNG"
    assert image.size == (squaresiv.WIDTH, squaresiv.HEIGHT)
    assert 700 <= image.width <= 900
    assert image.mode == "P"
    assert len(png) < 300_000


@pytest.mark.parametrize("name", ["placed", "battle", "petrified"])
def test_scripted_states_render(opening, name):
    for seat in (0, 1, None):
        image = decode(render("squares", GAME.view(opening[name], seat)))
        assert image.size == (squaresiv.WIDTH, squaresiv.HEIGHT)


def test_random_game_states_render(random_views):
    for name, view in random_views.items():
        png = render("squares", view)
        assert decode(png).size == (squaresiv.WIDTH, squaresiv.HEIGHT), name
        assert len(png) < 300_000


def test_different_states_give_different_images(opening, random_views):
    views = [GAME.view(opening[k], None) for k in ("setup", "placed", "battle", "petrified")]
    views += list(random_views.values())
    pngs = [render("squares", v) for v in views]
    assert len(set(pngs)) == len(pngs)


def test_render_is_deterministic(opening):
    view = GAME.view(opening["petrified"], 1)
    first = render("squares", view)
    assert render("squares", copy.deepcopy(view)) == first
    # and again with every cache rebuilt from scratch
    for cached in (squaresiv.palette, squaresiv.board_layer, squaresiv.marked_panels, squaresiv.piece_sprite,
                   squaresiv.hand_sprite, squaresiv.cap_sprite):
        cached.cache_clear()
    assert render("squares", view) == first


def test_renderer_does_not_mutate_the_view(opening):
    view = GAME.view(opening["battle"], 0)
    before = copy.deepcopy(view)
    render("squares", view)
    assert view == before


def test_last_action_squares_are_highlighted(opening):
    view = GAME.view(opening["petrified"], None)  # last: seat 1 moved c4-c3
    assert view["last"]["squares"] == ["c4", "c3"]
    marked, plain = as_rgb(view), as_rgb(view, last=False)
    for square in view["last"]["squares"]:
        assert differs(marked, plain, squaresiv.GRID.box(square)), square
    # nothing outside the two squares and the arrow between them changes
    x0, y0, x1, y1 = squaresiv.GRID.box("c4")
    bx0, by0, bx1, by1 = squaresiv.GRID.box("c3")
    union = (min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1))
    bbox = ImageChops.difference(marked, plain).getbbox()
    assert union[0] <= bbox[0] and union[1] <= bbox[1] and bbox[2] <= union[2] and bbox[3] <= union[3]
    # the same as a view without a last action
    assert not differs(plain, as_rgb({**view, "last": None}))


def test_placement_and_tide_marks(opening, random_views):
    view = GAME.view(opening["placed"], None)  # last: b2-b3 after N4@b2, N1@b4
    assert squaresiv.last_marks(view["last"]) == (["b2", "b3"], [("b2", "b3", False)])
    assert squaresiv.last_marks({"seat": 0, "action": "N4@b2", "squares": ["b2"]}) == (["b2"], [])
    assert squaresiv.last_marks({"seat": 0, "action": "pass", "squares": []}) == ([], [])
    assert squaresiv.last_marks({"seat": 1, "action": "b4<>d5", "squares": ["b4", "d5"]}) == (["b4", "d5"], [])
    tide = random_views["tide"]
    squares, arrows = squaresiv.last_marks(tide["last"])
    assert squares[0] == tide["last"]["squares"][0] and len(arrows) == 1
    marked, plain = as_rgb(tide), as_rgb(tide, last=False)
    for square in squares:
        assert differs(marked, plain, squaresiv.GRID.box(square))


def test_petrified_piece_looks_different(opening):
    view = GAME.view(opening["petrified"], None)
    stone = next(p for p in view["board"] if p["petrified"])
    awake = copy.deepcopy(view)
    next(p for p in awake["board"] if p["square"] == stone["square"])["petrified"] = False
    box = squaresiv.GRID.box(stone["square"])
    assert differs(as_rgb(view, last=False), as_rgb(awake, last=False), box)


def test_turn_marker_and_outcome_show(opening, random_views):
    view = GAME.view(opening["battle"], None)
    assert squaresiv.markers(view) == ("turn", None)
    swapped = {**view, "to_act": [1]}
    a, b = as_rgb(view), as_rgb(swapped)
    assert differs(a, b, squaresiv.panel_box(0)) and differs(a, b, squaresiv.panel_box(1))
    won = random_views["won"]
    winner = won["outcome"]["winners"][0]
    assert squaresiv.markers(won)[winner] == "win"
    assert differs(as_rgb(won), as_rgb({**won, "outcome": None}), squaresiv.panel_box(winner))
    assert squaresiv.markers(random_views["draw"]) == ("draw", "draw")


def test_the_winning_centre_squares_are_marked(random_views):
    """A game won on the centre row shows the winner's centre squares framed (and crowned); nothing
    else on the board changes."""
    won = random_views["won"]
    assert won["outcome"]["reason"] == "centre"
    winner = won["outcome"]["winners"][0]
    squares = squaresiv.winning_squares(won)
    assert len(squares) >= 3 and all(sq[1] == "3" for sq in squares)
    assert {p["square"] for p in won["board"] if p["seat"] == winner and p["square"][1] == "3"} == set(squares)
    ended, running = as_rgb(won, last=False), as_rgb({**won, "outcome": None}, last=False)
    for square in squares:
        assert differs(ended, running, squaresiv.GRID.box(square)), square
    others = [sq for sq in squaresiv.GRID.squares() if sq[1] in "15"]
    for square in others:
        assert not differs(ended, running, squaresiv.GRID.box(square)), square
    assert squaresiv.winning_squares({**won, "outcome": {"winners": [], "reason": "turn_limit", "draw": True}}) == []


def test_row_cap_labels_follow_totals(opening):
    view = GAME.view(opening["battle"], None)
    more = copy.deepcopy(view)
    more["row_totals"][0][2] += 1
    x, y = squaresiv.cap_label_pos(0, 3)
    box = (x, y, x + squaresiv.CAP_W, y + squaresiv.CAP_H)
    assert differs(as_rgb(view), as_rgb(more), box)
    assert not differs(as_rgb(view), as_rgb(more), squaresiv.panel_box(0))


def test_unusual_but_valid_views_render(opening):
    view = copy.deepcopy(GAME.view(opening["battle"], None))
    view["cap"] = 45
    view["row_totals"] = [[45, 0, 12, 3, 0], [0, 1, 2, 44, 45]]
    view["hands"][1] = [{"kind": "N9", "ability": "plain", "points": 9}] * 12  # more than fit
    view["to_act"] = []
    assert decode(render("squares", view)).size == (squaresiv.WIDTH, squaresiv.HEIGHT)


def test_sample_images_are_written(tmp_path, opening, random_views):
    views = {k: GAME.view(s, None) for k, s in opening.items()} | random_views
    for name, view in views.items():
        path = tmp_path / f"squares_{name}.png"
        path.write_bytes(render("squares", view))
        with Image.open(path) as image:
            assert image.size == (squaresiv.WIDTH, squaresiv.HEIGHT)
    assert len(list(tmp_path.glob("*.png"))) == len(views)


# ---- shared helpers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pointy", [True, False])
def test_hex_neighbours_are_equidistant(pointy):
    layout = HexLayout(size=30, origin=(200, 150), pointy=pointy)
    for q, r in [(0, 0), (2, -1), (-3, 4)]:
        cx, cy = layout.centre(q, r)
        distances = [math.dist((cx, cy), layout.centre(*n)) for n in hex_neighbours(q, r)]
        assert len(distances) == 6
        assert max(distances) - min(distances) < 1e-9
        assert distances[0] == pytest.approx(30 * math.sqrt(3))
        assert all(hex_distance((q, r), n) == 1 for n in hex_neighbours(q, r))


@pytest.mark.parametrize("pointy", [True, False])
def test_hex_polygon_has_six_corners_on_the_circumcircle(pointy):
    layout = HexLayout(size=25, origin=(0, 0), pointy=pointy)
    centre = layout.centre(1, 2)
    corners = layout.polygon(1, 2)
    assert len(corners) == 6
    assert all(math.dist(centre, c) == pytest.approx(25) for c in corners)
    if pointy:  # a corner straight up
        assert min(c[1] for c in corners) == pytest.approx(centre[1] - 25)
    else:       # a corner straight right
        assert max(c[0] for c in corners) == pytest.approx(centre[0] + 25)
    assert layout.from_pixel(*centre) == (1, 2)


def test_square_grid_orientation():
    grid = SquareGrid(left=100, top=50, cell=10)
    assert grid.box("a1") == (100, 90, 110, 100)   # bottom-left
    assert grid.box("e5") == (140, 50, 150, 60)    # top-right
    assert grid.centre("c3") == (125.0, 75.0)
    assert len(grid.squares()) == 25


def test_arrow_polygons():
    single = arrow_polygon((0, 0), (100, 0), width=10, head_length=20, head_width=30)
    assert (100, 0) in [(round(x), round(y)) for x, y in single] and len(single) == 7
    double = arrow_polygon((0, 0), (100, 0), double=True)
    assert {(0, 0), (100, 0)} <= {(round(x), round(y)) for x, y in double}


def test_palette_keeps_exact_colours_and_player_styles_are_distinct():
    swatch = Image.new("RGB", (8, 8), (10, 200, 30))
    pal = Palette(swatch, exact=[common.HIGHLIGHT, common.WHITE])
    assert pal.colour(pal.index(common.HIGHLIGHT)) == common.HIGHLIGHT
    # converting an image keeps exact colours exact too (Pillow's own palette mapping is coarse)
    board_colours = (common.WHITE, common.PAPER, common.INK, common.HIGHLIGHT, common.player_style(1).colour)
    for palette_, colours in ((pal, (common.WHITE, common.HIGHLIGHT)), (squaresiv.palette(), board_colours)):
        for colour in colours:
            converted = palette_.convert(Image.new("RGB", (3, 3), colour))
            assert converted.mode == "P" and converted.convert("RGB").getpixel((1, 1)) == colour
    styles = common.PLAYER_STYLES
    assert len({s.colour for s in styles}) == len({s.letter for s in styles}) == len(styles)
    assert common.player_style(0).shape != common.player_style(1).shape


def test_drawing_helpers_draw_something():
    image = Image.new("RGB", (200, 200), common.PAPER)
    draw = ImageDraw.Draw(image)
    layout = HexLayout(size=20, origin=(100, 100), pointy=False)
    common.draw_hex_grid(draw, layout, [(0, 0)] + hex_neighbours(0, 0), fill=lambda h: common.CENTRE_TINT)
    assert image.getpixel((100, 100)) == common.CENTRE_TINT
    common.draw_token(draw, (40, 40), 18, fill=common.player_style(2).colour, label="C", shape="diamond")
    common.draw_arrow(draw, (10, 190), (190, 190), fill=common.INK, width=6, shorten=10)
    common.draw_highlight(draw, (150, 10, 190, 50))
    assert image.getpixel((150, 10)) == common.INK and image.getpixel((153, 13)) == common.HIGHLIGHT
    sprite = common.supersampled((30, 30), lambda d, k: d.ellipse((0, 0, 30 * k, 30 * k), fill=(255, 0, 0, 255)))
    assert sprite.size == (30, 30) and sprite.getpixel((15, 15)) == (255, 0, 0, 255)
    assert sprite.getpixel((0, 0))[3] < 128
    assert common.alpha_mask(sprite).getpixel((15, 15)) == 255


def test_png_bytes_and_fonts():
    image = Image.new("RGB", (20, 10), (1, 2, 3))
    png = png_bytes(image)
    assert png == png_bytes(image)
    assert decode(png).getpixel((5, 5)) == (1, 2, 3)
    assert common.font(20) is common.font(20)
    assert common.font(20).getbbox("8")[3] > common.font(14).getbbox("8")[3]


# ---- warm-up: what boards need is drawn before the first board ------------------------------------------
WARM_GAMES = (("squares", 2, {}), ("osu", 4, {}), ("arena", 2, {}), ("hostile", 3, {}),
              ("hostile", 4, {"teams": "13-24"}), ("monsterhunter", 3, {}))
WARM_EVERY = 10   # boards drawn at every 10th position (and the last): the test stays a few seconds


def _warmed_functions() -> dict[str, object]:
    """Every cached sprite builder a renderer declares covered by its ``warm()`` (``WARMED``)."""
    import sys
    out = {}
    for module_name in sorted({fn.__module__ for fn in renderers._RENDERERS.values()}):
        for fn in getattr(sys.modules[module_name], "WARMED", ()):
            out[f"{module_name}.{fn.__name__}"] = fn
    return out


def test_after_warm_all_boards_miss_no_warmed_sprite():
    """After ``warm_all()`` (what the workers' fork server runs) the boards of seeded random games
    (public, each acting seat's panel, drawn from its side too, and the finished board) draw none
    of the sprites and layers the renderers declare warmed: none is drawn on a player's action."""
    renderers.warm_all()
    warmed = _warmed_functions()
    assert {f.rsplit(".", 1)[0] for f in warmed} == {fn.__module__ for fn in renderers._RENDERERS.values()}
    before = {name: fn.cache_info().misses for name, fn in warmed.items()}
    for name, players, options in WARM_GAMES:
        game = get_game(name)
        state, rng = game.setup(players, game.resolve_options(options, players), 5), Rng(11)
        for ply in range(600):
            over = game.outcome(state) is not None
            seat = ply % players if over else min(game.to_act(state))
            if over or ply % WARM_EVERY == 0:
                renderers.render(name, game.view(state, None))
                view = game.view(state, seat)
                renderers.render_panel(name, view)
                renderers.render_panel(name, view, viewer_seat=seat)
            if over:
                break
            legal = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, legal[rng.below(len(legal))])
    missed = {name: fn.cache_info().misses - before[name] for name, fn in warmed.items()}
    assert {name: n for name, n in missed.items() if n} == {}
