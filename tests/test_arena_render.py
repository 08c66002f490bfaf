"""The Arena Duel image: drawn from real engine views of scripted and random games."""

from __future__ import annotations

import copy
import json
import math

import pytest
from PIL import Image

import renderers
from tests.image_checks import PNG_MAGIC, decode, differs
from games import get_game
from games.arena.hexes import HEXES as ENGINE_HEXES, axial as engine_axial
from games.rng import Rng
from renderers import arena as R
from renderers.common import player_style

G = get_game("arena")


def rgb(view, **options) -> Image.Image:
    return R.render_image(view, **options).convert("RGB")


def scripted(pos, facing, dice, orders, charge=(False, False), life=(15, 15)):
    s = G.setup(2, {}, seed=7)
    s.update(pos=list(pos), facing=list(facing), can_charge=list(charge), dice=[list(d) for d in dice],
             life=list(life))
    s, _ = G.apply(s, 0, orders[0])
    s, events = G.apply(s, 1, orders[1])
    return s, events


@pytest.fixture(scope="module")
def states():
    out = {"setup": G.setup(2, {}, seed=7)}
    out["charge"], _ = scripted(("c1", "c3"), (0, 3), ([6, 1, 1], [1, 1, 1]), ("CF/0", "S/R"), charge=(True, False))
    out["crossing"], _ = scripted(("c2", "c3"), (0, 3), ([1, 2, 1], [6, 5, 6]), ("F/0", "F/0"))
    out["collision"], _ = scripted(("c1", "c3"), (0, 3), ([1, 1, 2], [6, 1, 5]), ("F/R", "F/L"))
    out["wall"], _ = scripted(("c4", "c5"), (0, 1), ([1, 1, 1], [1, 1, 1]), ("F/0", "S/0"))
    out["pending"], _ = G.apply(out["charge"], 0, "FR/L")
    rng, state = Rng(3), G.setup(2, {}, 3)
    while G.outcome(state) is None:
        seat = rng.choice(sorted(G.to_act(state)))
        state, _ = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
    out["end"] = state
    reported = G.setup(2, {"dice": "reported", "life": 40}, 9)
    out["reported"], _ = G.apply(reported, 0, "3-5-1")
    return out


def test_registered_under_the_game_name_and_aliases(states):
    assert renderers.renderer_for("arena") is R.render
    assert renderers.render("arenaduel", G.view(states["setup"], None))[:8] == PNG_MAGIC


def test_the_renderer_and_the_engine_name_the_same_19_hexes():
    assert sorted(R.HEXES) == sorted(ENGINE_HEXES)
    for h in ENGINE_HEXES:
        assert R.axial(h) == engine_axial(h)


@pytest.mark.parametrize("name", ["setup", "charge", "crossing", "collision", "wall", "pending", "end", "reported"])
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_every_view_renders_at_phone_width(states, name, viewer):
    image = decode(R.render(G.view(states[name], viewer)))
    assert image.size == (R.WIDTH, R.HEIGHT) and R.WIDTH == 800 and R.HEIGHT < 1100


def test_render_is_deterministic_and_does_not_touch_the_view(states):
    view = G.view(states["charge"], None)
    before = copy.deepcopy(view)
    assert R.render(view) == R.render(view)
    assert view == before


def test_different_states_give_different_images(states):
    images = [R.render(G.view(states[n], None)) for n in ("setup", "charge", "crossing", "collision", "wall", "end")]
    assert len(set(images)) == len(images)


def test_facing_is_drawn_on_the_faced_hex_side(states):
    image = rgb(G.view(states["setup"], None))
    blue, orange = player_style(0).colour, player_style(1).colour

    def near(colour, point):
        x, y = point
        for dx in range(-4, 5):
            for dy in range(-4, 5):
                px = image.getpixel((round(x + dx), round(y + dy)))
                if sum(abs(a - b) for a, b in zip(px, colour)) < 60:
                    return True
        return False

    # the pointer: a wedge in the seat's colour just inside the faced side, none at the opposite one
    assert near(blue, R.side_point("c1", 0, 0.75))        # A faces north from c1
    assert not near(blue, R.side_point("c1", 3, 0.75))
    assert near(orange, R.side_point("c5", 3, 0.75))      # B faces south from c5
    assert not near(orange, R.side_point("c5", 0, 0.75))


def test_last_turn_paths_are_drawn_and_can_be_hidden(states):
    view = G.view(states["charge"], None)
    with_marks, without = rgb(view), rgb(view, last=False)
    (x0, y0), (x1, y1) = R.centre("c1"), R.centre("c2")
    assert differs(with_marks, without, (min(x0, x1) - 10, y1, max(x0, x1) + 10, y0))


def test_trails_chain_pushes_per_figure(states):
    last = G.view(states["charge"], None)["last"]
    chains = R.trails(last)
    assert (0, "own", ["c1", "c2", "c3"]) in chains
    assert (1, "shoved", ["c3", "c4", "c5"]) in chains     # pushed by the charge, then by the front win
    assert (0, "shoved", ["c3", "c4"]) in chains           # the winner's advance


def test_clashes_are_marked(states):
    for name in ("crossing", "collision", "wall"):
        view = G.view(states[name], None)
        assert view["last"]["clashes"], name
        point = R.side_point(view["last"]["clashes"][0]["hex"], view["last"]["clashes"][0]["dir"])
        assert rgb(view).getpixel((round(point[0]), round(point[1]))) != rgb(view, last=False).getpixel(
            (round(point[0]), round(point[1])))


def test_own_secret_dice_show_only_in_the_own_view(states):
    state = states["pending"]
    panel = R.panel_box(0)
    dice_box = (R.DICE_X0 - 10, panel[1], panel[2], panel[3])
    public, own, other = (rgb(G.view(state, v)) for v in (None, 0, 1))
    assert differs(public, own, dice_box)
    assert not differs(public, other, dice_box)


def test_reported_mode_before_dice_and_a_long_life_bar_render(states):
    view = G.view(states["reported"], 1)
    assert view["my_dice"] is None and view["life_max"] == 40
    decode(R.render(view))


def test_outcome_markers(states):
    view = G.view(states["end"], None)
    assert R.markers(view) in (("win", None), (None, "win"), ("draw", "draw"))
    assert R.markers(G.view(states["pending"], None)) == ("in", "turn")
    assert R.markers(G.view(states["setup"], None)) == ("turn", "turn")


def test_names_sit_above_the_figure_or_below_where_its_pointer_is():
    """A hex's name is on the hex's upright axis: above its middle, or below it where the
    figure there points N, NE or NW; never in a corner shared with other hexes."""
    cx, cy = R.centre("c3")
    for facing in (None, 0, 1, 2, 3, 4, 5):
        x, y = R.label_point("c3", facing)
        assert x == cx and abs(y - cy) == pytest.approx(R.LABEL_DY)
        assert (y > cy) == (facing in (0, 1, 5))


def test_a_figure_stays_inside_its_hex_with_its_pointer_on_the_faced_side():
    for facing in range(6):
        tip = R.pointer_points(facing)[0]
        ux, uy = R.unit(facing)
        assert tip[0] * ux + tip[1] * uy == pytest.approx(R.POINTER_TIP)   # out through the faced side
        for x0, y0, x1, y1 in R.figure_parts(facing, True).values():
            for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
                assert R.LAYOUT.from_pixel(R.ORIGIN[0] + x, R.ORIGIN[1] + y) == (0, 0), (facing, x, y)


def test_arrows_stop_where_they_enter_their_last_hex():
    """The last hex's figure, pointer and name stay clear: A's step c1-c2 ends at the c1/c2
    side, not at A (drawn here without the figures, so nothing covers the arrow)."""
    state, _ = scripted(("c1", "c5"), (0, 3), ([1, 1, 1], [1, 1, 1]), ("F/0", "S/0"))
    view = dict(G.view(state, None), figures=[])
    assert view["last"]["paths"][0] == ["c1", "c2"]
    with_marks, without = rgb(view), rgb(view, last=False)
    (cx, cy), (sx, sy) = R.centre("c2"), R.side_point("c2", 3)
    assert differs(with_marks, without, (round(sx - 6), round(sy - 4), round(sx + 6), round(sy + 30)))  # c1's half
    assert not differs(with_marks, without, (round(cx - 6), round(cy - 20), round(cx + 6), round(sy - 6)))


def test_unusual_but_valid_views_render(states):
    view = json.loads(json.dumps(G.view(states["end"], 0)))
    view["last"] = None
    decode(R.render(view))
    view = G.view(states["setup"], None)
    view["figures"][0]["life"] = 0
    view["figures"][1]["back_blocked"] = True
    decode(R.render(view))


def test_sample_images_are_written(tmp_path, states):
    for name, state in states.items():
        path = tmp_path / f"arena_{name}.png"
        path.write_bytes(R.render(G.view(state, 0)))
        assert path.stat().st_size > 1000


def test_composed_in_palette_mode_with_the_exact_seat_colours(states):
    """Palette mode (cheap to encode) keeps the project's colours exactly: each seat's token
    colour, the floor and the yellow clash mark all appear as themselves."""
    image = decode(R.render(G.view(states["crossing"], None)))
    assert image.mode == "P"
    colours = {c for _, c in image.convert("RGB").getcolors(1 << 16)}
    for expected in (player_style(0).colour, player_style(1).colour, R.FLOOR, R.HIGHLIGHT, R.WALL_COLOUR):
        assert tuple(expected) in colours, expected
