"""The OSU board image: real engine views in, PNG out (renderers/osu.py).

Scripted positions come from the rulebook scenarios (the warning example's chain, a capture, the
OSU push, the reversal); seeded random games give mid-game and finished boards for 2 and 4 players.
"""

from __future__ import annotations

import copy
import doctest

import pytest
from PIL import Image

import renderers
from tests.image_checks import decode, differs
from games.ai import choose_action
from games.osu.engine import Osu, rotation_with
from games.rng import Rng
from renderers import osu as R
from renderers import render, renderer_for

G = Osu()
SIDES = {"up": 0, "right": 1, "down": 2, "left": 3}


def tile(seat: int, number: int, **facing: str) -> list:
    (side, animal), = facing.items()
    return [seat, number, rotation_with(SIDES[side], animal)]


def position(players: int, board: dict, action: str, seat: int = 0, **options) -> dict:
    state = G.setup(players, options, seed=1)
    state["board"] = {sq: list(t) for sq, t in board.items()}
    state["turn"] = seat
    state, _ = G.apply(state, seat, action)
    return state


def rgb(view, **options) -> Image.Image:
    return R.render_image(view, **options).convert("RGB")


@pytest.fixture(scope="module")
def scripted():
    warning = position(4, {"c2": tile(0, 1, left="mouse"), "b3": tile(1, 2, right="cat"),
                           "e3": tile(2, 3, left="mouse")}, "c2-c3")
    capture = position(4, {"e4": tile(0, 1, right="lion"), "f3": tile(1, 2, left="cat"),
                           "g3": tile(2, 3, up="mouse")}, "e4-e3")
    push = position(4, {"d3": tile(0, 4, up="mouse"), "c5": tile(1, 1, up="cat"), "b6": tile(2, 2, up="cat"),
                        "e4": tile(3, 3, up="cat"), "c3": tile(1, 2, up="cat")}, "d3-d4", osu_push=True)
    reversed_ = position(2, {"c2": tile(0, 1, up="mouse"), "c4": tile(1, 4, down="cat"),
                             "d4": tile(1, 1, up="cat")}, "c2-c3", reversal=True)
    rotated = position(2, {"c3": tile(0, 4, up="lion")}, "c3>")
    return {"setup2": G.setup(2, {}, 1), "setup4": G.setup(4, {}, 1), "warning": warning,
            "capture": capture, "push": push, "reversed": reversed_, "rotated": rotated}


@pytest.fixture(scope="module")
def random_views():
    found = {}
    for seed in range(20):
        players = 2 if seed % 2 == 0 else 4
        options = {"turn_limit": 30} if seed % 5 == 0 else {}
        state, rng = G.setup(players, options, seed), Rng(seed + 7)
        while G.outcome(state) is None:
            seat = min(G.to_act(state))
            state, events = G.apply(state, seat, choose_action(G, state, seat, rng))
            kinds = {e["type"] for e in events}
            for kind in ("passage", "momentum", "captured"):
                if kind in kinds:
                    found.setdefault(f"{kind}{players}", G.view(state, seat))
        outcome = G.outcome(state)
        found.setdefault(f"{'draw' if outcome.draw else 'won'}{players}", G.view(state, None))
    assert {"won2", "won4", "draw2", "captured2", "captured4", "passage4"} <= set(found), sorted(found)
    return found


# ---- registry and format -----------------------------------------------------------------------
def test_registered_under_the_game_name(scripted):
    assert renderer_for("osu") is R.render
    assert "osu" in renderers.registered()
    view = G.view(scripted["warning"], None)
    assert render("osu", view) == R.render(view)
    assert render("osu", view, last=False) == R.render(view, last=False)


@pytest.mark.parametrize("players", [2, 4])
def test_setup_board_is_a_small_palette_png_of_phone_width(scripted, players):
    png = render("osu", G.view(scripted[f"setup{players}"], None))
    image = decode(png)
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == (R.WIDTH, R.height(players))
    assert 800 <= image.width <= 900
    assert len(png) < 300_000


def test_scripted_and_random_states_render_for_every_viewer(scripted, random_views):
    for name, state in scripted.items():
        for seat in [None] + list(range(state["players"])):
            assert decode(render("osu", G.view(state, seat))).size == (R.WIDTH, R.height(state["players"])), name
    for name, view in random_views.items():
        assert decode(render("osu", view)).size == (R.WIDTH, R.height(view["players"])), name


def test_different_states_give_different_images(scripted, random_views):
    views = [G.view(s, None) for s in scripted.values()] + list(random_views.values())
    pngs = [render("osu", v) for v in views]
    assert len(set(pngs)) == len(pngs)


def test_render_is_deterministic_and_pure(scripted):
    view = G.view(scripted["push"], 2)
    before = copy.deepcopy(view)
    first = render("osu", view)
    assert view == before
    for cached in (R.palette, R.board_layer, R.marked_panels, R.tile_sprite, R.mini_sprite, R.score_sprite):
        cached.cache_clear()
    assert render("osu", copy.deepcopy(view)) == first


# ---- what the image shows ----------------------------------------------------------------------------
def test_tiles_show_their_orientation(scripted):
    view = G.view(scripted["rotated"], None)
    turned = copy.deepcopy(view)
    turned["tiles"][0]["rotation"] = (turned["tiles"][0]["rotation"] + 1) % 4
    box = R.GRID.box(view["tiles"][0]["square"])
    assert differs(rgb(view, last=False), rgb(turned, last=False), box)
    assert R.faces_of(0) == ("mouse", "cat", "lion", "monkey")
    assert R.faces_of(1) == ("monkey", "mouse", "cat", "lion")


def test_tile_colour_and_number_show(scripted):
    view = G.view(scripted["setup4"], None)
    other = copy.deepcopy(view)
    other["tiles"][0]["number"] = 4 if other["tiles"][0]["number"] != 4 else 1
    box = R.GRID.box(view["tiles"][0]["square"])
    assert differs(rgb(view), rgb(other), box)
    recoloured = copy.deepcopy(view)
    recoloured["tiles"][0]["seat"] = 2
    assert differs(rgb(view), rgb(recoloured), box)


def test_the_last_chain_is_drawn_as_arrows_on_its_squares(scripted):
    view = G.view(scripted["warning"], None)
    marked, plain = rgb(view), rgb(view, last=False)
    path = view["last"]["path"]
    assert [p["kind"] for p in path] == ["move", "retreat", "retreat", "push"]
    touched = {sq for p in path for sq in (p["from"], p["to"]) if sq}
    for square in touched:
        assert differs(marked, plain, R.GRID.box(square)), square
    # nothing far from the chain changes
    assert not differs(marked, plain, R.GRID.box("f6"))
    assert not differs(plain, rgb({**view, "last": None}))


def test_captures_leave_the_board_with_a_cross_and_show_in_the_captors_panel(scripted):
    """A tile pushed off the board is a red cross in the square it left, in the third next to the
    edge it went over (inside the board: never on a coordinate label)."""
    view = G.view(scripted["capture"], None)
    kind, (cx, cy), direction, seat = R.step_markers(view["last"]["path"])[-1]
    x0, y0, x1, y1 = R.GRID.box("g3")
    assert kind == "off" and seat == 2 and direction == (1, 0)
    assert x1 - R.CELL / 3 < cx < x1 and y0 < cy < y1
    no_caps = copy.deepcopy(view)
    no_caps["captured"] = [[] for _ in no_caps["captured"]]
    assert differs(rgb(view), rgb(no_caps), R.panel_box(1, 4))
    assert not differs(rgb(view), rgb(no_caps), R.panel_box(0, 4))
    # the OSU push captures diagonally: the cross sits in the corner toward the missing corner
    push = G.view(scripted["push"], None)
    off = [m for m in R.step_markers(push["last"]["path"]) if m[0] == "off"]
    (cx, cy), direction = off[0][1], off[0][2]
    x0, y0, _, _ = R.GRID.box("b6")
    assert direction == (-1, -1) and x0 < cx < x0 + R.CELL / 3 and y0 < cy < y0 + R.CELL / 3


def _thirds(square: str, box) -> tuple[set[int], set[int]]:
    """Which column and row thirds (0, 1, 2) of ``square`` a pixel box overlaps."""
    x0, y0, _, _ = R.GRID.box(square)
    third = R.CELL / 3
    cols = {i for i in range(3) if box[0] < x0 + (i + 1) * third and box[2] > x0 + i * third}
    rows = {i for i in range(3) if box[1] < y0 + (i + 1) * third and box[3] > y0 + i * third}
    return cols, rows


@pytest.mark.parametrize("name", ["warning", "capture", "push"])
def test_step_markers_never_cover_numbers_letters_or_animals(scripted, name):
    """A tile shows its letter in the top-left third, its number in the centre and its animals in
    the middle thirds of its sides: every step marker stays inside one of the other three corners,
    and a square entered twice gets two markers side by side, not on top of each other."""
    view = G.view(scripted[name], None)
    markers = R.step_markers(view["last"]["path"])
    assert len(markers) == len([p for p in view["last"]["path"] if p["kind"] != "rotate"])
    spots = set()
    for kind, (cx, cy), direction, seat in markers:
        half = R.STEP / 2
        box = (cx - half, cy - half, cx + half, cy + half)
        square = f"{R.COLUMNS[int((cx - R.GRID.left) // R.CELL)]}{7 - int((cy - R.GRID.top) // R.CELL)}"
        cols, rows = _thirds(square, box)
        assert len(cols) == len(rows) == 1 and 1 not in cols and 1 not in rows, (kind, square, cols, rows)
        if kind != "off":
            assert (cols, rows) != ({0}, {0}), (kind, square)      # the letter's corner
        spots.add((round(cx), round(cy)))
    assert len(spots) == len(markers)
    # and the tile numbers are exactly as without the chain drawn
    marked, plain = rgb(view), rgb(view, last=False)
    for t in view["tiles"]:
        x0, y0, _, _ = R.GRID.box(t["square"])
        third = R.CELL / 3
        assert not differs(marked, plain, (round(x0 + third), round(y0 + third), round(x0 + 2 * third),
                                           round(y0 + 2 * third))), t["square"]


def test_passages_are_dotted_and_rotations_draw_no_arrow(scripted, random_views):
    rotated = G.view(scripted["rotated"], None)
    assert R.step_markers(rotated["last"]["path"]) == []
    assert differs(rgb(rotated), rgb(rotated, last=False), R.GRID.box("c3"))   # its square is outlined
    passage = random_views["passage4"]
    kinds = [m[0] for m in R.step_markers(passage["last"]["path"])]
    assert "passage" in kinds
    step = next(p for p in passage["last"]["path"] if p["kind"] == "passage")
    assert differs(rgb(passage), rgb(passage, last=False), R.GRID.box(step["from"]))   # the dotted ring


def test_reversal_shows_in_the_legend_only(scripted):
    view = G.view(scripted["reversed"], None)
    assert view["reversed"] is True
    header = (0, 0, R.WIDTH, R.PAD + R.HEADER_H)
    normal = {**view, "reversed": False}
    assert differs(rgb(view), rgb(normal), header)
    assert not differs(rgb(view), rgb(normal), (0, R.GRID.top, R.WIDTH, R.height(2)))


def test_turn_winner_and_draw_markers(scripted, random_views):
    view = G.view(scripted["warning"], None)
    assert R.markers(view) == (None, "turn", None, None)
    moved = {**view, "to_act": [2]}
    a, b = rgb(view), rgb(moved)
    assert differs(a, b, R.panel_box(1, 4)) and differs(a, b, R.panel_box(2, 4))
    won = random_views["won4"]
    winner = won["outcome"]["winners"][0]
    assert R.markers(won)[winner] == "win"
    assert differs(rgb(won), rgb({**won, "outcome": None}), R.panel_box(winner, 4))
    assert R.markers(random_views["draw2"]) == ("draw", "draw")


def test_board_geometry():
    assert len(R.squares(4)) == 45 and len(R.squares(2)) == 35
    assert R.home_seat("a3", 4) == 1 and R.home_seat("g3", 4) == 3 and R.home_seat("c7", 2) == 1
    assert R.home_seat("a3", 2) is None and not R.on_board("a3", 2) and not R.on_board("g7", 4)
    # the 2-player board is the middle five columns of the same grid (rank numbers on the left only,
    # so the squares can be big enough for phone-size animals)
    assert R.GRID.box("b1")[0] == R.GRID.left + R.CELL and R.GRID.right <= R.WIDTH


def test_unusual_but_valid_views_render(scripted):
    view = copy.deepcopy(G.view(scripted["capture"], None))
    view["captured"][1] = [{"seat": s % 4, "number": 1 + s % 4, "counts": True} for s in range(9)]
    view["scores"] = [0, 9, 0, 0]
    view["to_act"] = []
    view["last"] = {"seat": 0, "action": "b1>", "path": []}
    assert decode(render("osu", view)).size == (R.WIDTH, R.height(4))


def test_sample_images_are_written(tmp_path, scripted, random_views):
    views = {k: G.view(s, None) for k, s in scripted.items()} | random_views
    for name, view in views.items():
        (tmp_path / f"osu_{name}.png").write_bytes(render("osu", view))
    assert len(list(tmp_path.glob("osu_*.png"))) == len(views)


def test_docstring_examples():
    assert doctest.testmod(R).failed == 0
