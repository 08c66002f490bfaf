"""The HOSTILE board image: real engine views in, PNG out; tiles, gems, pieces and panels show."""

from __future__ import annotations

import copy

import pytest
from PIL import Image

import renderers
from tests.image_checks import decode, differs
from games.ai import choose_action
from games.hostile.engine import Hostile
from games.hostile.tiles import floor_kinds
from games.rng import Rng
from renderers import hostile as R
from tests.test_hostile import play, turn_of

G = Hostile()


def rgb(view, **options) -> Image.Image:
    return R.render_image(view, **options).convert("RGB")


def cell_box(square: str) -> tuple[int, int, int, int]:
    return R.GRID.box(square.lower())


def header_box() -> tuple[int, int, int, int]:
    return (0, 0, R.WIDTH, R.GRID.top - 4)


@pytest.fixture(scope="module")
def views():
    """Views of random games with 2, 3 and 4 players: every phase, and finished games."""
    found: dict[str, dict] = {}
    for players in (2, 3, 4):
        for seed in range(2):
            state, rng = G.setup(players, {}, seed), Rng(seed + 10)
            found.setdefault(f"{players}-{state['phase']}", G.view(state, None))
            while G.outcome(state) is None:
                seat = min(G.to_act(state))
                state, _ = G.apply(state, seat, choose_action(G, state, seat, rng))
                found.setdefault(f"{players}-{state['phase']}", G.view(state, seat))
            found.setdefault(f"{players}-over", G.view(state, None))
    return found


def test_registered_under_the_game_name():
    assert "hostile" in renderers.registered()
    assert renderers.renderer_for("hostile") is R.render


def test_every_phase_and_mode_renders_a_phone_sized_png(views):
    assert {"2-skill", "2-draft", "2-turn", "2-over", "3-corner", "3-turn", "4-draft", "4-over"} <= set(views)
    for name, view in views.items():
        png = renderers.render("hostile", view)
        image = decode(png)
        assert image.size == (R.WIDTH, R.height(view["players"])), name
        assert 600 <= image.width <= 960 and image.mode == "P"
        assert len(png) < 300_000


def test_render_is_deterministic_and_does_not_mutate_the_view(views):
    view = views["4-turn"]
    before = copy.deepcopy(view)
    assert R.render(view) == R.render(copy.deepcopy(view))
    assert view == before


def test_each_tile_kind_and_orientation_looks_different():
    images = {}
    for kind, spec in floor_kinds().items():
        for orient in spec.orientations:
            images[(kind, orient)] = R._tile_rgb(kind, orient, R.LIGHT_SQ)
    keys = list(images)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert differs(images[a], images[b]), (a, b)


def test_tiles_gems_and_pieces_show_on_their_squares():
    empty = turn_of(pos={0: "B2", 1: "G7"})
    base = rgb(G.view(empty, None))
    s = turn_of(pos={0: "B2", 1: "G7"}, tiles={"D4": "spring:E"}, gems={"E5": 2})
    image = rgb(G.view(s, None))
    assert differs(base, image, cell_box("D4")) and differs(base, image, cell_box("E5"))
    assert not differs(base, image, cell_box("C3"))
    moved = copy.deepcopy(empty)
    moved["pos"][0] = "C2"
    assert differs(base, rgb(G.view(moved, None)), cell_box("C2"))
    more = copy.deepcopy(s)
    more["gems"]["E5"] = 3
    assert differs(image, rgb(G.view(more, None)), cell_box("E5"))


def test_the_last_movement_chain_is_drawn_and_can_be_left_out():
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "ice", "E4": "lwall:SW"})
    s, _ = play(s, "move E")
    view = G.view(s, None)
    assert [step[2] for step in view["last"]["path"]] == ["move", "slide"]
    assert differs(rgb(view), rgb(view, last=False), cell_box("C4"))
    placed = turn_of(hands={0: ["stop"]})
    placed, _ = play(placed, "place stop@E5")
    v = G.view(placed, None)
    assert differs(rgb(v), rgb(v, last=False), cell_box("E5"))


def test_panels_follow_scores_hands_skills_and_action_points():
    s = turn_of(4, 0, hands={0: ["slide", "C5"]}, skill="rotate")
    view = G.view(s, None)
    image = rgb(view)
    panel = R.panel_box(0)
    for change in ("score", "hand", "ap", "skill"):
        t = copy.deepcopy(s)
        if change == "score":
            t["score"][0] = 7
        elif change == "hand":
            t["hands"][0] = ["slide"]
        elif change == "ap":
            t["turn"]["ap"] = 1
        else:
            t["skills"][0] = "ghost"
        assert differs(image, rgb(G.view(t, None)), panel), change
    t = copy.deepcopy(s)
    t["score"][0] = 7  # own gems in the own panel; the team total against the target in the header
    changed = rgb(G.view(t, None))
    assert differs(image, changed, header_box())
    for seat in (1, 2, 3):
        assert not differs(image, changed, R.panel_box(seat)), seat


def test_line_decks_and_skill_cards_show():
    s = G.setup(2, {}, 3)
    view = G.view(s, None)
    image = rgb(view)
    strip = (R.PAD, R.strip_y(2), R.WIDTH - R.PAD, R.height(2))
    t = copy.deepcopy(s)
    t["line_floor"] = t["line_floor"][1:]
    assert differs(image, rgb(G.view(t, None)), strip)
    t = copy.deepcopy(s)
    t["floor_deck"] = t["floor_deck"][1:]
    assert differs(image, rgb(G.view(t, None)), strip)
    t, _ = play(copy.deepcopy(s), f"skill {s['pool'][0]}")
    assert differs(image, rgb(G.view(t, None)), strip)


def test_winner_and_turn_markers(views):
    over = views["4-over"]
    running = views["4-turn"]
    assert differs(rgb(over), rgb(running), R.panel_box(0))


def test_unusual_views_render():
    s = G.setup(3, {}, 1)  # before the corner pick: no starts, no pieces
    decode(R.render(G.view(s, None)))
    s = turn_of(pos={0: "B4"}, gems={"C5": 150}, hands={0: ["C3", "D3", "E3", "F3"]})
    decode(R.render(G.view(s, 1)))


def test_round_and_gem_target_show_in_the_header():
    s = turn_of(2, 0)
    view = G.view(s, None)
    assert view["round"] >= 1 and view["target"]
    image = rgb(view)
    later = rgb({**view, "round": view["round"] + 1})
    other_target = rgb({**view, "target": view["target"] + 5})
    for changed in (later, other_target):
        assert differs(image, changed, header_box())
        assert not differs(image, changed, (0, R.GRID.top, R.WIDTH, R.height(2)))


def test_action_points_and_skill_uses_are_numbered():
    """Action points are numbered pips (filled while left); skill uses read "x2", "x1", "x0"."""
    s = turn_of(2, 0, skill="rotate")
    view = G.view(s, None)
    assert view["turn"]["uses"] == 2 and view["turn"]["ap"] == 2
    panel = R.panel_box(0)
    one_ap, one_use = copy.deepcopy(view), copy.deepcopy(view)
    one_ap["turn"]["ap"] = 1
    one_use["turn"]["uses"] = 1
    image = rgb(view)
    assert differs(image, rgb(one_ap), panel) and differs(image, rgb(one_use), panel)
    assert R.text_sprite("x2", R.INK, R.player_style(0).light)[0].width > 20
    assert R.pip_sprite(1, True, R.player_style(0).colour, R.player_style(0).light, False) is not \
        R.pip_sprite(2, True, R.player_style(0).colour, R.player_style(0).light, False)


def test_path_marks_sit_on_edges_and_leave_tile_symbols_alone():
    """The movement path is a chevron on each crossed edge: the middle of every square it went
    through (where a tile shows its symbol) looks exactly as without the path."""
    s = turn_of(pos={0: "B4"}, tiles={"C4": "slide:E", "D4": "ice", "E4": "lwall:SW"})
    s, _ = play(s, "move E")
    view = G.view(s, None)
    chevrons, lines = R.step_marks(view["last"]["path"])
    assert len(chevrons) == 2 and not lines
    marked, plain = rgb(view), rgb(view, last=False)
    for square in ("B4", "C4", "D4"):
        x0, y0, x1, y1 = cell_box(square)
        inner = (x0 + 18, y0 + 18, x1 - 18, y1 - 18)
        assert not differs(marked, plain, inner), square
    for (x, y), _ in chevrons:
        assert differs(marked, plain, (round(x) - 4, round(y) - 4, round(x) + 4, round(y) + 4))


def test_wall_gates_show_on_open_sides():
    """An L wall's two open sides each show a white gate arrow; a box wall has none."""
    lwall = R._tile_rgb("lwall", "NE", R.LIGHT_SQ)   # closed north and east: open south and west
    box = R._tile_rgb("box", "", R.LIGHT_SQ)
    c = R.CELL // 2
    south, west = (c, R.CELL - 16), (16, c)
    for x, y in (south, west):
        assert lwall.getpixel((x, y)) == R.WHITE
        assert box.getpixel((x, y)) != R.WHITE


# ---- slide tiles are in no seat's colour (issue #31: a newcomer read blue slides as A's tiles) ------------
_CVD = {  # Machado, Oliveira & Fernandes (2009), full severity, on linear RGB
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}


def _lab(rgb, vision: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour as seen with ``vision``."""
    lin = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    r, g, b = (max(0.0, sum(m * v for m, v in zip(row, lin))) for row in _CVD[vision])
    x, y, z = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def repeats_a_seat(colour, vision: str) -> list[str]:
    """The seats whose colour, tint or dark shade ``colour`` passes for (CIELAB distance under 15),
    unless it is a grey (no seat's colour is)."""
    from renderers.common import player_style
    lab = _lab(colour, vision)
    if (lab[1] ** 2 + lab[2] ** 2) ** 0.5 < 8:
        return []
    out = []
    for seat in range(4):
        style = player_style(seat)
        for own in (style.colour, style.light, style.dark):
            if sum((p - q) ** 2 for p, q in zip(lab, _lab(own, vision))) ** 0.5 < 15:
                out.append(style.letter)
    return out


def test_slide_tiles_repeat_no_seat_colour():
    """Every colour covering a tenth of a slide or diagonal slide tile is a grey or far from each
    seat's colour, tint and dark shade, for normal, protan and deutan vision alike."""
    for kind, orient in (("slide", "N"), ("diag", "NE")):
        tile = R._tile_rgb(kind, orient, R.LIGHT_SQ).convert("RGB")
        area = tile.width * tile.height
        main = [c for n, c in tile.getcolors(area) if n >= area / 10]
        assert len(main) >= 2   # its ground and its arrow
        for colour in main:
            for vision in _CVD:
                assert not repeats_a_seat(colour, vision), (kind, colour, vision)


def test_the_old_blue_slide_would_have_repeated_seat_a():
    """The check bites: the blue slide of before was seat A's tint (ground) and dark shade (arrow)."""
    assert "A" in repeats_a_seat((205, 228, 245), "normal")
    assert "A" in repeats_a_seat((0, 86, 140), "normal") and "A" in repeats_a_seat((0, 86, 140), "deutan")
